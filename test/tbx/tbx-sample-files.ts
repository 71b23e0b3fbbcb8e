/**
 * The TBX files of other tools that the validation and round-trip suites run over, read in place from
 * ../shared (never copied), and the HTTP calls both suites make: import as a new dictionary, export.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Server, startServer } from '../concepts/concept-helpers.js';
import { ICELANDIC_TERM_BANK_DIR } from '../helpers/datasets.js';
import { newTenant } from '../helpers/structure.js';

/** The `shared` folder beside the checkout (as CI lays it), else the team machine's /work/shared. */
const SHARED =
  [fileURLToPath(new URL('../../../shared/', import.meta.url)), '/work/shared/'].find((dir) =>
    existsSync(path.join(dir, 'tbx-schemas')),
  ) ?? fileURLToPath(new URL('../../../shared/', import.meta.url));
export const TBX_SCHEMAS_DIR = path.join(SHARED, 'tbx-schemas');
const SAMPLES_DIR = path.join(SHARED, 'datasets', 'tbx-samples');
const FIXTURES_DIR = fileURLToPath(new URL('./fixtures/', import.meta.url));

const tbxFilesIn = (dir: string) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => name.endsWith('.tbx') && !name.startsWith('bad-'))
        .sort()
        .map((name) => path.join(dir, name))
    : [];

/** Every sample file: the other tools' files, the Icelandic Term Bank, the suites' own valid fixtures. */
export const SAMPLE_FILES: string[] = [
  ...tbxFilesIn(SAMPLES_DIR),
  ...tbxFilesIn(ICELANDIC_TERM_BANK_DIR),
  ...tbxFilesIn(FIXTURES_DIR),
];

export interface ImportSummary {
  dictionaryId: number;
  concepts: number;
  terms: number;
  errors: { line: number; message: string }[];
  errorCount: number;
}

export class TbxClient {
  constructor(
    private readonly server: Server,
    private readonly token: string,
  ) {}

  /** A JSON call to /api/v4 as the client's user; anything but 2xx throws with the answer. */
  async api<T>(path: string, init: RequestInit = {}): Promise<T> {
    const response = await fetch(`${this.server.base}/api/v4${path}`, {
      ...init,
      headers: { 'x-auth-token': this.token, 'content-type': 'application/json', ...init.headers },
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${path}: ${response.status} ${text}`);
    return JSON.parse(text) as T;
  }

  private async job(id: number): Promise<{ status: string; result: unknown; message: string | null }> {
    for (const deadline = Date.now() + 300_000; Date.now() < deadline; ) {
      const response = await fetch(`${this.server.base}/api/v4/jobs/${id}`, {
        headers: { 'x-auth-token': this.token },
      });
      const job = (await response.json()) as { status: string; result: unknown; message: string | null };
      if (job.status !== 'RUNNING') return job;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`job ${id} still running`);
  }

  /** POST /dictionaries/import-tbx into a new dictionary; the job's summary. */
  async importNew(
    content: Buffer,
    name: string,
    merge = 'ENTRY_ID',
    params: Record<string, string> = {},
  ): Promise<ImportSummary> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(content)]), 'in.tbx');
    const response = await fetch(
      `${this.server.base}/api/v4/dictionaries/import-tbx?${new URLSearchParams({ name, merge, ...params })}`,
      { method: 'POST', headers: { 'x-auth-token': this.token }, body: form },
    );
    const body = (await response.json()) as { result?: ImportSummary; jobTaskId?: number; message?: string };
    if (response.status === 202) {
      const job = await this.job(body.jobTaskId!);
      if (job.status !== 'DONE') throw new Error(`import of ${name} failed: ${job.message}`);
      return job.result as ImportSummary;
    }
    if (response.status !== 200) throw new Error(`import of ${name}: ${response.status} ${body.message}`);
    return body.result!;
  }

  /** GET /dictionaries/export-tbx/{id}?format=. */
  async export(dictionaryId: number, format: string, params: Record<string, string> = {}): Promise<string> {
    const response = await fetch(
      `${this.server.base}/api/v4/dictionaries/export-tbx/${dictionaryId}?${new URLSearchParams({ format, ...params })}`,
      { headers: { 'x-auth-token': this.token } },
    );
    const text = await response.text();
    if (response.status !== 200) throw new Error(`export ${format}: ${response.status} ${text}`);
    return text;
  }
}

/** The TBX suites' set-up: a server, a new tenant's administrator token, and a TbxClient acting as them. */
export async function startTbxSuite(): Promise<{ server: Server; token: string; client: TbxClient }> {
  const server = await startServer();
  const tenant = await newTenant(server.t, server.sysadmin);
  const token = tenant.admin.token!;
  return { server, token, client: new TbxClient(server, token) };
}
