/**
 * The outbox's refresh is retried: the drainer deletes a batch's rows once Elasticsearch took its
 * documents, and the refresh that makes them searchable comes after. When that refresh fails, the next
 * drain (the 1 s background loop) must refresh again, although no rows are left to apply.
 *
 * The server talks to the tests' real Elasticsearch through a small HTTP proxy of this file that can
 * refuse `_refresh` calls, the one fault the real server cannot be made to produce alone. The suite
 * has a database of its own (the outbox is one table per database).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server as HttpServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  conceptWorld,
  createConcept,
  type Server,
  startServer,
  type World,
} from '../concepts/concept-helpers.js';
import { isolatedDatabase } from '../helpers/isolated-database.js';
import { names } from './search-helpers.js';

let database: Awaited<ReturnType<typeof isolatedDatabase>>;
let proxy: HttpServer;
let server: Server;
let world: World;
/** While set, the proxy answers every `_refresh` call with a 503. */
let refuseRefresh = false;
let refusedRefreshes = 0;

beforeAll(async () => {
  database = await isolatedDatabase();
  const upstream = new URL(inject('elasticsearchUrl'));
  proxy = createServer((incoming, outgoing) => {
    if (refuseRefresh && incoming.url?.includes('/_refresh')) {
      refusedRefreshes++;
      incoming.resume();
      outgoing.writeHead(503, { 'content-type': 'application/json' });
      outgoing.end(
        JSON.stringify({ error: { type: 'test_fault', reason: 'refused by the test proxy' }, status: 503 }),
      );
      return;
    }
    const forwarded = request(
      new URL(incoming.url ?? '/', upstream),
      { method: incoming.method, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  server = await startServer({
    DATABASE_URL: database.url,
    ELASTICSEARCH_URL: `http://127.0.0.1:${port}`,
    ELASTICSEARCH_INDEX: `${inject('elasticsearchIndexPrefix')}_refresh_${randomBytes(4).toString('hex')}`,
  });
  world = await conceptWorld(server);
}, 120_000);

afterAll(async () => {
  refuseRefresh = false;
  await server?.close();
  await new Promise((resolve) => proxy?.close(resolve));
  await database?.drop();
});

async function outboxRows(): Promise<number> {
  const [row] = await server.t.orm.em
    .fork()
    .execute<{ n: number }[]>('select count(*)::int as n from search_outbox');
  return row!.n;
}

describe('a refresh that fails after the outbox was applied', () => {
  it('is made again by the next drain, so the change becomes searchable with no further write', async () => {
    const name = `refresh${randomBytes(4).toString('hex')}`;
    const find = () =>
      names(world.admin, { dictionaryIds: [world.dictionary.id], langCode: 'eng', sectionOids: [], name });

    refuseRefresh = true;
    try {
      await createConcept(world.admin, world, { terms: [{ name, languageCode: 'eng' }] });
      // The documents went in and the rows are gone, but nothing made them searchable yet.
      expect(await outboxRows()).toBe(0);
      expect(refusedRefreshes).toBeGreaterThan(0);
      expect(await find()).toEqual([]);
    } finally {
      refuseRefresh = false;
    }

    const deadline = Date.now() + 10_000;
    let found = await find();
    while (found.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      found = await find();
    }
    expect(found).toEqual([name]);
  }, 60_000);
});
