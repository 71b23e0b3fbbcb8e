// Over 500 lines by design: the objects the fuzz test makes and the name-to-id hints, one table per resource.
/**
 * The objects the OpenAPI fuzz test makes before it starts, so valid-looking requests reach deep code:
 * in the default client of its own database, three sets (each a dictionary with languages and fields,
 * sections, a domain, a view, a filter, sync settings, concepts with terms, a comment, a user, a group, a
 * permission scheme, a client): `main` for ordinary requests, `spare` for the deletes and `victim` for the
 * other destructive operations (empty, undo, language replace...); and the files the uploads take (a
 * users export, a definition export, a TBX export). What each operation's names mean comes from here too.
 */
import { createTenant, createUser, uniqueSuffix } from '../factories/tenant.js';
import type { TestApp } from '../helpers/app.js';
import { TEST_ADMIN_PASSWORD } from '../helpers/constants.js';
import type { RestClient } from '../helpers/rest.js';
import {
  type BaseRequest,
  type Hints,
  type Json,
  normalName,
  type Operation,
  type Schema,
  typeOf,
} from './openapi-fuzz.js';

export interface ObjectIds {
  clientId: number;
  clientLogin: string;
  userId: number;
  username: string;
  groupId: number;
  schemeId: number;
  dictionaryId: number;
  sectionId: number;
  sectionOid: string;
  /** A second section, empty: one a delete may take (a dictionary keeps at least one). */
  extraSectionId: number;
  domainId: number;
  domainOid: string;
  viewId: number;
  filterId: number;
  syncSettingsId: number;
  conceptId: number;
  /** A second concept of the dictionary: the target of relations. */
  otherConceptId: number;
  conceptOid: string;
  termId: number;
  termOid: string;
  termName: string;
  commentId: number;
  historyItemId: number;
  dictionaryHistoryItemId: number;
  conceptFieldOid: string;
  incrementalFieldOid: string;
  termFieldOid: string;
  exportSettingsId: number;
  jobId: number;
}

export interface FuzzWorld {
  main: ObjectIds;
  /** What the deletes take. */
  spare: ObjectIds;
  /** What the other destructive operations (empty, undo, language replace...) take. */
  victim: ObjectIds;
  /** An open definition import of the administrator (refreshed by prepare()). */
  importId: string;
  files: { users: Buffer; definition: Buffer; tbx: Buffer };
}

async function expectOk<T>(what: string, response: Promise<{ status: number; text: string; body: T }>) {
  const answer = await response;
  if (answer.status >= 300) throw new Error(`${what}: ${answer.status} ${answer.text.slice(0, 500)}`);
  return answer.body;
}

interface Created {
  id: number;
  oid?: string | null;
}

const LANGUAGES = [
  {
    code: 'eng',
    variants: [
      { type: 0, code: 'US' },
      { type: 1, code: 'Latn' },
    ],
  },
  { code: 'deu' },
  { code: 'fra' },
];
const CONCEPT_FIELDS = [
  { name: 'Definition', dataCategory: 'DEFINITION', fieldType: 'MULTILINE' },
  { name: 'Note', fieldType: 'SINGLELINE', model: { maxLen: 200 } },
  {
    name: 'Status',
    fieldType: 'PICKLIST',
    model: { picklistItems: [{ name: 'new' }, { name: 'approved' }] },
  },
  { name: 'Due', fieldType: 'DATE' },
  { name: 'Amount', fieldType: 'NUMBER' },
  { name: 'Serial', fieldType: 'INCREMENTAL' },
];
const TERM_FIELDS = [
  { name: 'Usage', fieldType: 'MULTILINE' },
  {
    name: 'Gender',
    dataCategory: 'GRAMMATICAL_GENDER',
    fieldType: 'PICKLIST',
    model: { picklistItems: [{ tbxName: 'masculine' }] },
  },
];

