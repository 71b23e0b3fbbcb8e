/**
 * The Elasticsearch term index: one document per live term, keyed by term id. Only core field types are
 * used (keyword, integer, long), so the mapping works on the integ-test distribution, which lacks the
 * analysis modules, and on the full one (docs/elasticsearch.md). Case and accent folding and the
 * substring keys come from PostgreSQL's own functions and from here, never from an analyzer.
 */
import type { Client, estypes } from '@elastic/elasticsearch';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Suffixes are indexed up to this many characters: a substring search is a prefix search on the
 * suffixes. Longer texts are checked with a wildcard query instead.
 */
export const SUFFIX_LENGTH = 64;

/** Documents per bulk request of a rebuild. */
const REBUILD_BATCH = 2000;

export const TERM_INDEX_MAPPING = {
  dynamic: 'strict' as const,
  properties: {
    id: { type: 'long' as const },
    clientId: { type: 'integer' as const },
    dictionaryId: { type: 'integer' as const },
    conceptId: { type: 'integer' as const },
    conceptOid: { type: 'keyword' as const, index: false },
    sectionId: { type: 'integer' as const },
    domainIds: { type: 'integer' as const },
    tid: { type: 'integer' as const },
    lang: { type: 'keyword' as const },
    /** Lower case, for filtering; regionCode and scriptCode as stored, for the answer. */
    region: { type: 'keyword' as const },
    script: { type: 'keyword' as const },
    regionCode: { type: 'keyword' as const, index: false },
    scriptCode: { type: 'keyword' as const, index: false },
    name: { type: 'keyword' as const },
    lower: { type: 'keyword' as const },
    folded: { type: 'keyword' as const },
    /**
     * True when lower equals folded (no accents to fold): lowerSuffixes are then left out, since
     * foldedSuffixes hold the same keys. Most names are plain; this saves a third of the indexed keys.
     */
    plain: { type: 'boolean' as const },
    lowerSuffixes: { type: 'keyword' as const, doc_values: false },
    foldedSuffixes: { type: 'keyword' as const, doc_values: false },
    /** The stem key of PostgreSQL (terms.stem_key): stemmed search and term decoration. */
    stemKey: { type: 'keyword' as const },
    /** Field-value words as "<field oid>\u0001<word>", and the bare words. */
    fieldWords: { type: 'keyword' as const, doc_values: false },
    words: { type: 'keyword' as const, doc_values: false },
    /**
     * The state key of the term's entry under its dictionary's enabled workflow (the initial state
     * without a row); absent without one. Term search filters on it (search-workflow.ts).
     */
    workflowState: { type: 'keyword' as const },
    /** When the document was written (ms): a rebuild removes the dictionary's older documents. */
    generation: { type: 'long' as const },
  },
};

export interface TermDocument {
  id: number;
  clientId: number;
  dictionaryId: number;
  conceptId: number;
  conceptOid: string | null;
  sectionId: number;
  domainIds: number[];
  tid: number;
  lang: string;
  region: string | null;
  script: string | null;
  regionCode: string | null;
  scriptCode: string | null;
  name: string;
  lower: string;
  folded: string;
  plain: boolean;
  /** Absent when plain. */
  lowerSuffixes?: string[];
  foldedSuffixes: string[];
  /** Absent in documents written before stem keys existed (matches nothing). */
  stemKey?: string;
  fieldWords: string[];
  words: string[];
  /** Absent when no workflow governs the dictionary. */
  workflowState?: string;
  generation: number;
}

interface TermRow {
  id: number;
  client_id: number;
  dictionary_id: number;
  concept_id: number;
  concept_oid: string | null;
  section_id: number;
  tid: number;
  language_code: string;
  region_code: string | null;
  script_code: string | null;
  name: string;
  lower: string;
  folded: string;
  stem_key: string | null;
  live: boolean;
  domain_ids: number[];
  field_words: string[];
  workflow_state: string | null;
}

const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * Every suffix of a text (by code point), each cut to SUFFIX_LENGTH characters, without repeats. Runs
 * for every document written (a rebuild of 1,000,000 terms calls it up to twice per term), so it
 * slices the string instead of joining arrays of characters (names of 10-30 characters: 3.4 instead
 * of 17 µs). Suffixes of different lengths differ, so only cut ones (texts over SUFFIX_LENGTH) repeat.
 */
