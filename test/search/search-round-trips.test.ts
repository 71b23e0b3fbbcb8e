/**
 * What one search costs in database round trips (the engine's own, and on Elasticsearch the
 * PostgreSQL ones around it): a fixed number, whatever the page size, the caller or the engine. On a
 * small machine round trips, not the queries, decide a search's latency (bench/search prints it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Api,
  conceptWorld,
  createConcept,
  type Server,
  userOf,
  type World,
} from '../concepts/concept-helpers.js';
import { ENGINES, search, startEngineServer } from './search-helpers.js';

/** Statements that belong to no request: the session touch and the outbox loop's polling. */
const BACKGROUND = /update "sessions"|search_outbox|pg_try_advisory|pg_advisory/;

describe.each(ENGINES)('round trips of a term search on %s', (engine) => {
  const statements: string[] = [];
  let recording = false;
  let server: Server;
  let world: World;
  let user: Api;

  beforeAll(async () => {
    server = await startEngineServer(engine, {
      debug: ['query'],
      logger: (message: string) => {
        if (recording && message.includes('[query]') && !BACKGROUND.test(message)) statements.push(message);
      },
    });
    world = await conceptWorld(server);
    for (let i = 0; i < 60; i++) {
      await createConcept(world.admin, world, {
        terms: [{ name: `pump ${String(i).padStart(2, '0')}`, languageCode: 'eng' }],
      });
    }
    user = (await userOf(server, world)).api;
  }, 120_000);
  afterAll(() => server?.close());

  async function statementsOf(caller: Api, body: Record<string, unknown>) {
    statements.length = 0;
    recording = true;
    try {
      const answer = await search(caller, {
        dictionaryIds: [world.dictionary.id],
        langCode: 'eng',
        sectionOids: [],
        ...body,
      });
      return { answer, count: statements.length };
    } finally {
      recording = false;
    }
  }

  // PostgreSQL: the session, the search context (settings, groups, dictionaries, language, keys), the
  // page with its total. Elasticsearch: the first two; the page comes over HTTP.
  const expected = engine === 'postgresql' ? 3 : 2;

  it('costs the same few statements for an administrator and a member, at any page size', async () => {
    for (const caller of [world.admin, user]) {
      const small = await statementsOf(caller, { name: 'pump', pageSize: 3 });
      expect(small.answer.results).toHaveLength(3);
      expect(small.answer.total).toBe(60);
      expect(small.count).toBe(expected);
      const large = await statementsOf(caller, { name: 'pump', pageSize: 50 });
      expect(large.answer.results).toHaveLength(50);
      expect(large.count).toBe(expected);
    }
  });

  it('pages on with a cursor at the same cost', async () => {
    const first = await statementsOf(user, { name: 'pump', pageSize: 20 });
    const next = await statementsOf(user, {
      name: 'pump',
      pageSize: 20,
      searchAfter: first.answer.searchAfter,
    });
    expect(next.answer.results[0]!.name).toBe('pump 20');
    expect(next.count).toBe(expected);
  });
});
