/**
 * Our server as a benchmark drives it: the environment it starts with, the admin's login, TBX import
 * and jobs run to their end over REST, and the outbox's progress from GET /ready.
 */
import { openAsBlob } from 'node:fs';
import { sleep } from './interrupt.js';

export const ADMIN_PASSWORD = 'bench-Password-1';

/** Where the server's REST API answers: a BenchServer, or any base URL. */
export interface ServerAddress {
  url: string;
}

export type Headers = Record<string, string>;

/** The server's settings for a benchmark on `databaseUrl`: our admin, quiet logs, room for large files. */
export const serverEnv = (databaseUrl: URL) => ({
  DATABASE_URL: databaseUrl.toString(),
  ADMIN_PASSWORD,
  LOG_LEVEL: 'warn',
  MAX_FILE_SIZE: String(2 * 1024 * 1024 * 1024),
});

/** The admin's token header. */
export async function login(server: ServerAddress): Promise<Headers> {
  const answer = await fetch(`${server.url}/api/v4/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  if (!answer.ok) throw new Error(`login: ${answer.status} ${await answer.text()}`);
  const token = ((await answer.json()) as { token: { token: string } }).token.token;
  return { 'X-Auth-Token': token };
}

/** Imports a TBX file into a new dictionary named Bench (POST /dictionaries/import-tbx); its id. */
export async function importTbx(server: ServerAddress, headers: Headers, file: string): Promise<number> {
  const form = new FormData();
  form.append('file', await openAsBlob(file), 'bench.tbx');
  const imported = await runJob<{ dictionaryId: number }>(
    server,
    headers,
    await fetch(`${server.url}/api/v4/dictionaries/import-tbx?name=Bench&merge=NONE`, {
      method: 'POST',
      headers,
      body: form,
    }),
  );
  return imported.dictionaryId;
}

/** Runs a job-capable call to its end (answered at once, or polled through GET /jobs/{id}). */
export async function runJob<T>(server: ServerAddress, headers: Headers, answer: Response): Promise<T> {
  const body = (await answer.json()) as { jobTaskId?: number; result?: T };
  if (!answer.ok) throw new Error(`${answer.url}: ${answer.status} ${JSON.stringify(body)}`);
  if (body.jobTaskId === undefined) return body.result as T;
  for (;;) {
    await sleep(250);
    const job = (await (await fetch(`${server.url}/api/v4/jobs/${body.jobTaskId}`, { headers })).json()) as {
      status: string;
      result: T;
      message: string | null;
    };
    if (job.status === 'FAILED') throw new Error(`job failed: ${job.message}`);
    if (job.status === 'DONE') return job.result;
  }
}

/** Outbox rows the server has yet to apply to Elasticsearch; null when it does not say. */
export async function pendingChanges(server: ServerAddress): Promise<number | null> {
  try {
    const ready = (await (await fetch(`${server.url}/ready`)).json()) as {
      search?: { pendingChanges: number };
    };
    return ready.search?.pendingChanges ?? null;
  } catch {
    return null;
  }
}