/** One set of objects in the default client, through the API as the system administrator. */
async function makeObjects(t: TestApp, sysadmin: RestClient, defaultClientId: number): Promise<ObjectIds> {
  const suffix = uniqueSuffix();
  const tenant = await createTenant(sysadmin);
  const user = await createUser(t.orm, defaultClientId, { email: `fuzz-${suffix}@example.org` });
  const group = await expectOk<Created>(
    'group',
    sysadmin.post('/groups', { name: `Fuzz group ${suffix}`, groupMembers: [user.id] }),
  );
  const scheme = await expectOk<Created>(
    'scheme',
    sysadmin.post('/permissionschemes', { name: `Fuzz scheme ${suffix}`, grants: [] }),
  );
  const dictionary = await expectOk<{
    id: number;
    sections: Array<{ id: number; oid: string }>;
    conceptFields: Array<{ name: string; oid: string }>;
    termFields: Array<{ name: string; oid: string }>;
  }>(
    'dictionary',
    sysadmin.post('/dictionaries', {
      name: `Fuzz dictionary ${suffix}`,
      languages: LANGUAGES,
      conceptFields: CONCEPT_FIELDS,
      termFields: TERM_FIELDS,
    }),
  );
  const section = dictionary.sections[0]!;
  const fieldOid = (name: string) =>
    [...dictionary.conceptFields, ...dictionary.termFields].find((field) => field.name === name)!.oid;
  const extraSection = await expectOk<Created>(
    'section',
    sysadmin.post('/sections', { name: `Extra ${suffix}`, dictionaryId: dictionary.id }),
  );
  const domain = await expectOk<Created & { oid: string }>(
    'domain',
    sysadmin.post('/domains', { name: `Physics ${suffix}`, dictionaryId: dictionary.id }),
  );
  const view = await expectOk<Created>(
    'view',
    sysadmin.post('/views', {
      name: `View ${suffix}`,
      dictionaryId: dictionary.id,
      fields: [fieldOid('Note')],
    }),
  );
  const filter = await expectOk<Created>(
    'filter',
    sysadmin.post('/filters', {
      name: `Filter ${suffix}`,
      dictionaryId: dictionary.id,
      visibility: 'PUBLIC',
    }),
  );
  const sync = await expectOk<Created>(
    'sync settings',
    sysadmin.post('/sync-settings', {
      name: `Sync ${suffix}`,
      dictionaryId: dictionary.id,
      languages: [{ langCode: 'eng' }],
      groups: [{ groupId: group.id }],
      filterId: filter.id,
    }),
  );
  const termName = `fuzzterm${suffix}`;
  const concept = await expectOk<Created & { terms: Array<{ id: number }> }>(
    'concept',
    sysadmin.post('/concepts', {
      dictionaryId: dictionary.id,
      sectionOid: section.oid,
      domainList: [domain.oid],
      fieldMap: { [fieldOid('Definition')]: 'A fuzzy thing', [fieldOid('Status')]: 'new' },
      terms: [
        { name: termName, languageCode: 'eng', regionCode: 'US', fieldMap: { [fieldOid('Usage')]: 'often' } },
        { name: `${termName} de`, languageCode: 'deu' },
      ],
    }),
  );
  // A second concept, so relations and copies have a target; and a change, so history has items.
  const other = await expectOk<Created>(
    'concept 2',
    sysadmin.post('/concepts', {
      dictionaryId: dictionary.id,
      sectionOid: section.oid,
      terms: [{ name: `${termName} two`, languageCode: 'fra' }],
    }),
  );
  const conceptOid = `fuzz-concept-${suffix}`;
  const termOid = `fuzz-term-${suffix}`;
  const em = t.orm.em.fork();
  await em.execute('update concepts set oid = ? where id = ?', [conceptOid, concept.id]);
  await em.execute('update terms set oid = ? where id = ?', [termOid, concept.terms[0]!.id]);
  const comment = await expectOk<Created>(
    'comment',
    sysadmin.post('/comments', { 'entry-id': concept.id, text: 'A comment to fuzz' }),
  );
  const history = await expectOk<{ content: Array<{ id: number }> }>(
    'history',
    sysadmin.get(`/history/concept/${concept.id}`),
  );
  const dictionaryHistory = await expectOk<{ content: Array<{ id: number }> }>(
    'dictionary history',
    sysadmin.get(`/history/dictionary/${dictionary.id}`),
  );
  await expectOk('reindex', sysadmin.post(`/dictionaries/reindex/${dictionary.id}`));
  const jobs = await expectOk<{ content: Array<{ id: number }> }>('jobs', sysadmin.get('/jobs?size=1'));
  const exportSettings = await expectOk<{ content: Array<{ id: number }> }>(
    'export settings',
    sysadmin.get('/export-settings?size=1'),
  );
  return {
    clientId: tenant.id,
    clientLogin: tenant.loginName,
    userId: user.id,
    username: user.username,
    groupId: group.id,
    schemeId: scheme.id,
    dictionaryId: dictionary.id,
    sectionId: section.id,
    sectionOid: section.oid,
    extraSectionId: extraSection.id,
    domainId: domain.id,
    domainOid: domain.oid,
    viewId: view.id,
    filterId: filter.id,
    syncSettingsId: sync.id,
    conceptId: concept.id,
    otherConceptId: other.id,
    conceptOid,
    termId: concept.terms[0]!.id,
    termOid,
    termName,
    commentId: comment.id,
    historyItemId: history.content[0]!.id,
    dictionaryHistoryItemId: dictionaryHistory.content[0]?.id ?? 0,
    conceptFieldOid: fieldOid('Note'),
    incrementalFieldOid: fieldOid('Serial'),
    termFieldOid: fieldOid('Usage'),
    exportSettingsId: exportSettings.content[0]?.id ?? 1,
    jobId: jobs.content[0]!.id,
  };
}

