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
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The answer of the import call: the summary when it ended within the threshold, else its job. */
export interface ImportStarted {
  result?: ImportSummary;
  jobTaskId?: number;
}

/**
 * How an import shows its progress: the bar from the moment the import starts, drawn from its job's
 * processed/total entries. The job is found while the call still runs (a new import job of the user), so
 * an import that ends within the server's async threshold shows its progress as a longer one does.
 * On a terminal the bar redraws in place; otherwise (a log, CI) a progress line is written every second.
 */
export async function followImport(
  started: Promise<ImportStarted>,
  jobs: { find(): Promise<number | undefined>; read(id: number): Promise<JobState> },
): Promise<ImportSummary> {
  const bar = new SingleBar({
    format: 'importing [{bar}] {percentage}% | {value}/{total} entries | {duration}s',
    noTTYOutput: true,
    notTTYSchedule: 1000,
  });
  bar.start(1, 0);
  const show = (job: JobState) => {
    bar.setTotal(job.total ?? Math.max(job.processed, 1));
    bar.update(job.processed);
  };
  let answer: ImportStarted | undefined;
  let failure: unknown;
  const settled = started.then(
    (value) => {
      answer = value;
    },
    (error: unknown) => {
      failure = error ?? new Error('import failed');
    },
  );
  let jobId: number | undefined;
  try {
    // While the call runs: find its job, then follow it.
    while (answer === undefined && failure === undefined) {
      jobId ??= await jobs.find();
      if (jobId !== undefined) show(await jobs.read(jobId));
      await Promise.race([settled, sleep(POLL_MS)]);
    }
    if (failure !== undefined) throw failure;
    const call = answer as ImportStarted;
    if (call.jobTaskId === undefined) {
      bar.update(bar.getTotal());
      return call.result as ImportSummary;
    }
    // Still running after the threshold: follow the job the call named until it ends.
    for (;;) {
      const job = await jobs.read(call.jobTaskId);
      show(job);
      if (job.status === 'FAILED') throw new CliError(`Import failed: ${job.message ?? 'unknown reason'}`);
      if (job.status === 'DONE') return job.result as ImportSummary;
      await sleep(POLL_MS);
    }
  } finally {
    bar.stop();
  }
}

export function printSummary(summary: ImportSummary): void {
  const errorCount = summary.errorCount ?? summary.errors.length;
  console.log(`dictionary ${summary.dictionaryId}: ${summary.concepts} concepts, ${summary.terms} terms`);
  console.log(`updated ${summary.updated}, skipped ${summary.skipped}, errors ${errorCount}`);
  for (const error of summary.errors.slice(0, 50)) console.log(`  line ${error.line}: ${error.message}`);
  if (errorCount > 50) console.log(`  ... and ${errorCount - 50} more`);
}

/** A finished export's summary (the export job's result): what was written and what was not expressed. */
export interface ExportSummary {
  format: string;
  exportedConcepts: number;
  exportedTerms: number;
  notExpressed: {
    total: number;
    counts: Record<string, number>;
    examples: {
      what: string;
      entryId: string | null;
      level: string;
      lang: string | null;
      term: string | null;
      value: string;
    }[];
  };
}

export function printExportSummary(out: string, summary: ExportSummary): void {
  console.log(
    `wrote ${out}: ${summary.exportedConcepts} concepts, ${summary.exportedTerms} terms (${summary.format})`,
  );
  const { total, counts, examples } = summary.notExpressed;
  if (total === 0) return;
  console.log(`not expressed as such: ${total}`);
  for (const [what, count] of Object.entries(counts)) {
    console.log(`  ${count} x ${what}`);
    for (const example of examples.filter((e) => e.what === what)) {
      const where = [
        `entry ${example.entryId ?? '(no id)'}`,
        example.lang && `language ${example.lang}`,
        example.term !== null && `term ${JSON.stringify(example.term)}`,
      ].filter(Boolean);
      console.log(`    e.g. ${where.join(', ')}${example.value ? `: ${JSON.stringify(example.value)}` : ''}`);
    }
  }
}

/** A JSON file the user wrote (a mapping); a missing or broken file is a usage error naming it. */
export async function readJsonFile(file: string, option: string): Promise<unknown> {
  const { readFile } = await import('node:fs/promises');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new CliError(`${option}: cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliError(`${option}: ${file} is not JSON: ${(error as Error).message}`);
  }
}

/** A preview as JSON: to the file given (to edit its mapping), else to the screen. */
export async function printPreview(preview: unknown, out: string | undefined): Promise<void> {
  const text = `${JSON.stringify(preview, null, 2)}\n`;
  if (!out) {
    process.stdout.write(text);
    return;
  }
  const { writeFile } = await import('node:fs/promises');
  await writeFile(out, text);
  console.log(`wrote ${out}: edit its "mapping" and pass it to import (--mapping or --field-mapping)`);
}

/** Spreadsheets by their extension; anything else is previewed as MultiTerm XML. */
export const isSpreadsheetFile = (file: string) => /\.(csv|tsv|txt|xlsx)$/i.test(file);
