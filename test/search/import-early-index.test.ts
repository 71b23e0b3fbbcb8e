/**
 * A TBX import into a new dictionary indexes its terms while its transaction runs
 * (src/modules/search/early-indexer.ts), not through the outbox afterwards; when Elasticsearch refuses,
 * the concepts go back to the outbox before the commit and reach the index later. Real PostgreSQL and
 * Elasticsearch; the database is this file's own (its outbox must not be drained by other servers).
 */
import { Client } from '@elastic/elasticsearch';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { nextDocumentVersion, type TermDocument } from '../../src/modules/search/elasticsearch-index.js';
import { searchRuntimeOf } from '../../src/modules/search/search-runtime.js';
import {
  type Api,
  conceptWorld,
  createConcept,
  type Server,
  startServer,
  type World,
} from '../concepts/concept-helpers.js';
import { isolatedDatabase } from '../helpers/isolated-database.js';
import type { JobBody } from '../helpers/structure.js';
import { engineSettings, names, search } from './search-helpers.js';

/** The drainer's advisory lock key (search-outbox.ts). */
const DRAIN_LOCK = 0x7074_7365;
/** More entries than one import batch (500), so several bulk requests are in flight. */
const ENTRIES = 1_203;

type Database = Awaited<ReturnType<typeof isolatedDatabase>>;
let database: Database;
let server: Server;
let world: World;
let admin: Api;
let index: string;
const elasticsearch = new Client({ node: inject('elasticsearchUrl') });

beforeAll(async () => {
  database = await isolatedDatabase();
  const settings = engineSettings('elasticsearch');
  index = settings.ELASTICSEARCH_INDEX!;
  server = await startServer({ ...settings, DATABASE_URL: database.url, ASYNC_THRESHOLD_MS: '0' });
  world = await conceptWorld(server);
  admin = world.admin;
});
afterAll(async () => {
  await server?.close();
  await database?.drop();
  await elasticsearch.close();
});

/** A TBX file of ENTRIES entries: an English name per entry, an accented Icelandic one every third. */
function tbxFile(tag: string): string {
  const entries = Array.from({ length: ENTRIES }, (_, n) => {
    const icelandic =
      n % 3 === 0 ? `<langSet xml:lang="is"><tig><term>þórður ${tag} ${n}</term></tig></langSet>` : '';
    return `<termEntry id="e${n}"><langSet xml:lang="en"><tig><term>${tag} term ${n}</term></tig></langSet>${icelandic}</termEntry>`;
  });
  return `<?xml version="1.0"?>
<martif type="TBX" xml:lang="en"><martifHeader><fileDesc><sourceDesc><p>early</p></sourceDesc></fileDesc></martifHeader>
<text><body>
${entries.join('\n')}
</body></text></martif>`;
}

/** Imports into a new dictionary and waits for the job; answers the new dictionary's id. */
async function importNew(tag: string): Promise<number> {
  const form = new FormData();
  form.append('file', new Blob([tbxFile(tag)]), 'early.tbx');
  const response = await fetch(`${server.base}/api/v4/dictionaries/import-tbx?name=${tag}`, {
    method: 'POST',
    headers: { 'x-auth-token': admin.token! },
    body: form,
  });
  const body = (await response.json()) as { jobTaskId?: number };
  expect(response.status, JSON.stringify(body)).toBe(202);
  return ((await jobResult(body.jobTaskId!)) as { dictionaryId: number }).dictionaryId;
}