export async function buildWorld(
  t: TestApp,
  sysadmin: RestClient,
  defaultClientId: number,
): Promise<FuzzWorld> {
  const [main, spare, victim] = await Promise.all([
    makeObjects(t, sysadmin, defaultClientId),
    makeObjects(t, sysadmin, defaultClientId),
    makeObjects(t, sysadmin, defaultClientId),
  ]);
  const download = async (method: 'GET' | 'POST', path: string) => {
    const response = await sysadmin.call(method, path);
    if (response.status !== 200)
      throw new Error(`${path}: ${response.status} ${response.text.slice(0, 300)}`);
    return Buffer.from(response.text);
  };
  const files = {
    users: await download('GET', '/users/export'),
    definition: await download(
      'POST',
      `/dictionaries/export-definition/${main.dictionaryId}?include-filters=true`,
    ),
    tbx: await download('GET', `/dictionaries/export-tbx/${main.dictionaryId}`),
  };
  return { main, spare, victim, importId: '', files };
}

/** Opens a definition import of the caller's (each user keeps only a few open). */
async function startImport(sysadmin: RestClient, world: FuzzWorld): Promise<string> {
  const started = await sysadmin.upload<{ importId: string }>('/dictionaries/import-definition/start', {
    content: world.files.definition,
    filename: 'definition.xml',
  });
  if (started.status !== 200) throw new Error(`import-definition/start: ${started.status} ${started.text}`);
  return started.body.importId;
}

/** What an operation needs made just before it: an open definition import (past its dictionary step). */
export async function prepare(op: Operation, sysadmin: RestClient, world: FuzzWorld): Promise<void> {
  if (!op.path.includes('import-definition/process')) return;
  world.importId = await startImport(sysadmin, world);
  if (op.path.endsWith('process-filter')) {
    await expectOk(
      'process-dictionary',
      // Into an existing dictionary: a new one would clash with the name of the exported one.
      sysadmin.put('/dictionaries/import-definition/process-dictionary', {
        'import-id': world.importId,
        'dictionary-id': world.victim.dictionaryId,
        'include-filters': true,
      }),
    );
  }
}

/**
 * The order of the destructive operations other than deletes (-1: not one): what still needs the
 * victim's concepts first, emptying the dictionary last.
 */
export function destructiveRank(op: Operation): number {
  const order = [
    // Full and partial concept updates: their mutations may remove every term.
    /^PUT \/concepts\/\{id\}(\/patch)?$/,
    /concept-undo/,
    /dictionary-undo/,
    /import-tbx/,
    /import-definition\/process/,
    /^PUT \/dictionaries\/\{id\}$/,
    /assign-clients|^PUT \/users\/clients$|logout-user/,
    /language-replace/,
    /sections\/clear/,
    /dictionaries\/empty/,
  ];
  return order.findIndex((pattern) => pattern.test(op.key));
}

/** The objects an operation works on: the spare ones for deletes, the victim's for other destruction. */
const objectsFor = (op: Operation, world: FuzzWorld): ObjectIds =>
  op.method === 'DELETE' ? world.spare : destructiveRank(op) >= 0 ? world.victim : world.main;

