/**
 * The outbox's refresh is retried: the drainer deletes a batch's rows once Elasticsearch took its
 * documents, and the refresh that makes them searchable comes after. When that refresh fails, the next
 * drain (the background probe's) must refresh again, although no rows are left to apply. Meanwhile
 * PostgreSQL answers searches (a 503 is an outage), so the writer sees its change all along.
 *
 * The server talks to the tests' real Elasticsearch through a small HTTP proxy (elasticsearch-proxy.ts)
 * that refuses `_refresh` calls, the one fault the real server cannot be made to produce alone. The
 * suite has a database of its own (the outbox is one table per database).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  conceptWorld,
  createConcept,
  type Server,
  startServer,
  type World,
} from '../concepts/concept-helpers.js';
import { isolatedDatabase } from '../helpers/isolated-database.js';
import { type ElasticsearchProxy, startElasticsearchProxy } from './elasticsearch-proxy.js';
import { names, outboxRows, readiness, untilSearchServed } from './search-helpers.js';

let database: Awaited<ReturnType<typeof isolatedDatabase>>;
let proxy: ElasticsearchProxy;
let server: Server;
let world: World;
/** While set, the proxy answers every `_refresh` call with a 503. */
let refuseRefresh = false;
let refusedRefreshes = 0;

beforeAll(async () => {
  database = await isolatedDatabase();
  proxy = await startElasticsearchProxy(inject('elasticsearchUrl'));
  proxy.decide = (incoming) => {
    if (!refuseRefresh || !incoming.url?.includes('/_refresh')) return 'forward';
    refusedRefreshes++;
    return 'fail';
  };
  server = await startServer({
    DATABASE_URL: database.url,
    ELASTICSEARCH_URL: proxy.url,
    ELASTICSEARCH_INDEX: `${inject('elasticsearchIndexPrefix')}_refresh_${randomBytes(4).toString('hex')}`,
    // The write waits for its drain to end (refused refresh included), however busy the machine.
    ELASTICSEARCH_WRITE_WAIT_MS: '20000',
  });
  await untilSearchServed(server);
  world = await conceptWorld(server);
}, 120_000);

afterAll(async () => {
  refuseRefresh = false;
  await server?.close();
  await proxy?.close();
  await database?.drop();
});

/** The engine /ready says answers searches. */
const servedBy = async () => (await readiness(server)).body.search.servedBy;

describe('a refresh that fails after the outbox was applied', () => {
  it('is made again by the next drain, so the change becomes searchable with no further write', async () => {
    const name = `refresh${randomBytes(4).toString('hex')}`;
    const find = () =>
      names(world.admin, { dictionaryIds: [world.dictionary.id], langCode: 'eng', sectionOids: [], name });

    refuseRefresh = true;
    try {
      await createConcept(world.admin, world, { terms: [{ name, languageCode: 'eng' }] });
      // The documents went in and the rows are gone, but nothing made them searchable on Elasticsearch
      // yet: PostgreSQL answers instead.
      expect(await outboxRows(server)).toBe(0);
      expect(refusedRefreshes).toBeGreaterThan(0);
      expect(await servedBy()).toBe('postgresql');
      expect(await find()).toEqual([name]);
    } finally {
      refuseRefresh = false;
    }

    // Search returns to Elasticsearch only after a refresh succeeded, and finds the term there.
    const deadline = Date.now() + 15_000;
    while ((await servedBy()) !== 'elasticsearch' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(await servedBy()).toBe('elasticsearch');
    expect(await find()).toEqual([name]);
  }, 60_000);
});
