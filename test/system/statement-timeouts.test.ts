/**
 * boundStatements on a stand-in for a pg connection whose server never answers: the statement fails
 * after its bound, the connection is closed and marked for knex's pool, and the error says whether a
 * commit may have happened (the transaction status of the last ReadyForQuery and the statement decide).
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  boundStatements,
  COMMIT_UNKNOWN,
  STATEMENT_TIMEOUT,
  withStatementTimeout,
} from '../../src/db/timeouts.js';

type Callback = (error: Error | null, result?: unknown) => void;

/** A connection whose statements hang until the test answers them. */
function hungConnection() {
  const pending: Callback[] = [];
  const connection = new EventEmitter();
  const client = {
    ended: false,
    __knex__disposed: undefined as unknown,
    connection,
    query(_config: unknown, values?: unknown, callback?: unknown) {
      pending.push((typeof values === 'function' ? values : callback) as Callback);
    },
    async end() {
      client.ended = true;
    },
  };
  const inTransaction = (status: 'I' | 'T') => connection.emit('readyForQuery', { status });
  return { client, pending, inTransaction };
}

const outcome = (run: (done: Callback) => void) =>
  new Promise<{ error: (Error & { code?: string }) | null; result?: unknown }>((resolve) =>
    run((error, result) => resolve({ error, result })),
  );

describe('statement bounds', () => {
  it('fails a hung statement after its bound and closes its connection for good', async () => {
    const { client, inTransaction } = hungConnection();
    boundStatements(client, 50);
    inTransaction('T');
    const started = performance.now();
    const { error } = await outcome((done) =>
      client.query({ text: 'insert into t values (1)', values: [] }, done),
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    expect(error?.code).toBe(STATEMENT_TIMEOUT);
    expect(client.ended).toBe(true);
    expect(client.__knex__disposed).toBe(error);
  });

  it('tells a COMMIT, or a write outside a transaction, that went unanswered', async () => {
    const cases: Array<[status: 'I' | 'T', text: string, code: string]> = [
      ['T', 'COMMIT;', COMMIT_UNKNOWN],
      ['T', 'insert into t values (1)', STATEMENT_TIMEOUT],
      ['T', 'RELEASE SAVEPOINT trx1', STATEMENT_TIMEOUT],
      ['I', 'update sessions set last_used_at = now()', COMMIT_UNKNOWN],
      ['I', 'with gone as (delete from t returning 1) select count(*) from gone', COMMIT_UNKNOWN],
      ['I', 'select 1', STATEMENT_TIMEOUT],
      ['I', 'BEGIN;', STATEMENT_TIMEOUT],
    ];
    for (const [status, text, code] of cases) {
      const { client, inTransaction } = hungConnection();
      boundStatements(client, 10);
      inTransaction(status);
      const { error } = await outcome((done) => client.query({ text, values: [] }, done));
      expect(error?.code, `${status} ${text}`).toBe(code);
    }
  });

  it('marks a broken connection during a COMMIT as unknown, not a server refusal', async () => {
    const { client, pending, inTransaction } = hungConnection();
    boundStatements(client, 1000);
    inTransaction('T');
    const broken = outcome((done) => client.query({ text: 'COMMIT;', values: [] }, done));
    pending[0]!(new Error('Connection terminated unexpectedly'));
    expect((await broken).error?.code).toBe(COMMIT_UNKNOWN);
    const refused = outcome((done) => client.query({ text: 'COMMIT;', values: [] }, done));
    pending[1]!(Object.assign(new Error('could not serialize access'), { severity: 'ERROR', code: '40001' }));
    expect((await refused).error?.code).toBe('40001');
  });

  it('bounds awaited statements too, and work with its own bound (0: none)', async () => {
    const { client, pending } = hungConnection();
    boundStatements(client, 10);
    const awaited = client.query({ name: 'p1', text: 'select 1', values: [] }) as unknown as Promise<unknown>;
    await expect(awaited).rejects.toMatchObject({ code: STATEMENT_TIMEOUT });

    const unbounded = withStatementTimeout(0, () =>
      outcome((done) => client.query({ text: 'select 2', values: [] }, done)),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    pending[1]!(null, { rows: [{ two: 2 }] });
    expect(await unbounded).toEqual({ error: null, result: { rows: [{ two: 2 }] } });
  });
});