/** The kind of object `{id}` (or `{ids}`) names on a path. */
const RESOURCE_IDS: Record<string, keyof ObjectIds> = {
  clients: 'clientId',
  users: 'userId',
  groups: 'groupId',
  permissionschemes: 'schemeId',
  dictionaries: 'dictionaryId',
  sections: 'sectionId',
  domains: 'domainId',
  views: 'viewId',
  filters: 'filterId',
  'export-settings': 'exportSettingsId',
  jobs: 'jobId',
  'sync-settings': 'syncSettingsId',
  concepts: 'conceptId',
  'display-concepts': 'conceptId',
  comments: 'commentId',
};

const isTextList = (schema: Schema) => {
  const type = typeOf(schema);
  return (
    type === 'string' ||
    (type === 'array' && typeOf(schema.items ?? schema.anyOf?.[0]?.items ?? {}) !== 'object')
  );
};

/**
 * What the world tells the generator about the operation's names: ids of the objects it made (the spare
 * ones for destructive operations), codes of its languages, the administrator's password.
 */
export function hintsFor(
  op: Operation,
  world: FuzzWorld,
  state: { version?: number; unique(): string },
): Hints {
  const ids = objectsFor(op, world);
  const segment = op.path.split('/')[1] ?? '';
  const inTerms = (path: readonly (string | number)[]) => path.includes('terms');
  const values: Record<string, (schema: Schema, path: readonly (string | number)[]) => Json | undefined> = {
    dictionaryid: () => ids.dictionaryId,
    dictionaryids: () => [ids.dictionaryId],
    defaultdictionaryids: () => [ids.dictionaryId],
    sectionid: () => ids.sectionId,
    sectionoid: () => ids.sectionOid,
    sectionoids: () => [ids.sectionOid],
    domainoids: () => [ids.domainOid],
    domainlist: () => [ids.domainOid],
    parentdomainid: () =>
      op.path.startsWith('/domains/{id}') || op.path.startsWith('/domains/partial') ? null : ids.domainId,
    conceptid: () => ids.conceptId,
    sourceconceptid: () => ids.conceptId,
    targetconceptid: () => ids.otherConceptId,
    entryid: () => ids.conceptId,
    termid: () => ids.termId,
    termids: () => [ids.termId],
    termoid: () => ids.termOid,
    oid: () => ids.conceptOid,
    fieldoid: (_schema, path) => {
      if (op.path.includes('/incremental/')) return ids.incrementalFieldOid;
      return inTerms(path) ? ids.termFieldOid : ids.conceptFieldOid;
    },
    sourcefieldoid: (_schema, path) => (inTerms(path) ? ids.termFieldOid : ids.conceptFieldOid),
    fields: (schema) => (isTextList(schema) ? [ids.conceptFieldOid] : undefined),
    userid: () => ids.userId,
    emailrecipientid: () => ids.userId,
    users: () => [ids.userId],
    groupmembers: () => [ids.userId],
    groupid: () => ids.groupId,
    clientid: () => ids.clientId,
    clientids: () => [ids.clientId],
    clients: () => [ids.clientId],
    clientlogin: () => ids.clientLogin,
    viewid: () => ids.viewId,
    filterid: () => ids.filterId,
    permissionschemeid: () => ids.schemeId,
    historyitemid: () => (op.path.includes('dictionary') ? ids.dictionaryHistoryItemId : ids.historyItemId),
    importid: () => world.importId,
    fromid: () => 'eng',
    toid: () => 'deu',
    langcode: () => 'eng',
    languagecode: () => 'eng',
    langcode3: () => 'eng',
    sourcelanguage: () => 'eng',
    targetlanguages: () => ['deu'],
    langtag: () => 'en-US',
    language: () => 'en',
    languages: (schema) =>
      isTextList(schema) ? (op.path.includes('export-tbx') ? 'eng,deu' : ['eng']) : undefined,
    regioncode: () => 'US',
    scriptcode: () => 'Latn',
    version: () => state.version ?? 1,
    year: () => 2026,
    month: () => 1,
    idx: () => 0,
    size: () => 5,
    pagesize: () => 5,
    page: () => 0,
    term: () => ids.termName,
    query: () => ids.termName,
    text: () => `fuzz text ${state.unique()}`,
    name: () => `fuzz ${state.unique()}`,
    username: () =>
      op.path === '/login'
        ? 'admin'
        : op.path.startsWith('/reset-password')
          ? ids.username
          : `fuzz${state.unique()}`,
    password: () => TEST_ADMIN_PASSWORD,
    confirmpassword: () => TEST_ADMIN_PASSWORD,
    currentpassword: () => TEST_ADMIN_PASSWORD,
    client: () => undefined,
    url: () => 'https://example.org/fuzz',
    id: (_schema, path) => {
      if (path[0] !== 'path') return undefined;
      const kind =
        segment === 'sections' && op.method === 'DELETE' ? 'extraSectionId' : RESOURCE_IDS[segment];
      return kind ? ids[kind] : undefined;
    },
    ids: () => {
      const kind = segment === 'sections' ? 'extraSectionId' : RESOURCE_IDS[segment];
      return kind ? String(ids[kind]) : undefined;
    },
    value: () => 1,
    sort: () => 'name',
    code: (_schema, path) =>
      path.includes('variants') ? 'US' : path.includes('languages') ? 'eng' : undefined,
    variantcode: () => 'US',
    from: () => '2026-01-01',
    to: () => '2026-12-31 23:59:59',
    // A partitive relation (type 1) takes the attributes 2 and 3.
    type: (_schema, path) => (path.includes('conceptRelations') ? 1 : undefined),
    attribute: (_schema, path) => (path.includes('conceptRelations') ? 2 : undefined),
    roles: () => [],
  };
  return {
    value: (name, schema, path) => {
      const hint = values[normalName(name)];
      return hint ? hint(schema, path) : undefined;
    },
    key: (name, path) => {
      switch (normalName(name)) {
        case 'fieldmap':
        case 'conceptfields':
          return inTerms(path) ? ids.termFieldOid : ids.conceptFieldOid;
        case 'fields':
          return ids.termFieldOid;
        case 'viewsmap':
        case 'filtermap':
          return String(ids.dictionaryId);
        default:
          return undefined;
      }
    },
  };
}