/** Waits for a job to finish DONE; answers its result. */
async function jobResult(jobTaskId: number): Promise<unknown> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const job = await admin.get<JobBody>(`/jobs/${jobTaskId}`);
    if (job.body.status !== 'RUNNING') {
      expect(job.body.status, job.body.message ?? '').toBe('DONE');
      return job.body.result;
    }
    if (Date.now() > deadline) throw new Error(`job ${jobTaskId} still running`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function outboxRows(): Promise<number> {
  const [row] = await server.t.orm.em
    .fork()
    .execute<{ n: number }[]>('select count(*)::int as n from search_outbox');
  return row!.n;
}

const tagOf = (label: string) => `${label}${Date.now().toString(36)}`;

describe('TBX import into a new dictionary on Elasticsearch', () => {
  it('is searchable when the job is done while the outbox drainer cannot run', async () => {
    // Another session holds the drain lock for the whole import: only the early path can index.
    await searchRuntimeOf(server.t.orm.em).settle();
    expect(await outboxRows()).toBe(0);
    const blocker = new pg.Client({ connectionString: database.url });
    await blocker.connect();
    try {
      await blocker.query('begin');
      await blocker.query('select pg_advisory_xact_lock($1)', [DRAIN_LOCK]);
      const tag = tagOf('early');
      const dictionaryId = await importNew(tag);
      expect(await outboxRows()).toBe(0);

      const english = { dictionaryIds: [dictionaryId], langCode: 'eng', sectionOids: [] };
      const all = await search(admin, { ...english, name: tag, pageSize: 5 });
      expect(all.total).toBe(ENTRIES);
      expect(await names(admin, { ...english, name: `${tag} term 1202` })).toEqual([`${tag} term 1202`]);

      // Accented names keep their own suffixes; plain ones answer from the folded suffixes.
      const icelandic = { dictionaryIds: [dictionaryId], langCode: 'isl', sectionOids: [] };
      const substring = (name: string, normalized: boolean) =>
        search(admin, { ...icelandic, name, searchOptions: { mode: 'SUBSTRING', normalized }, pageSize: 1 });
      expect((await substring('órður', false)).total).toBe(Math.ceil(ENTRIES / 3));
      expect((await substring('ordur', false)).total).toBe(0);
      expect((await substring('ordur', true)).total).toBe(Math.ceil(ENTRIES / 3));
      const plain = await search(admin, {
        ...english,
        name: 'rm 120',
        searchOptions: { mode: 'SUBSTRING', normalized: false },
        pageSize: 20,
      });
      expect(plain.results.map((entry) => entry.name)).toEqual(
        [120, 1200, 1201, 1202].map((n) => `${tag} term ${n}`),
      );
    } finally {
      await blocker.query('rollback');
      await blocker.end();
    }
  });

  it("leaves nothing in the search GIN indexes' pending lists, which every substring search reads", async () => {
    // pgstattuple reads an index's metapage; this file's database is its own.
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    try {
      await db.query('create extension if not exists pgstattuple');
      const pendingPages = async () =>
        (
          await db.query<{ pages: number }>(
            `select sum(pending_pages)::int as pages from unnest(array['terms_search_grams_index', 'terms_search_lower_trgm_index']) i,
                    lateral pgstatginindex(i::regclass)`,
          )
        ).rows[0]!.pages;
      const tag = tagOf('pending');
      const dictionaryId = await importNew(tag);
      expect(await pendingPages()).toBe(0);
      // Merged, not dropped: the grams condition still holds for every accented name of the import.
      const found = await db.query<{ n: number }>(
        `select count(*)::int as n from terms
          where dictionary_id = $1 and language_code = 'isl' and not deleted and name_folded like '%ordur%'
            and polyterm_grams(dictionary_id, language_code, name_folded) @> polyterm_grams($1, 'isl', 'ordur')`,
        [dictionaryId],
      );
      expect(found.rows[0]!.n).toBe(Math.ceil(ENTRIES / 3));

      // A copy with data writes as many terms at once, and merges as well.
      const copy = await admin.post<{ jobTaskId: number }>(
        `/dictionaries/copy/${dictionaryId}?copy-data=true&name=${tag}-copy`,
      );
      expect(copy.status, copy.text).toBe(202);
      const copyId = (await jobResult(copy.body.jobTaskId)) as number;
      expect(await pendingPages()).toBe(0);
      const copied = await db.query<{ n: number }>(
        'select count(*)::int as n from terms where dictionary_id = $1 and not deleted',
        [copyId],
      );
      expect(copied.rows[0]!.n).toBe(ENTRIES + Math.ceil(ENTRIES / 3));
    } finally {
      await db.end();
    }
  });

  it('when Elasticsearch refuses, every concept waits in the outbox and is indexed once it accepts', async () => {
    await elasticsearch.indices.putSettings({ index, settings: { 'index.blocks.write': true } });
    let dictionaryId: number;
    try {
      dictionaryId = await importNew(tagOf('refused'));
      // One row per concept (the terms' trigger writes one per concept), none lost.
      const [row] = await server.t.orm.em
        .fork()
        .execute<{ n: number }[]>(
          'select count(distinct o.concept_id)::int as n from search_outbox o join concepts c on c.id = o.concept_id where c.dictionary_id = ?',
          [dictionaryId],
        );
      expect(row!.n).toBe(ENTRIES);
    } finally {
      await elasticsearch.indices.putSettings({ index, settings: { 'index.blocks.write': false } });
    }
    await searchRuntimeOf(server.t.orm.em).settle();
    expect(await outboxRows()).toBe(0);
    const english = { dictionaryIds: [dictionaryId], langCode: 'eng', sectionOids: [] };
    expect((await search(admin, { ...english, pageSize: 1 })).total).toBe(ENTRIES);
  });

  it('forget removes the documents of a dictionary that never committed', async () => {
    const direct = searchRuntimeOf(server.t.orm.em).directIndex!;
    const ghost = 2_000_000_000;
    await direct.write(await changesOf([ghostDocument(ghost, ghost), ghostDocument(ghost, ghost + 1)]));
    expect(await documentsOf(ghost)).toBe(2);
    await direct.forget(server.t.orm.em.fork(), ghost);
    expect(await documentsOf(ghost)).toBe(0);
  });

  it('documents of an import killed mid-way are removed after a start, once no import runs anywhere', async () => {
    const runtime = searchRuntimeOf(server.t.orm.em);
    await createConcept(admin, world, { terms: [{ name: 'kept term', languageCode: 'eng' }] });
    await runtime.settle();
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    try {
      // What a killed import leaves: a dictionary id taken from the sequence, never committed, and
      // documents of it in the index.
      const orphan = Number(
        (await db.query<{ id: string }>("select nextval('dictionaries_id_seq') as id")).rows[0]!.id,
      );
      const write = async () =>
        runtime.directIndex!.write(
          await changesOf([ghostDocument(orphan, 2_000_000_100), ghostDocument(orphan, 2_000_000_101)]),
        );
      await write();
      expect(await documentsOf(orphan)).toBe(2);
      const live = await documentsOf(world.dictionary.id);
      expect(live).toBeGreaterThan(0);

      // An import under way (on any instance: its job keeps a heartbeat) may own them: nothing is removed.
      const [job] = (
        await db.query<{ id: number }>(
          `insert into job_tasks (client_id, user_id, type, status, created_at, heartbeat_at)
           values ($1, null, 'dictionaries.import-tbx', 'RUNNING', now(), now()) returning id`,
          [world.tenant.id],
        )
      ).rows;
      expect(await runtime.removeOrphanDocuments()).toBeNull();
      expect(await documentsOf(orphan)).toBe(2);

      // No import runs: the orphan's documents go, every committed dictionary keeps its own.
      await db.query(`update job_tasks set status = 'DONE', finished_at = now() where id = $1`, [job!.id]);
      expect(await runtime.removeOrphanDocuments()).toBe(2);
      expect(await documentsOf(orphan)).toBe(0);
      expect(await documentsOf(world.dictionary.id)).toBe(live);

      // A server does it on its own after it starts.
      await write();
      expect(await documentsOf(orphan)).toBe(2);
      const another = await startServer({
        ...engineSettings('elasticsearch'),
        ELASTICSEARCH_INDEX: index,
        DATABASE_URL: database.url,
      });
      try {
        const deadline = Date.now() + 30_000;
        while ((await documentsOf(orphan)) > 0 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        expect(await documentsOf(orphan)).toBe(0);
        expect(await documentsOf(world.dictionary.id)).toBe(live);
      } finally {
        await another.close();
      }
    } finally {
      await db.end();
    }
  });
});

/** A term document of the index's shape, for a dictionary that does not exist. */
function ghostDocument(dictionaryId: number, id: number) {
  return {
    id,
    clientId: 1,
    dictionaryId,
    conceptId: id,
    conceptOid: null,
    sectionId: 1,
    domainIds: [],
    tid: id,
    lang: 'eng',
    region: null,
    script: null,
    regionCode: null,
    scriptCode: null,
    name: `ghost ${id}`,
    lower: `ghost ${id}`,
    folded: `ghost ${id}`,
    plain: true,
    foldedSuffixes: [`ghost ${id}`],
    fieldWords: [],
    words: [],
    generation: Date.now(),
  };
}

/** Searchable documents of a dictionary in this file's index. */
async function documentsOf(dictionaryId: number): Promise<number> {
  await elasticsearch.indices.refresh({ index });
  return (await elasticsearch.count({ index, query: { term: { dictionaryId } } })).count;
}

/** Documents to write as the runtime writes them: at a version drawn from the database. */
async function changesOf(documents: TermDocument[]) {
  return { documents, removed: [], version: await nextDocumentVersion(server.t.orm.em.fork()) };
}
