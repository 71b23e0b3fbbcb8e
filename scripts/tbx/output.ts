/** What both modes print: the import's progress bar and summary, and failures. */
import { SingleBar } from 'cli-progress';

/** A failure to report as it is (no stack trace), exiting with status 1. */
export class CliError extends Error {
  override readonly name = 'CliError';
}

export interface ImportSummary {
  dictionaryId: number;
  concepts: number;
  terms: number;
  updated: number;
  skipped: number;
  errors: { line: number; message: string }[];
  /** All errors; `errors` holds the first 1000. */
  errorCount?: number;
}

/** A job as either mode sees it: GET /jobs/{id}, or its row. */
export interface JobState {
  status: 'RUNNING' | 'DONE' | 'FAILED';
  processed: number;
  total: number | null;
  result: unknown;
  message: string | null;
}

const POLL_MS = 250;

/** Polls the job until it ends, drawing the bar (on a terminal) from its processed/total entries. */
export async function followJob(read: () => Promise<JobState>): Promise<ImportSummary> {
  const bar = new SingleBar({
    format: 'importing [{bar}] {percentage}% | {value}/{total} entries | {duration}s',
  });
  let started = false;
  for (;;) {
    const job = await read();
    const total = job.total ?? Math.max(job.processed, 1);
    if (!started) bar.start(total, job.processed);
    started = true;
    bar.setTotal(total);
    bar.update(job.processed);
    if (job.status !== 'RUNNING') {
      bar.stop();
      if (job.status === 'FAILED') throw new CliError(`Import failed: ${job.message ?? 'unknown reason'}`);
      return job.result as ImportSummary;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

export function printSummary(summary: ImportSummary): void {
  const errorCount = summary.errorCount ?? summary.errors.length;
  console.log(`dictionary ${summary.dictionaryId}: ${summary.concepts} concepts, ${summary.terms} terms`);
  console.log(`updated ${summary.updated}, skipped ${summary.skipped}, errors ${errorCount}`);
  for (const error of summary.errors.slice(0, 50)) console.log(`  line ${error.line}: ${error.message}`);
  if (errorCount > 50) console.log(`  ... and ${errorCount - 50} more`);
}