export function suffixesOf(text: string): string[] {
  // Offsets of the code points; a text without surrogates has one per code unit.
  const starts: number[] = [];
  if (SURROGATE.test(text)) {
    for (let offset = 0; offset < text.length; offset += text.codePointAt(offset)! > 0xffff ? 2 : 1) {
      starts.push(offset);
    }
  } else {
    for (let offset = 0; offset < text.length; offset++) starts.push(offset);
  }
  const count = starts.length;
  const end = (index: number) => (index < count ? starts[index]! : text.length);
  const suffixes = starts.map((start, index) => text.slice(start, end(index + SUFFIX_LENGTH)));
  return count > SUFFIX_LENGTH ? [...new Set(suffixes)] : suffixes;
}

const TERM_COLUMNS = `t.id, t.client_id, t.dictionary_id, t.concept_id, c.oid as concept_oid, c.section_id, t.tid,
  t.language_code, t.region_code, t.script_code, t.name,
  t.name_lower as lower, t.name_folded as folded, t.stem_key, not (t.deleted or c.deleted or d.deleted) as live,
  array(select cd.domain_id from concept_domains cd where cd.concept_id = c.id order by cd.domain_id) as domain_ids,
  polyterm_field_words(t.field_map) as field_words,
  (select coalesce(t.workflow_state, w.definition->>'initialState') from workflows w
    where w.dictionary_id = t.dictionary_id and w.enabled and not w.deleted) as workflow_state`;

/** The tables TERM_COLUMNS reads: a term is live while its concept and its dictionary are. */
const TERM_TABLES = `terms t join concepts c on c.id = t.concept_id join dictionaries d on d.id = t.dictionary_id`;

/** A concept's field words, computed once for all its terms. */
async function conceptWords(em: EntityManager, conceptIds: readonly number[]) {
  const rows = await em.execute<{ id: number; field_words: string[] }[]>(
    `select id, polyterm_field_words(field_map) as field_words from concepts where id in (?) and field_map <> '{}'::jsonb`,
    [[...conceptIds]],
  );
  return new Map(rows.map((row) => [row.id, row.field_words]));
}

function documentOf(row: TermRow, conceptFieldWords: readonly string[], generation: number): TermDocument {
  const fieldWords = new Set([...conceptFieldWords, ...row.field_words]);
  const words = new Set([...fieldWords].map((entry) => entry.slice(entry.indexOf('\u0001') + 1)));
  return {
    id: row.id,
    clientId: row.client_id,
    dictionaryId: row.dictionary_id,
    conceptId: row.concept_id,
    conceptOid: row.concept_oid,
    sectionId: row.section_id,
    domainIds: row.domain_ids,
    tid: row.tid,
    lang: row.language_code,
    region: row.region_code?.toLowerCase() ?? null,
    script: row.script_code?.toLowerCase() ?? null,
    regionCode: row.region_code,
    scriptCode: row.script_code,
    name: row.name,
    lower: row.lower,
    folded: row.folded,
    plain: row.lower === row.folded,
    ...(row.lower === row.folded ? {} : { lowerSuffixes: suffixesOf(row.lower) }),
    foldedSuffixes: suffixesOf(row.folded),
    stemKey: row.stem_key ?? '',
    fieldWords: [...fieldWords],
    words: [...words],
    ...(row.workflow_state === null ? {} : { workflowState: row.workflow_state }),
    generation,
  };
}

/**
 * What to write to the index: documents, and the ids of terms whose documents go. `version` was drawn
 * before PostgreSQL was read, and Elasticsearch keeps the highest version of each document (external
 * versioning), so a request that lands late with an older state changes nothing.
 */
export interface IndexChanges {
  documents: TermDocument[];
  removed: number[];
  version: number;
}

/**
 * The next document version, from one PostgreSQL sequence for every writer (drainer, rebuilds,
 * imports). Drawn before the state it goes with is read: a later draw reads a state as new or newer.
 * Why it matters: a bulk request the client gave up on (Elasticsearch hung, then came back) can still
 * be executed after a newer one, and without versions its older state would win.
 */