const without = (value: Json | undefined, ...names: string[]): Json | undefined => {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => !names.includes(key)));
};

/**
 * Adjustments a schema cannot tell: members that exclude one another, members the valid request must
 * leave out (reference links whose text must stand in a field), bodies whose meaning hangs on a parameter.
 */
export function curateBase(op: Operation, base: BaseRequest, world: FuzzWorld): BaseRequest {
  const ids = objectsFor(op, world);
  switch (op.key) {
    case 'POST /login':
    case 'POST /reset-password':
      return { ...base, body: without(base.body, 'client', 'apiKey') };
    case 'POST /users':
    case 'PUT /users/partial/{id}':
      return {
        ...base,
        body: { ...(without(base.body, 'groups') as Record<string, Json>), groups: [ids.groupId] },
      };
    case 'GET /concepts':
      return { ...base, query: { oid: ids.conceptOid } };
    case 'POST /sync-settings':
    case 'PUT /sync-settings/{id}':
    case 'PUT /sync-settings/partial/{id}':
      // `filter` repeats filterId (the filter object as read).
      return { ...base, body: without(base.body, 'filter') };
    case 'PUT /users/{id}':
      return { ...base, body: without(base.body, 'groups') };
    case 'PUT /user-search-settings':
      return { ...base, query: {}, body: without(base.body, 'userId') };
    case 'PUT /user-search-settings/setting':
      return {
        ...base,
        query: { ...base.query, setting: 'defaultDictionaryIds' },
        body: [String(ids.dictionaryId)],
      };
    case 'PUT /mail-settings/server':
      // The test message (POST /mail-settings/test) then knocks on loopback's discard port, refused at
      // once, never on a host out in the network (mail-settings).
      return { ...base, body: { ...(base.body as Record<string, Json>), host: '127.0.0.1', port: 9 } };
    case 'POST /terms/search':
      return { ...base, body: without(base.body, 'termOid', 'searchAfter', 'searchBefore', 'filterId') };
    case 'POST /concepts':
    case 'PUT /concepts/{id}':
    case 'PUT /concepts/{id}/patch': {
      const body = without(base.body, 'refLinks') as Record<string, Json>;
      const terms = Array.isArray(body.terms) ? body.terms : [];
      return {
        ...base,
        body: { ...body, terms: terms.map((term) => without(term, 'refLinks') as Json) },
      };
    }
    default:
      return base;
  }
}
