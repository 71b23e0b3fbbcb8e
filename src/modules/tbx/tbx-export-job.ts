/**
 * An export as a job (docs/tbx.md, The export's job), for every format (TBX and its dialects, MultiTerm
 * XML, CSV, XLSX, SKOS): the download streams at once, and a job task (`dictionaries.export-tbx`,
 * `dictionaries.export-skos`) records it: its progress in concepts written and, once the last byte is
 * produced, the summary with what the file could not express (TbxExportSummary). The caller learns the
 * job's id before the first byte (REST: the `X-Job-Task-Id` header) and reads the summary with
 * GET /jobs/{id} once the download has ended; the job is DONE before the last chunk is handed out.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Scope } from '../../shared/scope.js';
import { recordEvent } from '../events/event-log.js';
import { beatNow, jobsRunningOn } from '../jobs/job-heartbeat.js';
import { JobTask } from '../jobs/job-task.entity.js';
import type { TbxExportSummary } from './tbx-export.schema.js';
import type { ExportChunk, TbxDownload } from './tbx-export.service.js';

export const TBX_EXPORT_JOB = 'dictionaries.export-tbx';
/** Progress is written at most this often. */
const PROGRESS_MS = 250;

/** The download's header that names its job (OpenAPI). */
export const EXPORT_JOB_HEADERS = {
  'X-Job-Task-Id': {
    description:
      'the job recording the download: once the download ended, GET /jobs/{id} answers DONE with the export ' +
      'summary (concepts and terms written; what the file could not express: counts and examples)',
    schema: { type: 'integer' as const },
  },
};

export interface TbxExportJob {
  fileName: string;
  chunks: AsyncIterable<ExportChunk>;
  jobTaskId: number;
}

/** A download of any format; SKOS reports nothing it could not express (its fields are fixed). */
export type ExportDownload = Omit<TbxDownload, 'format'> & { format?: string };

/** The summary of a consumed download. */
export function exportSummary(download: ExportDownload): TbxExportSummary {
  const counts = Object.fromEntries(download.report ?? []);
  return {
    dictionaryId: download.dictionaryId ?? 0,
    format: download.format ?? 'TBX',
    exportedConcepts: download.written?.concepts ?? 0,
    exportedTerms: download.written?.terms ?? 0,
    notExpressed: {
      total: Object.values(counts).reduce((sum, count) => sum + count, 0),
      counts,
      examples: download.examples ?? [],
    },
  };
}

/**
 * Records a download as a job of the caller. The job ends DONE with the summary when the document has
 * been produced, FAILED when producing it failed or the consumer stopped reading (a download cut short).
 */
export async function asExportJob(
  scope: Scope,
  download: ExportDownload,
  type = TBX_EXPORT_JOB,
): Promise<TbxExportJob> {
  const em = scope.em.fork();
  const job = em.create(JobTask, {
    clientId: scope.actor.clientId,
    userId: scope.actor.userId,
    type,
    createdAt: new Date(),
  });
  await em.flush();
  // This process's heartbeat keeps the job alive while it streams (job-heartbeat.ts).
  const running = jobsRunningOn(em);
  running.add(job.id);
  await beatNow(em, [job.id]);
  const chunks = tracked(em, job.id, download, running, {
    clientId: scope.actor.clientId,
    userId: scope.actor.userId,
    type,
  });
  return { fileName: download.fileName, chunks, jobTaskId: job.id };
}

async function* tracked(
  em: EntityManager,
  jobId: number,
  download: ExportDownload,
  running: Set<number>,
  job: { clientId: number; userId: number; type: string },
): AsyncGenerator<ExportChunk> {
  let ended = false;
  let lastWrite = 0;
  const end = async (fields: Partial<JobTask>, on: EntityManager = em) => {
    ended = true;
    running.delete(jobId);
    await on.nativeUpdate(JobTask, { id: jobId }, { ...fields, finishedAt: new Date() });
  };
  try {
    // One chunk is held back: the job is DONE before the consumer gets the last one, so a client that
    // reads the job once its download ended always finds the summary.
    let held: ExportChunk | undefined;
    for await (const chunk of download.chunks) {
      if (held !== undefined) yield held;
      held = chunk;
      const now = Date.now();
      if (now - lastWrite >= PROGRESS_MS) {
        lastWrite = now;
        await em.nativeUpdate(JobTask, { id: jobId }, { processed: download.written?.concepts ?? 0 });
      }
    }
    const summary = exportSummary(download);
    // The job's end and its export.finished event (docs/events.md) commit together.
    await em.transactional(async (tx) => {
      await end({ status: 'DONE', processed: summary.exportedConcepts, result: summary }, tx);
      const { notExpressed, ...counts } = summary;
      recordEvent(tx, {
        clientId: job.clientId,
        type: 'export.finished',
        actorId: job.userId,
        dictionaryId: summary.dictionaryId || null,
        data: { jobTaskId: jobId, jobType: job.type, ...counts, notExpressed: notExpressed.total },
      });
    });
    if (held !== undefined) yield held;
  } catch (error) {
    if (!ended)
      await end({ status: 'FAILED', message: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    // The consumer stopped reading (the client went away): the file it has is not whole.
    if (!ended) await end({ status: 'FAILED', message: 'The download was cut short' });
  }
}
