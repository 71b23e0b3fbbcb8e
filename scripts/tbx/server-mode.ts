/** `npm run tbx` against a running server: POST /dictionaries/import-tbx, GET /jobs/{id}, GET export-tbx. */
import { openAsBlob } from 'node:fs';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import type { ServerCli } from './options.js';
import {
  CliError,
  type ExportSummary,
  followImport,
  type ImportStarted,
  isSpreadsheetFile,
  type JobState,
  printExportSummary,
  printPreview,
  printSummary,
  readJsonFile,
} from './output.js';
import { writeOut } from './write-out.js';

const query = (params: Record<string, string | undefined>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  const text = search.toString();
  return text ? `?${text}` : '';
};

/** The job type of TBX imports (TBX_IMPORT_JOB of the server; this mode loads none of its code). */
const TBX_IMPORT_JOB = 'dictionaries.import-tbx';

/** The server's error body names a code and a message; anything else is shown as it came. */
export function failure(what: string, status: number, text: string): CliError {
  try {
    const body = JSON.parse(text) as { code?: unknown; message?: unknown };
    if (typeof body.message === 'string') {
      return new CliError(`${what} failed: ${status} ${String(body.code ?? '')}: ${body.message}`);
    }
  } catch {
    // not JSON
  }
  return new CliError(`${what} failed: ${status} ${text}`);
}

export class ServerApi {
  private token: string | undefined;
  constructor(private readonly cli: Pick<ServerCli, 'server' | 'token' | 'user' | 'password' | 'client'>) {
    this.token = cli.token;
  }

  url(path: string): string {
    return `${this.cli.server.replace(/\/$/, '')}/api/v4${path}`;
  }

  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('X-Auth-Token', await this.auth());
    try {
      return await fetch(this.url(path), { ...init, headers });
    } catch (error) {
      throw new CliError(
        `Cannot reach ${this.cli.server}: ${(error as Error).cause ?? (error as Error).message}`,
      );
    }
  }

  async json<T>(path: string, what: string, init: RequestInit = {}): Promise<T> {
    const response = await this.fetch(path, init);
    const text = await response.text();
    if (!response.ok) throw failure(what, response.status, text);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  private async auth(): Promise<string> {
    if (this.token) return this.token;
    const { user, password, client } = this.cli;
    if (!user || !password) throw new CliError('Give --token, or --user and --password (or --database URL)');
    let response: Response;
    try {
      response = await fetch(this.url('/login'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: user, password, client }),
      });
    } catch (error) {
      throw new CliError(
        `Cannot reach ${this.cli.server}: ${(error as Error).cause ?? (error as Error).message}`,
      );
    }
    const text = await response.text();
    if (!response.ok) throw failure('Login', response.status, text);
    const body = JSON.parse(text) as { token?: { token: string } | null; errorMessage?: string | null };
    if (!body.token) throw new CliError(`Login failed: ${body.errorMessage ?? 'no token'}`);
    this.token = body.token.token;
    return this.token;
  }
}

/** The upload's form: the file, and the mapping or MultiTerm definition and field mapping when given. */
async function uploadForm(cli: ServerCli): Promise<FormData> {
  const form = new FormData();
  form.append('file', await openAsBlob(cli.target), basename(cli.target));
  if (cli.mapping) form.append('mapping', JSON.stringify(await readJsonFile(cli.mapping, '--mapping')));
  if (cli.definition) form.append('definition', await openAsBlob(cli.definition), basename(cli.definition));
  if (cli.fieldMapping) {
    form.append('field-mapping', JSON.stringify(await readJsonFile(cli.fieldMapping, '--field-mapping')));
  }
  if (cli.sheet) form.append('sheet', cli.sheet);
  return form;
}

async function preview(api: ServerApi, cli: ServerCli): Promise<void> {
  const kind = isSpreadsheetFile(cli.target) ? 'import-spreadsheet' : 'import-multiterm';
  const body = await uploadForm(cli);
  await printPreview(
    await api.json(`/dictionaries/${kind}/preview`, 'Preview', { method: 'POST', body }),
    cli.out,
  );
}

async function importFile(api: ServerApi, cli: ServerCli): Promise<void> {
  const form = await uploadForm(cli);
  const path = `/dictionaries/${cli.mapping ? 'import-spreadsheet' : 'import-tbx'}${query({
    'dictionary-id': cli.dictionary,
    name: cli.name,
    merge: cli.merge,
    'section-oid': cli.section,
    'status-mapping': cli.statusMapping,
  })}`;
  // The newest job before this import: the import's own job is the next TBX import job of this user.
  const recentJobs = () => api.json<{ content: { id: number; type: string }[] }>('/jobs?size=5', 'Job list');
  const before = (await recentJobs()).content[0]?.id ?? 0;
  const started = api.json<ImportStarted>(path, 'Import', { method: 'POST', body: form });
  const summary = await followImport(started, {
    find: async () =>
      (await recentJobs()).content.find((job) => job.id > before && job.type === TBX_IMPORT_JOB)?.id,
    read: (id) => api.json<JobState>(`/jobs/${id}`, 'Job status'),
  });
  printSummary(summary);
}

async function exportFile(api: ServerApi, cli: ServerCli): Promise<void> {
  const path = `/dictionaries/export-tbx/${cli.target}${query({
    format: cli.format,
    languages: cli.languages,
    fields: cli.fields,
    'filter-id': cli.filter,
    'saved-query-id': cli.savedQuery,
    'status-mapping': cli.statusMapping,
    synonyms: cli.synonyms,
    'with-files': cli.withFiles ? 'true' : undefined,
  })}`;
  const response = await api.fetch(path);
  if (!response.ok || !response.body) throw failure('Export', response.status, await response.text());
  await writeOut(Readable.fromWeb(response.body as never), cli.out!);
  // The export's job is DONE once the last byte was sent: its result is the summary.
  const jobId = response.headers.get('x-job-task-id');
  const job = jobId ? await api.json<JobState>(`/jobs/${jobId}`, 'Job status') : null;
  if (job?.status === 'DONE') printExportSummary(cli.out!, job.result as ExportSummary);
  else console.log(`wrote ${cli.out}`);
}

export async function runServerMode(cli: ServerCli): Promise<void> {
  const api = new ServerApi(cli);
  if (cli.command === 'import') await importFile(api, cli);
  else if (cli.command === 'preview') await preview(api, cli);
  else await exportFile(api, cli);
}