export async function nextDocumentVersion(em: EntityManager): Promise<number> {
  const [row] = await em.execute<{ version: string }[]>(
    `select nextval('search_document_version') as version`,
  );
  return Number(row!.version);
}

/** The terms of these concepts as documents (live) or as ids to remove (deleted terms and concepts). */
export async function termDocumentsOfConcepts(
  em: EntityManager,
  conceptIds: readonly number[],
  generation: number,
): Promise<IndexChanges> {
  const version = await nextDocumentVersion(em);
  if (conceptIds.length === 0) return { documents: [], removed: [], version };
  const rows = await em.execute<TermRow[]>(
    `select ${TERM_COLUMNS} from ${TERM_TABLES} where t.concept_id in (?)`,
    [[...conceptIds]],
  );
  const concepts = await conceptWords(em, conceptIds);
  return {
    documents: rows
      .filter((row) => row.live)
      .map((row) => documentOf(row, concepts.get(row.concept_id) ?? [], generation)),
    removed: rows.filter((row) => !row.live).map((row) => row.id),
    version,
  };
}

/** A dictionary's live terms in id order, a batch at a time (for rebuilds). */
export async function* dictionaryTermDocuments(
  em: EntityManager,
  dictionaryId: number,
  generation: number,
  batchSize: number,
): AsyncGenerator<IndexChanges> {
  let after = 0;
  for (;;) {
    const version = await nextDocumentVersion(em);
    const rows = await em.execute<TermRow[]>(
      `select ${TERM_COLUMNS} from ${TERM_TABLES}
        where t.dictionary_id = ? and t.id > ? and not t.deleted and not c.deleted and not d.deleted
        order by t.id limit ${batchSize}`,
      [dictionaryId, after],
    );
    if (rows.length === 0) return;
    after = rows[rows.length - 1]!.id;
    const concepts = await conceptWords(em, [...new Set(rows.map((row) => row.concept_id))]);
    const documents = rows.map((row) => documentOf(row, concepts.get(row.concept_id) ?? [], generation));
    yield { documents, removed: [], version };
  }
}

/**
 * Makes sure the alias `name` points at a term index with our mapping; answers true when it had to
 * create one (an empty index: the caller rebuilds it from PostgreSQL). Writes go through the alias with
 * `require_alias`, so a lost index is never silently re-created with guessed mappings.
 */
export async function ensureTermIndex(client: Client, name: string): Promise<boolean> {
  if (await client.indices.existsAlias({ name })) {
    await addNewFields(client, name);
    return false;
  }
  try {
    await client.indices.create({
      index: `${name}-v1`,
      aliases: { [name]: { is_write_index: true } },
      // No periodic refresh: the outbox drainer and rebuilds refresh once they have written.
      settings: {
        number_of_shards: 1,
        number_of_replicas: 0,
        refresh_interval: '-1',
        'index.max_result_window': 100_000,
      },
      mappings: TERM_INDEX_MAPPING,
    });
    return true;
  } catch (error) {
    // Another instance created it first.
    if (
      (error as { body?: { error?: { type?: string } } }).body?.error?.type ===
      'resource_already_exists_exception'
    )
      return false;
    throw error;
  }
}

/** Indexes whose mapping this process brought up to date (adding fields is all a mapping update may do). */
const mappingsChecked = new WeakMap<Client, Set<string>>();

/**
 * Adds the mapping's fields an older index lacks (`plain`, `stemKey`, `workflowState`), once per process and index: the mapping is
 * strict, so documents with a new field would be refused. Documents written before keep working:
 * queries treat a missing `plain` as false.
 */
export async function addNewFields(client: Client, name: string): Promise<void> {
  const checked = mappingsChecked.get(client) ?? new Set<string>();
  mappingsChecked.set(client, checked);
  if (checked.has(name)) return;
  await client.indices.putMapping({
    index: name,
    properties: {
      plain: TERM_INDEX_MAPPING.properties.plain,
      stemKey: TERM_INDEX_MAPPING.properties.stemKey,
      workflowState: TERM_INDEX_MAPPING.properties.workflowState,
    },
  });
  checked.add(name);
}

/**
 * Removes a dictionary's documents written before `generation` whose terms are gone. A live term's
 * document may carry an older generation when an outbox batch read before the rebuild landed after it:
 * such documents are written again from PostgreSQL instead of being removed.
 */
