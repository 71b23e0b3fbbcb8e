/**
 * What a write answers when the database fails after its commit, and Idempotency-Key
 * (docs/reliability.md, "A failure after the commit" and "Sending a write again"). The post-commit step
 * is blocked by a lock of the test's own: creating a concept commits, then reads the concept back with
 * its comments, and the comments table is locked in ACCESS EXCLUSIVE mode meanwhile.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Api,
  type ConceptBody,
  conceptBody,
  conceptWorld,
  type Server,
  startServer,
  type World,
} from '../concepts/concept-helpers.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { uniqueSuffix } from '../helpers/structure.js';

let s: Server;
let w: World;
beforeAll(async () => {
  // The statement bound short enough for the test, long enough for a busy machine's commit.
  s = await startServer({ DATABASE_STATEMENT_TIMEOUT_MS: '2000' });
  w = await conceptWorld(s);
});
afterAll(() => s.close());

const conceptsNamed = async (name: string) =>
  (
    await s.t.orm.em
      .fork()
      .getConnection()
      .execute<{ n: number }[]>(
        'select count(distinct concept_id)::int as n from terms where name = ? and not deleted',
        [name],
      )
  )[0]!.n;

const create = (caller: Api, name: string, headers: Record<string, string> = {}, extra = {}) =>
  caller.call<ConceptBody>(
    'POST',
    '/concepts',
    conceptBody(w, { terms: [{ name, languageCode: 'eng' }], ...extra }),
    headers,
  );

describe('a database failure after the commit', () => {
  it('answers 504 "saved" without Retry-After, never 503, and the concept is there', async () => {
    const name = `after commit ${uniqueSuffix()}`;
    const holder = new pg.Client({ connectionString: s.t.config.DATABASE_URL });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('lock table comments in access exclusive mode');
      const key = { 'idempotency-key': `lost-${name}` };
      const answer = await create(w.admin, name, key, { 'with-comments': true });
      await holder.query('rollback');
      expect(answer.status).toBe(504);
      expect(answer.body.code).toBe('GATEWAY_TIMEOUT');
      expect(answer.body.message).toMatch(/saved/);
      expect(answer.headers['retry-after']).toBeUndefined();
      expect(await conceptsNamed(name)).toBe(1);
      // Its key committed with it: sending it again creates no duplicate, and says why.
      const again = await create(w.admin, name, key, { 'with-comments': true });
      expect(again.status).toBe(409);
      expect(again.body.message).toMatch(/Idempotency-Key/);
      expect(await conceptsNamed(name)).toBe(1);
    } finally {
      await holder.end();
    }
  });
});

describe('Idempotency-Key', () => {
  let second: TestApp;
  let secondApi: Api;
  beforeAll(async () => {
    // Another instance on the same database, as behind a load balancer.
    second = await buildTestApp({ DATABASE_STATEMENT_TIMEOUT_MS: '10000' });
    await second.app.listen({ port: 0, host: '127.0.0.1' });
    const address = second.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    secondApi = new Api(`http://127.0.0.1:${address.port}`, w.admin.token);
  });
  afterAll(() => second?.close());

  it('replays the first answer to the same key and body, and carries out nothing twice', async () => {
    const name = `replayed ${uniqueSuffix()}`;
    const key = { 'idempotency-key': `k-${name}` };
    const first = await create(w.admin, name, key);
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await create(w.admin, name, key);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await conceptsNamed(name)).toBe(1);
    // The same key with another body is refused, and writes nothing.
    const other = await create(w.admin, `${name} bis`, key);
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('UNPROCESSABLE');
    expect(await conceptsNamed(`${name} bis`)).toBe(0);
  });

  it('scopes keys per user, expires them after 24 hours and refuses malformed ones', async () => {
    const name = `scoped ${uniqueSuffix()}`;
    const key = { 'idempotency-key': `k-${name}` };
    expect((await create(w.admin, name, key)).status).toBe(201);
    // The sysadmin acting in the same tenant is another user: the key is not theirs.
    const sysadmin = s.api(s.sysadmin);
    const theirs = await sysadmin.call<ConceptBody>(
      'POST',
      `/concepts`,
      conceptBody(w, { terms: [{ name, languageCode: 'eng' }] }),
      key,
    );
    expect([201, 403, 404]).toContain(theirs.status);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    await s.t.orm.em
      .fork()
      .getConnection()
      .execute(`update idempotency_keys set created_at = now() - interval '25 hours' where key = ?`, [
        key['idempotency-key'],
      ]);
    const afterExpiry = await create(w.admin, `${name} later`, key);
    expect(afterExpiry.status).toBe(201);
    expect(afterExpiry.headers['idempotent-replayed']).toBeUndefined();

    const malformed = await create(w.admin, name, { 'idempotency-key': 'x'.repeat(256) });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('BAD_REQUEST');
  });

  it('lets concurrent duplicates on two instances create one concept', async () => {
    const name = `concurrent ${uniqueSuffix()}`;
    const key = { 'idempotency-key': `k-${name}` };
    const answers = await Promise.all([
      create(w.admin, name, key),
      create(secondApi, name, key),
      create(w.admin, name, key),
      create(secondApi, name, key),
    ]);
    for (const answer of answers) expect([201, 409]).toContain(answer.status);
    const created = answers.filter((answer) => answer.status === 201);
    expect(created.length).toBeGreaterThan(0);
    expect(new Set(created.map((answer) => answer.body.id)).size).toBe(1);
    expect(await conceptsNamed(name)).toBe(1);
  });

  it('works on tRPC mutations as on REST', async () => {
    const name = `trpc ${uniqueSuffix()}`;
    const call = () =>
      fetch(`${s.base}/trpc/concepts.create`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-auth-token': w.admin.token!,
          'idempotency-key': `k-${name}`,
        },
        body: JSON.stringify(conceptBody(w, { terms: [{ name, languageCode: 'eng' }] })),
      });
    const first = await call();
    const again = await call();
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await again.json()).result.data.id).toBe((await first.json()).result.data.id);
    expect(await conceptsNamed(name)).toBe(1);
  });
});
