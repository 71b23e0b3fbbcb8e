// Over 500 lines by design: one area's cases share one test server per file (that keeps CI short); its describe blocks are the chapters.
/**
 * Every write path reaches the search index (docs/search.md "Index sync"): after each operation the
 * writer's very next search shows the new state, with no waiting, on both engines. On Elasticsearch the
 * change travels through the `search_outbox` rows the triggers write, so the outbox is empty once the
 * answer (or the job) is done. A reindex rebuilds a dictionary's documents from PostgreSQL.
 *
 * The suite runs on a database of its own: the outbox is one table per database, and an
 * Elasticsearch-engine server of another suite (writing to another index) would otherwise take our rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchRuntimeOf } from '../../src/modules/search/search-runtime.js';
import {
  type Answer,
  type Api,
  type ConceptBody,
  conceptWorld,
  createConcept,
  getConcept,
  patchConcept,
  putConcept,
  type Server,
  startServer,
  termInput,
  type World,
} from '../concepts/concept-helpers.js';
import { isolatedDatabase } from '../helpers/isolated-database.js';
import type { InvocationResultBody, JobBody } from '../helpers/structure.js';
import type { HistoryItemBody, HistoryPageBody } from '../history/history-helpers.js';
import {
  ENGINES,
  type EngineName,
  engineSettings,
  names,
  outboxRows,
  search,
  untilSearchServed,
  word,
} from './search-helpers.js';

type Database = Awaited<ReturnType<typeof isolatedDatabase>>;

let database: Database;
beforeAll(async () => {
  database = await isolatedDatabase();
});
afterAll(async () => {
  await database?.drop();
});

/** The result of an async-capable call: answered at once (200), or through its job (202). */
async function outcome(
  caller: Api,
  response: Answer<InvocationResultBody>,
): Promise<InvocationResultBody['result']> {
  if (response.status === 200) return response.body.result;
  expect(response.status, response.text).toBe(202);
  const id = response.body.jobTaskId!;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const job = await caller.get<JobBody>(`/jobs/${id}`);
    expect(job.status, job.text).toBe(200);
    if (job.body.status !== 'RUNNING') {
      expect(job.body.status, job.body.message ?? '').toBe('DONE');
      return job.body.result ?? undefined;
    }
    if (Date.now() > deadline) throw new Error(`job ${id} still RUNNING`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

interface Variant {
  label: string;
  engine: EngineName;
  settings: Record<string, string>;
}

const VARIANTS: Variant[] = [
  ...ENGINES.map((engine) => ({ label: engine, engine, settings: {} })),
  // Every job answers its jobTaskId at once: the job's own settle() must make its changes searchable.
  {
    label: 'elasticsearch, jobs answering 202',
    engine: 'elasticsearch',
    settings: { ASYNC_THRESHOLD_MS: '0' },
  },
];

describe.each(VARIANTS)('index sync on $label', ({ engine, settings }) => {
  let server: Server;
  let world: World;
  let admin: Api;

  beforeAll(async () => {
    server = await startServer({ ...engineSettings(engine), ...settings, DATABASE_URL: database.url });
    // The database holds the terms of the suites before: the new index is rebuilt from them first.
    await untilSearchServed(server);
    world = await conceptWorld(server);
    admin = world.admin;
  });
  afterAll(() => server?.close());

  const base = (w: World = world) => ({
    dictionaryIds: [w.dictionary.id],
    langCode: 'eng',
    sectionOids: [] as string[],
  });
  /** Names found by prefix in the world's dictionary (English unless `extra` says otherwise). */
  const find = (name: string, extra: Record<string, unknown> = {}, w: World = world) =>
    names(w.admin, { ...base(w), name, pageSize: 100, ...extra });
  /** Words of the chosen fields' values. */
  const byValues = (text: string, fields: string[]) => ({
    name: text,
    searchOptions: { multiEnabled: true, fields },
  });

  /** On Elasticsearch the outbox is drained by the time the writer has its answer. */
  async function expectDrained() {
    if (engine === 'elasticsearch') expect(await outboxRows(server)).toBe(0);
  }

  it('create: terms, languages, domains and field values are searchable at once', async () => {
    const [name, german, definition, usage] = [word(), word(), word(), word()];
    await createConcept(admin, world, {
      terms: [
        { name, languageCode: 'eng', fieldMap: { [world.tf.Usage]: `${usage} here` } },
        { name: german, languageCode: 'deu' },
      ],
      domainList: [world.domain.oid],
      fieldMap: { [world.cf.Definition]: `a ${definition} of things` },
    });
    expect(await find(name)).toEqual([name]);
    expect(await find(german, { langCode: 'deu' })).toEqual([german]);
    expect(await find(name, { domainOids: [world.domain.oid] })).toEqual([name]);
    expect(await find('', byValues(definition, [world.cf.Definition]))).toEqual([name]);
    expect(await find('', byValues(usage, [world.tf.Usage]))).toEqual([name]);
    await expectDrained();
  });

  it('update: rename, add and remove terms', async () => {
    const [first, second, added, renamed] = [word(), word(), word(), word()];
    const created = await createConcept(admin, world, {
      terms: [
        { name: first, languageCode: 'eng' },
        { name: second, languageCode: 'deu' },
      ],
    });
    await expectDrained();
    const eng = created.terms.find((term) => term.languageCode === 'eng')!;
    const answer = await putConcept(admin, created, {
      terms: [
        { ...termInput(eng), name: renamed },
        { name: added, languageCode: 'eng', regionCode: 'GB' },
      ],
    });
    expect(answer.status, answer.text).toBe(200);
    expect(await find(first)).toEqual([]);
    expect(await find(renamed)).toEqual([renamed]);
    expect(await find(added, { regionCode: 'GB' })).toEqual([added]);
    expect(await find(second, { langCode: 'deu' })).toEqual([]);
    await expectDrained();
  });

  it('update: section, domains and the field values of multi-field search', async () => {
    const [name, before, after, termBefore, termAfter] = [word(), word(), word(), word(), word()];
    const created = await createConcept(admin, world, {
      terms: [{ name, languageCode: 'eng', fieldMap: { [world.tf.Usage]: termBefore } }],
      domainList: [world.domain.oid],
      fieldMap: { [world.cf.Definition]: before },
    });
    expect(await find(name, { sectionOids: [world.section.oid] })).toEqual([name]);
    const answer = await putConcept(admin, created, {
      sectionOid: world.section2.oid,
      domainList: [],
      fieldMap: { [world.cf.Definition]: after },
      terms: [{ ...termInput(created.terms[0]!), fieldMap: { [world.tf.Usage]: termAfter } }],
    });
    expect(answer.status, answer.text).toBe(200);
    expect(await find(name, { sectionOids: [world.section.oid] })).toEqual([]);
    expect(await find(name, { sectionOids: [world.section2.oid] })).toEqual([name]);
    expect(await find(name, { domainOids: [world.domain.oid] })).toEqual([]);
    expect(await find('', byValues(before, [world.cf.Definition]))).toEqual([]);
    expect(await find('', byValues(after, [world.cf.Definition]))).toEqual([name]);
    expect(await find('', byValues(termBefore, [world.tf.Usage]))).toEqual([]);
    expect(await find('', byValues(termAfter, [world.tf.Usage]))).toEqual([name]);
    await expectDrained();

    // Domains added back: the concept_domains insert alone must reach the index.
    const current = await getConcept(admin, created.id);
    const again = await putConcept(admin, current, { domainList: [world.domain.oid] });
    expect(again.status, again.text).toBe(200);
    expect(await find(name, { domainOids: [world.domain.oid] })).toEqual([name]);
    await expectDrained();
  });

  it('patch: terms and values change as sent', async () => {
    const [name, renamed, added, value] = [word(), word(), word(), word()];
    const created = await createConcept(admin, world, { terms: [{ name, languageCode: 'eng' }] });
    const answer = await patchConcept(admin, created, {
      fieldMap: { [world.cf.Note]: `${value} note` },
      terms: [
        { id: created.terms[0]!.id, name: renamed, languageCode: 'eng' },
        { name: added, languageCode: 'fra' },
      ],
    });
    expect(answer.status, answer.text).toBe(200);
    expect(await find(name)).toEqual([]);
    expect(await find(renamed)).toEqual([renamed]);
    expect(await find(added, { langCode: 'fra' })).toEqual([added]);
    expect(await find('', byValues(value, [world.cf.Note]))).toEqual([renamed]);
    await expectDrained();
  });

  it('delete, then restore and undo through the concept history', async () => {
    const [name, renamed] = [word(), word()];
    const created = await createConcept(admin, world, { terms: [{ name, languageCode: 'eng' }] });
    const answer = await putConcept(admin, created, {
      terms: [{ ...termInput(created.terms[0]!), name: renamed }],
    });
    expect(answer.status, answer.text).toBe(200);
    expect((await admin.delete(`/concepts/${created.id}`)).status).toBe(204);
    expect(await find(renamed)).toEqual([]);
    await expectDrained();

    const history = await admin.get<HistoryPageBody>(`/history/concept/${created.id}?size=50`);
    expect(history.status, history.text).toBe(200);
    const [deleted, updated, createdItem] = history.body.content as HistoryItemBody[];
    expect([deleted?.action, updated?.action, createdItem?.action]).toEqual(['DELETE', 'UPDATE', 'CREATE']);

    // Back to the state before the delete: RESTORE.
    const restored = await admin.post<ConceptBody>(`/history/concept-undo?history-item-id=${updated!.id}`);
    expect(restored.status, restored.text).toBe(200);
    expect(await find(renamed)).toEqual([renamed]);
    await expectDrained();
    // Back to the first name: UNDO.
    const undone = await admin.post<ConceptBody>(`/history/concept-undo?history-item-id=${createdItem!.id}`);
    expect(undone.status, undone.text).toBe(200);
    expect(await find(renamed)).toEqual([]);
    expect(await find(name)).toEqual([name]);
    await expectDrained();
  });

  it('dictionary undo: changed concepts return, later ones go (a job)', async () => {
    const w = await conceptWorld(server);
    const [kept, renamed, later] = [word(), word(), word()];
    const concept = await createConcept(w.admin, w, { terms: [{ name: kept, languageCode: 'eng' }] });
    const history = await w.admin.get<HistoryPageBody>(`/history/concept/${concept.id}`);
    const createdItem = history.body.content[0]!;
    const answer = await putConcept(w.admin, concept, {
      terms: [{ ...termInput(concept.terms[0]!), name: renamed }],
    });
    expect(answer.status, answer.text).toBe(200);
    await createConcept(w.admin, w, { terms: [{ name: later, languageCode: 'eng' }] });
    expect(await find('w', {}, w)).toEqual([renamed, later].sort());

    const undo = await w.admin.post<InvocationResultBody>(
      `/history/dictionary-undo?history-item-id=${createdItem.id}`,
    );
    const result = await outcome(w.admin, undo);
    expect(Object.values(result as Record<string, boolean>)).toEqual([true, true]);
    expect(await find('w', {}, w)).toEqual([kept]);
    await expectDrained();
  });

  it('term suggestion creates a searchable concept', async () => {
    const [name, german, definition] = [word(), word(), word()];
    const created = await admin.post<number>(`/terms/suggestion?dictionary-id=${world.dictionary.id}`, {
      conceptFields: { Definition: `${definition} suggested` },
      terms: [
        { term: name, langTag: 'en' },
        { term: german, langTag: 'de' },
      ],
    });
    expect(created.status, created.text).toBe(201);
    const hits = await search(admin, { ...base(), name });
    expect(hits.results.map((entry) => [entry.id, entry.name])).toEqual([[created.body, name]]);
    expect(await find(german, { langCode: 'deu' })).toEqual([german]);
    expect(await find('', byValues(definition, [world.cf.Definition]))).toEqual([name]);
    await expectDrained();
  });

  it('dictionary copy with data: the copy is searchable, the source unchanged', async () => {
    const w = await conceptWorld(server);
    const [one, two, value] = [word(), word(), word()];
    await createConcept(w.admin, w, {
      terms: [{ name: one, languageCode: 'eng' }],
      domainList: [w.domain.oid],
      fieldMap: { [w.cf.Definition]: value },
    });
    await createConcept(w.admin, w, { terms: [{ name: two, languageCode: 'deu' }] });
    const copied = await w.admin.post<InvocationResultBody>(
      `/dictionaries/copy/${w.dictionary.id}?copy-data=true`,
    );
    const copyId = (await outcome(w.admin, copied)) as number;
    expect(copyId).toEqual(expect.any(Number));
    const inCopy = { dictionaryIds: [copyId], langCode: 'eng', sectionOids: [] };
    expect(await names(w.admin, { ...inCopy, name: one })).toEqual([one]);
    expect(await names(w.admin, { ...inCopy, langCode: 'deu', name: two })).toEqual([two]);
    // The copy's values are keyed by the copied fields' oids.
    const copy = await w.admin.get<{ conceptFields: { name: string; oid: string }[] }>(
      `/dictionaries/${copyId}`,
    );
    const definitionOid = copy.body.conceptFields.find((field) => field.name === 'Definition')!.oid;
    expect(await names(w.admin, { ...inCopy, ...byValues(value, [definitionOid]) })).toEqual([one]);
    // Both dictionaries together: one hit each.
    expect(await names(w.admin, { ...inCopy, dictionaryIds: [w.dictionary.id, copyId], name: one })).toEqual([
      one,
      one,
    ]);
    await expectDrained();
  });

  it('language replace moves the terms of a variant', async () => {
    const w = await conceptWorld(server);
    const [us, plain] = [word(), word()];
    await createConcept(w.admin, w, {
      terms: [
        { name: us, languageCode: 'eng', regionCode: 'US' },
        { name: plain, languageCode: 'eng' },
      ],
    });
    expect(await find('w', { regionCode: 'US' }, w)).toEqual([us]);
    const replaced = await w.admin.post<InvocationResultBody>(
      `/dictionaries/language-replace?dictionary-id=${w.dictionary.id}&from-id=${encodeURIComponent('eng;US')}&to-id=deu`,
    );
    expect(await outcome(w.admin, replaced)).toBe(1);
    expect(await find('w', { regionCode: 'US' }, w)).toEqual([]);
    expect(await find('w', {}, w)).toEqual([plain]);
    expect(await find('w', { langCode: 'deu' }, w)).toEqual([us]);
    await expectDrained();
  });

  it('section clear removes the section’s terms only', async () => {
    const w = await conceptWorld(server);
    const [stays, goes] = [word(), word()];
    await createConcept(w.admin, w, { terms: [{ name: stays, languageCode: 'eng' }] });
    await createConcept(w.admin, w, {
      sectionOid: w.section2.oid,
      terms: [{ name: goes, languageCode: 'eng' }],
    });
    expect(await find('w', {}, w)).toEqual([stays, goes].sort());
    const cleared = await w.admin.post<InvocationResultBody>(`/sections/clear?section-id=${w.section2.id}`);
    expect(await outcome(w.admin, cleared)).toEqual({ [w.section2.id]: true });
    expect(await find('w', {}, w)).toEqual([stays]);
    await expectDrained();
  });

  it('dictionary empty removes every term', async () => {
    const w = await conceptWorld(server);
    await createConcept(w.admin, w, { terms: [{ name: word(), languageCode: 'eng' }] });
    await createConcept(w.admin, w, { terms: [{ name: word(), languageCode: 'deu' }] });
    const emptied = await w.admin.post<InvocationResultBody>(`/dictionaries/empty/${w.dictionary.id}`);
    expect(await outcome(w.admin, emptied)).toBe(true);
    expect((await search(w.admin, { ...base(w) })).total).toBe(0);
    expect((await search(w.admin, { ...base(w), langCode: 'deu' })).total).toBe(0);
    await expectDrained();
  });

  it('TBX import adds searchable terms, and a merge changes them', async () => {
    const [first, second, added, before, after] = [word(), word(), word(), word(), word()];
    const tbx = (definition: string, more = '') => `<?xml version="1.0"?>
<martif type="TBX" xml:lang="en"><martifHeader><fileDesc><sourceDesc><p>sync</p></sourceDesc></fileDesc></martifHeader>
<text><body>
<termEntry id="e1"><descrip type="definition">${definition} text</descrip><langSet xml:lang="en"><tig><term>${first}</term></tig>${more}</langSet><langSet xml:lang="de"><tig><term>${second}</term></tig></langSet></termEntry>
</body></text></martif>`;
    const upload = async (content: string, params: Record<string, string | number>) => {
      const form = new FormData();
      form.append('file', new Blob([content]), 'sync.tbx');
      const query = new URLSearchParams(Object.entries(params).map(([key, value]) => [key, String(value)]));
      const response = await fetch(`${server.base}/api/v4/dictionaries/import-tbx?${query}`, {
        method: 'POST',
        headers: { 'x-auth-token': admin.token! },
        body: form,
      });
      const text = await response.text();
      const answer = { status: response.status, headers: {}, body: JSON.parse(text), text };
      return (await outcome(admin, answer)) as unknown as { dictionaryId: number; updated: number };
    };
    const summary = await upload(tbx(before), { name: `sync ${word()}` });
    const inImported = { dictionaryIds: [summary.dictionaryId], langCode: 'eng', sectionOids: [] };
    const allFields = { searchOptions: { multiAllFields: true } };
    expect(await names(admin, { ...inImported, name: first })).toEqual([first]);
    expect(await names(admin, { ...inImported, langCode: 'deu', name: second })).toEqual([second]);
    expect(await names(admin, { ...inImported, ...allFields, name: before })).toEqual([first]);
    await expectDrained();

    // The same entry again: its definition changes and a term is added (a merge never removes terms).
    const merged = await upload(tbx(after, `<tig><term>${added}</term></tig>`), {
      'dictionary-id': summary.dictionaryId,
      merge: 'ENTRY_ID',
    });
    expect(merged.updated).toBe(1);
    expect(await names(admin, { ...inImported, name: added })).toEqual([added]);
    expect(await names(admin, { ...inImported, ...allFields, name: before })).toEqual([]);
    expect(await names(admin, { ...inImported, ...allFields, name: after })).toEqual([added, first].sort());
    await expectDrained();
  });

  it('dictionary delete: its terms are no longer searchable', async () => {
    const w = await conceptWorld(server);
    const name = word();
    await createConcept(w.admin, w, { terms: [{ name, languageCode: 'eng' }] });
    expect(await find(name, {}, w)).toEqual([name]);
    expect((await w.admin.delete(`/dictionaries/${w.dictionary.id}`)).status).toBe(204);
    const gone = await w.admin.post('/terms/search', { ...base(w), name });
    expect(gone.status, gone.text).toBe(404);
    // Searching the tenant's other dictionary is unaffected.
    const inOther = { dictionaryIds: [w.other.dictionary.id], sectionOids: [], langCode: 'fra' };
    expect(await names(w.admin, inOther)).toEqual([]);
    await expectDrained();
  });
});

describe('reindex rebuilds a dictionary from PostgreSQL', () => {
  let server: Server;
  let world: World;
  let elasticsearchUrl: string;
  let index: string;

  beforeAll(async () => {
    const settings = engineSettings('elasticsearch');
    elasticsearchUrl = settings.ELASTICSEARCH_URL!;
    index = settings.ELASTICSEARCH_INDEX!;
    server = await startServer({ ...settings, DATABASE_URL: database.url });
    await untilSearchServed(server);
    world = await conceptWorld(server);
  });
  afterAll(() => server?.close());

  /** A call of the Elasticsearch REST API on the server's index, expecting success. */
  async function elasticsearch<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${elasticsearchUrl}/${index}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    expect(response.ok, text).toBe(true);
    return JSON.parse(text) as T;
  }
  /**
   * Deletes a dictionary's documents. The integ-test distribution has no reindex module, so no
   * _delete_by_query: the ids are searched and deleted in one bulk request.
   */
  async function deleteDocumentsOf(dictionaryId: number): Promise<number> {
    const found = await elasticsearch<{ hits: { hits: { _id: string }[] } }>('POST', '/_search', {
      query: { term: { dictionaryId } },
      size: 10_000,
      _source: false,
    });
    const ids = found.hits.hits.map((hit) => hit._id);
    const response = await fetch(`${elasticsearchUrl}/_bulk?refresh=true`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: ids.map((id) => `${JSON.stringify({ delete: { _index: index, _id: id } })}\n`).join(''),
    });
    const result = (await response.json()) as { errors: boolean };
    expect(result.errors).toBe(false);
    return ids.length;
  }
  const documentsOf = async (dictionaryId: number) =>
    (await elasticsearch<{ count: number }>('POST', '/_count', { query: { term: { dictionaryId } } })).count;

  // Stale documents are found by search and deleted in bulk (the integ-test distribution has no
  // _delete_by_query).
  it('brings back documents deleted behind its back, and not those of terms deleted since', async () => {
    const { admin } = world;
    const [one, eins, two, three, elsewhere] = [word(), word(), word(), word(), word()];
    const find = (name: string, extra: Record<string, unknown> = {}) =>
      names(admin, {
        dictionaryIds: [world.dictionary.id],
        langCode: 'eng',
        sectionOids: [],
        name,
        ...extra,
      });
    await createConcept(admin, world, {
      terms: [
        { name: one, languageCode: 'eng' },
        { name: eins, languageCode: 'deu' },
      ],
    });
    await createConcept(admin, world, {
      terms: [{ name: two, languageCode: 'eng' }],
      domainList: [world.domain.oid],
    });
    const doomed = await createConcept(admin, world, { terms: [{ name: three, languageCode: 'eng' }] });
    await createConcept(admin, world, {
      dictionaryId: world.other.dictionary.id,
      sectionOid: world.other.sectionOid,
      terms: [{ name: elsewhere, languageCode: 'fra' }],
    });
    const inOther = { dictionaryIds: [world.other.dictionary.id], langCode: 'fra', sectionOids: [] };
    expect(await documentsOf(world.dictionary.id)).toBe(4);
    const doomedTermId = doomed.terms[0]!.id;
    const { _source: staleDocument } = await elasticsearch<{ _source: object }>(
      'GET',
      `/_doc/${doomedTermId}`,
    );

    // The index loses the dictionary's documents: search misses them; the other dictionary keeps its own.
    expect(await deleteDocumentsOf(world.dictionary.id)).toBe(4);
    expect(await find(one)).toEqual([]);
    expect(await find(eins, { langCode: 'deu' })).toEqual([]);
    expect(await find(two)).toEqual([]);
    expect(await find(three)).toEqual([]);
    expect(await names(admin, { ...inOther, name: elsewhere })).toEqual([elsewhere]);

    // A concept deleted meanwhile, and its document written back behind the outbox's back (a stale
    // document, as a lost removal would leave): it shows until the reindex.
    expect((await admin.delete(`/concepts/${doomed.id}`)).status).toBe(204);
    await elasticsearch('PUT', `/_doc/${doomedTermId}?refresh=true`, staleDocument);
    expect(await find(three)).toEqual([three]);

    const reindexed = await admin.post<InvocationResultBody>(`/dictionaries/reindex/${world.dictionary.id}`);
    expect(await outcome(admin, reindexed)).toBe(true);
    expect(await find(one)).toEqual([one]);
    expect(await find(eins, { langCode: 'deu' })).toEqual([eins]);
    expect(await find(two, { domainOids: [world.domain.oid] })).toEqual([two]);
    expect(await find(three)).toEqual([]);
    expect(await documentsOf(world.dictionary.id)).toBe(3);
    expect(await names(admin, { ...inOther, name: elsewhere })).toEqual([elsewhere]);
    expect(await outboxRows(server)).toBe(0);
  });
  it('a deleted dictionary loses its documents; brought back, it has them written again', async () => {
    const w = await conceptWorld(server);
    const [one, eins, elsewhere] = [word(), word(), word()];
    await createConcept(w.admin, w, { terms: [{ name: one, languageCode: 'eng' }] });
    await createConcept(w.admin, w, { terms: [{ name: eins, languageCode: 'deu' }] });
    await createConcept(w.admin, w, {
      dictionaryId: w.other.dictionary.id,
      sectionOid: w.other.sectionOid,
      terms: [{ name: elsewhere, languageCode: 'fra' }],
    });
    expect(await documentsOf(w.dictionary.id)).toBe(2);
    expect(await documentsOf(w.other.dictionary.id)).toBe(1);

    // Soft deletion keeps the rows in PostgreSQL; the index drops them with the delete's answer.
    expect((await w.admin.delete(`/dictionaries/${w.dictionary.id}`)).status).toBe(204);
    expect(await documentsOf(w.dictionary.id)).toBe(0);
    expect(await documentsOf(w.other.dictionary.id)).toBe(1);
    expect(await outboxRows(server)).toBe(0);

    // No endpoint brings a dictionary back; an operator's update does, and the outbox sees it.
    await server.t.orm.em
      .fork()
      .execute('update dictionaries set deleted = false where id = ?', [w.dictionary.id]);
    await searchRuntimeOf(server.t.orm.em).settle();
    expect(await documentsOf(w.dictionary.id)).toBe(2);
    const inRestored = { dictionaryIds: [w.dictionary.id], sectionOids: [] };
    expect(await names(w.admin, { ...inRestored, langCode: 'eng', name: one })).toEqual([one]);
    expect(await names(w.admin, { ...inRestored, langCode: 'deu', name: eins })).toEqual([eins]);
    expect(await outboxRows(server)).toBe(0);
  });

  it('documents left behind by a dictionary deleted before the outbox knew of it are removed', async () => {
    const w = await conceptWorld(server);
    const name = word();
    const created = await createConcept(w.admin, w, { terms: [{ name, languageCode: 'eng' }] });
    const termId = created.terms[0]!.id;
    const { _source: document } = await elasticsearch<{ _source: object }>('GET', `/_doc/${termId}`);
    expect((await w.admin.delete(`/dictionaries/${w.dictionary.id}`)).status).toBe(204);
    expect(await documentsOf(w.dictionary.id)).toBe(0);
    // The document written back stands for one left by an older version; the migration queues every
    // deleted dictionary once, as this row does.
    await elasticsearch('PUT', `/_doc/${termId}?refresh=true`, document);
    expect(await documentsOf(w.dictionary.id)).toBe(1);
    await server.t.orm.em
      .fork()
      .execute('insert into search_outbox (dictionary_id) values (?)', [w.dictionary.id]);
    await searchRuntimeOf(server.t.orm.em).settle();
    expect(await documentsOf(w.dictionary.id)).toBe(0);
    expect(await outboxRows(server)).toBe(0);
  });
});