export async function removeStaleDocuments(
  client: Client,
  index: string,
  em: EntityManager,
  dictionaryId: number,
  generation: number,
) {
  let after: estypes.SortResults | undefined;
  let removed = 0;
  for (;;) {
    const page = await client.search({
      index,
      query: {
        bool: { filter: [{ term: { dictionaryId } }, { range: { generation: { lt: generation } } }] },
      },
      sort: [{ id: 'asc' }],
      size: 5000,
      _source: false,
      ...(after ? { search_after: after } : {}),
    });
    const hits = page.hits.hits;
    if (hits.length === 0) return removed;
    const ids = hits.map((hit) => Number(hit._id));
    const live = await em.execute<{ concept_id: number }[]>(
      `select distinct t.concept_id from ${TERM_TABLES}
        where t.id in (?) and not t.deleted and not c.deleted and not d.deleted`,
      [ids],
    );
    const current = await termDocumentsOfConcepts(
      em,
      live.map((row) => row.concept_id),
      Date.now(),
    );
    const kept = new Set(current.documents.map((document) => document.id));
    const gone = ids.filter((id) => !kept.has(id));
    await applyToIndex(client, index, { ...current, removed: gone });
    removed += gone.length;
    after = hits[hits.length - 1]!.sort;
  }
}

/**
 * Removes every document of a dictionary that has no live term: all of them once the dictionary is
 * deleted or gone. Documents written but not refreshed yet are invisible to the search that finds
 * them, hence the refresh first.
 */
export async function removeDictionaryDocuments(
  client: Client,
  index: string,
  em: EntityManager,
  dictionaryId: number,
): Promise<number> {
  await client.indices.refresh({ index });
  const removed = await removeStaleDocuments(client, index, em, dictionaryId, Number.MAX_SAFE_INTEGER);
  await client.indices.refresh({ index });
  return removed;
}

/**
 * Writes a dictionary's documents from PostgreSQL, then removes its older documents whose terms are
 * gone. Answers how many documents were written; progress gets the running count.
 */
export async function rebuildDictionaryDocuments(
  client: Client,
  index: string,
  em: EntityManager,
  dictionaryId: number,
  options: { batchSize?: number; progress?: (done: number) => void } = {},
): Promise<number> {
  const generation = Date.now();
  let done = 0;
  for await (const changes of dictionaryTermDocuments(
    em,
    dictionaryId,
    generation,
    options.batchSize ?? REBUILD_BATCH,
  )) {
    await applyToIndex(client, index, changes);
    done += changes.documents.length;
    options.progress?.(done);
  }
  // Documents not rewritten by this rebuild (or by the outbox since it started) are stale. The
  // integ-test distribution has no _delete_by_query: they are found by search and deleted in bulk.
  await client.indices.refresh({ index });
  await removeStaleDocuments(client, index, em, dictionaryId, generation);
  await client.indices.refresh({ index });
  return done;
}

/**
 * Writes documents and removals in one bulk request, at the changes' version. Removing what is not
 * there is fine, and so is a version conflict: the document already holds a newer state. Any other item
 * failure throws, so the caller keeps its outbox rows and tries again.
 */
export async function applyToIndex(client: Client, index: string, changes: IndexChanges): Promise<void> {
  const { documents, removed, version } = changes;
  if (documents.length === 0 && removed.length === 0) return;
  const operations: object[] = [];
  const target = (id: number) => ({ _index: index, _id: String(id), version, version_type: 'external' });
  for (const document of documents) operations.push({ index: target(document.id) }, document);
  for (const id of removed) operations.push({ delete: target(id) });
  const response = await client.bulk({ operations, refresh: false, require_alias: true });
  if (!response.errors) return;
  const failed = response.items
    .map((item) => item.index ?? item.delete)
    // A removal of a missing document answers 404 without an error: only real errors count.
    .filter((result) => result?.error && result.error.type !== 'version_conflict_engine_exception');
  if (failed.length) {
    const first = failed[0]?.error;
    throw new Error(`Elasticsearch refused ${failed.length} documents: ${first?.type}: ${first?.reason}`);
  }
}
