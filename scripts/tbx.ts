/**
 * TBX import and export from the command line, against a running server (REST):
 *
 *   npm run tbx -- import FILE (--dictionary ID | --name NAME) [--merge ENTRY_ID|TERM|NONE] [--section OID]
 *   npm run tbx -- export ID --out FILE [--format TBX|TBX_V2] [--languages eng,isl]
 *
 * Connection: --server URL (default http://127.0.0.1:8080, or POLYTERM_URL), and either --token TOKEN
 * (or POLYTERM_TOKEN) or --user NAME --password SECRET [--client LOGIN] (or POLYTERM_USER,
 * POLYTERM_PASSWORD, POLYTERM_CLIENT). Import shows a progress bar from the job's processed/total and
 * ends with a summary (concepts, terms, updated, skipped, errors with their line numbers).
 */
import { createWriteStream, openAsBlob } from 'node:fs';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { SingleBar } from 'cli-progress';

interface ImportSummary {
  dictionaryId: number;
  concepts: number;
  terms: number;
  updated: number;
  skipped: number;
  errors: { line: number; message: string }[];
}

interface JobBody {
  status: 'RUNNING' | 'DONE' | 'FAILED';
  processed: number;
  total: number | null;
  result: unknown;
  message: string | null;
}

const USAGE = `Usage:
  npm run tbx -- import FILE (--dictionary ID | --name NAME) [--merge ENTRY_ID|TERM|NONE] [--section OID]
  npm run tbx -- export DICTIONARY_ID --out FILE [--format TBX|TBX_V2] [--languages eng,isl] [--fields OIDS]
Connection: --server URL  and  --token TOKEN  or  --user NAME --password SECRET [--client LOGIN]`;

const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    server: { type: 'string', default: process.env.POLYTERM_URL ?? 'http://127.0.0.1:8080' },
    token: { type: 'string', default: process.env.POLYTERM_TOKEN },
    user: { type: 'string', default: process.env.POLYTERM_USER },
    password: { type: 'string', default: process.env.POLYTERM_PASSWORD },
    client: { type: 'string', default: process.env.POLYTERM_CLIENT },
    dictionary: { type: 'string' },
    name: { type: 'string' },
    merge: { type: 'string', default: 'ENTRY_ID' },
    section: { type: 'string' },
    out: { type: 'string' },
    format: { type: 'string', default: 'TBX' },
    languages: { type: 'string' },
    fields: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const api = (path: string) => `${options.server!.replace(/\/$/, '')}/api/v4${path}`;

async function answer<T>(response: Response, what: string): Promise<T> {
  const text = await response.text();
  if (!response.ok) fail(`${what} failed: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

async function token(): Promise<string> {
  if (options.token) return options.token;
  if (!options.user || !options.password) fail(`Give --token, or --user and --password.\n${USAGE}`);
  const response = await fetch(api('/login'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: options.user, password: options.password, client: options.client }),
  });
  const body = await answer<{ token?: { token: string }; errorMessage?: string | null }>(response, 'Login');
  if (!body.token) fail(`Login failed: ${body.errorMessage ?? 'no token'}`);
  return body.token.token;
}

const query = (params: Record<string, string | undefined>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  const text = search.toString();
  return text ? `?${text}` : '';
};

async function waitForJob(auth: string, jobId: number): Promise<JobBody> {
  const bar = new SingleBar({
    format: 'importing [{bar}] {percentage}% | {value}/{total} entries | {duration}s',
  });
  let started = false;
  for (;;) {
    const job = await answer<JobBody>(
      await fetch(api(`/jobs/${jobId}`), { headers: { 'X-Auth-Token': auth } }),
      'Job status',
    );
    const total = job.total ?? Math.max(job.processed, 1);
    if (!started) bar.start(total, job.processed);
    started = true;
    bar.setTotal(total);
    bar.update(job.processed);
    if (job.status !== 'RUNNING') {
      bar.stop();
      return job;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

function printSummary(summary: ImportSummary) {
  console.log(`dictionary ${summary.dictionaryId}: ${summary.concepts} concepts, ${summary.terms} terms`);
  console.log(`updated ${summary.updated}, skipped ${summary.skipped}, errors ${summary.errors.length}`);
  for (const error of summary.errors.slice(0, 50)) console.log(`  line ${error.line}: ${error.message}`);
  if (summary.errors.length > 50) console.log(`  ... and ${summary.errors.length - 50} more`);
}

async function importFile(file: string) {
  if (!options.dictionary && !options.name) fail(`Give --dictionary ID or --name NAME.\n${USAGE}`);
  const auth = await token();
  const form = new FormData();
  form.append('file', await openAsBlob(file), basename(file));
  const path = `/dictionaries/import-tbx${query({
    'dictionary-id': options.dictionary,
    name: options.name,
    merge: options.merge,
    'section-oid': options.section,
  })}`;
  const response = await fetch(api(path), { method: 'POST', headers: { 'X-Auth-Token': auth }, body: form });
  const started = await answer<{ result?: unknown; jobTaskId?: number }>(response, 'Import');
  const result = started.jobTaskId === undefined ? started.result : await finished(auth, started.jobTaskId);
  printSummary(result as ImportSummary);
}

async function finished(auth: string, jobId: number) {
  const job = await waitForJob(auth, jobId);
  if (job.status === 'FAILED') fail(`Import failed: ${job.message ?? 'unknown reason'}`);
  return job.result;
}

async function exportFile(dictionaryId: string) {
  if (!options.out) fail(`Give --out FILE.\n${USAGE}`);
  const auth = await token();
  const path = `/dictionaries/export-tbx/${dictionaryId}${query({
    format: options.format,
    languages: options.languages,
    fields: options.fields,
  })}`;
  const response = await fetch(api(path), { headers: { 'X-Auth-Token': auth } });
  if (!response.ok || !response.body) fail(`Export failed: ${response.status} ${await response.text()}`);
  await pipeline(Readable.fromWeb(response.body as never), createWriteStream(options.out));
  console.log(`wrote ${options.out}`);
}

const [command, target] = positionals;
if (options.help || !command || !target) fail(USAGE);
if (command === 'import') await importFile(target);
else if (command === 'export') await exportFile(target);
else fail(USAGE);
