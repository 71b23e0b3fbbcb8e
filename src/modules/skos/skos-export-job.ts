/**
 * A SKOS export as a job, as the TBX export is one (tbx-export-job.ts): the download streams at once and
 * a job task (`dictionaries.export-skos`) records its progress in concepts written and, once the last
 * byte is produced, the summary. REST names the job in the `X-Job-Task-Id` header.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Scope } from '../../shared/scope.js';
import { beatNow, jobsRunningOn } from '../jobs/job-heartbeat.js';
import { JobTask } from '../jobs/job-task.entity.js';
import type { TbxExportSummary } from '../tbx/tbx-export.schema.js';
import type { SkosDownload } from './skos-export.service.js';

export const SKOS_EXPORT_JOB = 'dictionaries.export-skos';
/** Progress is written at most this often. */
const PROGRESS_MS = 250;

export interface SkosExportJob {
  fileName: string;
  contentType: string;
  chunks: AsyncIterable<string>;
  jobTaskId: number;
}

/**
 * The summary a finished export job answers, in the TBX export's shape (jobs answer one of a few result
 * shapes); SKOS reports nothing under notExpressed: which fields it writes is fixed (docs/exchange.md).
 */
export const skosExportSummary = (download: SkosDownload): TbxExportSummary => ({
  dictionaryId: download.dictionaryId,
  format: download.format,
  exportedConcepts: download.written.concepts,
  exportedTerms: download.written.terms,
  notExpressed: { total: 0, counts: {}, examples: [] },
});

/**
 * Records a download as a job of the caller: DONE with the summary once the document is produced,
 * FAILED when producing it failed or the consumer stopped reading.
 */
export async function asSkosExportJob(scope: Scope, download: SkosDownload): Promise<SkosExportJob> {
  const em = scope.em.fork();
  const job = em.create(JobTask, {
    clientId: scope.actor.clientId,
    userId: scope.actor.userId,
    type: SKOS_EXPORT_JOB,
    createdAt: new Date(),
  });
  await em.flush();
  const running = jobsRunningOn(em);
  running.add(job.id);
  await beatNow(em, [job.id]);
  return {
    fileName: download.fileName,
    contentType: download.contentType,
    chunks: tracked(em, job.id, download, running),
    jobTaskId: job.id,
  };
}

async function* tracked(
  em: EntityManager,
  jobId: number,
  download: SkosDownload,
  running: Set<number>,
): AsyncGenerator<string> {
  let ended = false;
  let lastWrite = 0;
  const end = async (fields: Partial<JobTask>) => {
    ended = true;
    running.delete(jobId);
    await em.nativeUpdate(JobTask, { id: jobId }, { ...fields, finishedAt: new Date() });
  };
  try {
    // The last chunk is held back until the job is DONE, so a client reading the job once its download
    // ended finds the summary.
    let held: string | undefined;
    for await (const chunk of download.chunks) {
      if (held !== undefined) yield held;
      held = chunk;
      const now = Date.now();
      if (now - lastWrite >= PROGRESS_MS) {
        lastWrite = now;
        await em.nativeUpdate(JobTask, { id: jobId }, { processed: download.written.concepts });
      }
    }
    const summary = skosExportSummary(download);
    await end({ status: 'DONE', processed: summary.exportedConcepts, result: summary });
    if (held !== undefined) yield held;
  } catch (error) {
    if (!ended)
      await end({ status: 'FAILED', message: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    if (!ended) await end({ status: 'FAILED', message: 'The download was cut short' });
  }
}
