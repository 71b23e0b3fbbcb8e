/**
 * GraphQL over a real socket for the dictionary-structure suite: the caller, the selection of a whole
 * dictionary, the projection of a REST dictionary onto that selection, and a counter of SQL statements.
 */
import { expect } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import type {
  Audit,
  DictionaryBody,
  DomainBody,
  FieldBody,
  LanguageBody,
  PicklistItemBody,
  SectionBody,
  VariantBody,
} from '../helpers/structure.js';

export interface GqlError {
  message: string;
  path?: (string | number)[];
  extensions: { code: string };
}

export interface GqlResult<T> {
  status: number;
  data: T | null;
  errors?: GqlError[];
}

/** Starts the server on a free loopback port and answers its base URL. */
export async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}`;
}

/** POST /graphql over HTTP, with X-Auth-Token when a token is given. */
export async function gql<T>(
  base: string,
  token: string | null,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<GqlResult<T>> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token !== null) headers['x-auth-token'] = token;
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as Omit<GqlResult<T>, 'status'>;
  return { status: response.status, ...body };
}

/** The data of a call that must succeed. */
export async function gqlOk<T>(
  base: string,
  token: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<T> {
  const result = await gql<T>(base, token, query, variables);
  expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
  expect(result.status).toBe(200);
  return result.data!;
}

const DOMAIN = 'id oid name parentDomainId sortIndex numberOfConcepts';
const FIELD = `id oid name specifiedName dataCategory fieldType level sortIndex
  model { required minLen maxLen regExp number unicode picklistItems { id oid name tbxName sortIndex } }`;
const SECTION = 'id oid name viewId numberOfConcepts deletable sortIndex permissionSchemeId';
const AUDIT = 'id name fullName time';

/** Every member of a Dictionary, with the domain tree five levels deep (the fifth without children). */
export const DICTIONARY_SELECTION = `
  id oid version clientId name description sortIndex concepts hasDomains domainPresentation
  emailRecipientId permissionSchemeId
  created { ${AUDIT} } changed { ${AUDIT} }
  languages { id name code code2 code3 isIso custom rtl idStr sortIndex
    variants { id name type code predefined sortIndex } }
  conceptFields { ${FIELD} }
  termFields { ${FIELD} }
  sections { ${SECTION} }
  allSections { ${SECTION} }
  domains { ${DOMAIN} children { ${DOMAIN} children { ${DOMAIN} children { ${DOMAIN}
    children { ${DOMAIN} } } } } }`;

export const DICTIONARY_QUERY = `query ($id: Int!) { dictionary(id: $id) { ${DICTIONARY_SELECTION} } }`;

/** The members of the REST bodies that the GraphQL selection asks for. */
export type GqlDomainNode = Pick<
  DomainBody,
  'id' | 'oid' | 'name' | 'parentDomainId' | 'sortIndex' | 'numberOfConcepts'
> & { children?: GqlDomainNode[] };

export type GqlSection = Pick<
  SectionBody,
  'id' | 'oid' | 'name' | 'viewId' | 'numberOfConcepts' | 'deletable' | 'sortIndex' | 'permissionSchemeId'
>;

export type GqlField = Pick<
  FieldBody,
  'id' | 'oid' | 'name' | 'specifiedName' | 'dataCategory' | 'fieldType' | 'level' | 'sortIndex'
> & {
  model: Omit<FieldBody['model'], 'id' | 'oid' | 'picklistItems'> & {
    /** Saved items: id and oid are set. */
    picklistItems: (Pick<PicklistItemBody, 'name' | 'tbxName' | 'sortIndex'> & { id: number; oid: string })[];
  };
};

export type GqlLanguage = Pick<
  LanguageBody,
  'id' | 'name' | 'code' | 'code2' | 'code3' | 'isIso' | 'custom' | 'rtl' | 'idStr' | 'sortIndex'
> & { variants: Pick<VariantBody, 'id' | 'name' | 'type' | 'code' | 'predefined' | 'sortIndex'>[] };

export type GqlAudit = Omit<Audit, 'oid'>;

export type GqlDictionary = Pick<
  DictionaryBody,
  | 'id'
  | 'oid'
  | 'version'
  | 'clientId'
  | 'name'
  | 'description'
  | 'sortIndex'
  | 'concepts'
  | 'hasDomains'
  | 'domainPresentation'
  | 'emailRecipientId'
  | 'permissionSchemeId'
> & {
  created: GqlAudit;
  changed: GqlAudit;
  languages: GqlLanguage[];
  conceptFields: GqlField[];
  termFields: GqlField[];
  sections: GqlSection[];
  allSections: GqlSection[];
  domains: GqlDomainNode[];
};

const audit = (value: Audit): GqlAudit => ({
  id: value.id,
  name: value.name,
  fullName: value.fullName,
  time: value.time,
});

const language = (value: LanguageBody): GqlLanguage => ({
  id: value.id,
  name: value.name,
  code: value.code,
  code2: value.code2,
  code3: value.code3,
  isIso: value.isIso,
  custom: value.custom,
  rtl: value.rtl,
  idStr: value.idStr,
  sortIndex: value.sortIndex,
  variants: value.variants.map((variant) => ({
    id: variant.id,
    name: variant.name,
    type: variant.type,
    code: variant.code,
    predefined: variant.predefined,
    sortIndex: variant.sortIndex,
  })),
});

const field = (value: FieldBody): GqlField => ({
  id: value.id,
  oid: value.oid,
  name: value.name,
  specifiedName: value.specifiedName,
  dataCategory: value.dataCategory,
  fieldType: value.fieldType,
  level: value.level,
  sortIndex: value.sortIndex,
  model: {
    required: value.model.required,
    minLen: value.model.minLen,
    maxLen: value.model.maxLen,
    regExp: value.model.regExp,
    number: value.model.number,
    unicode: value.model.unicode,
    picklistItems: value.model.picklistItems.map((item) => ({
      id: item.id!,
      oid: item.oid!,
      name: item.name,
      tbxName: item.tbxName,
      sortIndex: item.sortIndex,
    })),
  },
});

export const section = (value: SectionBody): GqlSection => ({
  id: value.id,
  oid: value.oid,
  name: value.name,
  viewId: value.viewId,
  numberOfConcepts: value.numberOfConcepts,
  deletable: value.deletable,
  sortIndex: value.sortIndex,
  permissionSchemeId: value.permissionSchemeId,
});

/** The REST dictionary as the GraphQL selection shows it (the domain tree is given separately). */
export const asGraphQL = (value: DictionaryBody, domains: GqlDomainNode[]): GqlDictionary => ({
  id: value.id,
  oid: value.oid,
  version: value.version,
  clientId: value.clientId,
  name: value.name,
  description: value.description,
  sortIndex: value.sortIndex,
  concepts: value.concepts,
  hasDomains: value.hasDomains,
  domainPresentation: value.domainPresentation,
  emailRecipientId: value.emailRecipientId,
  permissionSchemeId: value.permissionSchemeId,
  created: audit(value.created),
  changed: audit(value.changed),
  languages: value.languages.map(language),
  conceptFields: value.conceptFields.map(field),
  termFields: value.termFields.map(field),
  sections: value.sections.map(section),
  allSections: value.allSections.map(section),
  domains,
});

/** A node of an expected domain tree, from the domain as REST created it. */
export const node = (
  domain: DomainBody,
  numberOfConcepts: number,
  children: GqlDomainNode[] = [],
): GqlDomainNode => ({
  id: domain.id,
  oid: domain.oid,
  name: domain.name,
  parentDomainId: domain.parentDomainId,
  sortIndex: domain.sortIndex,
  numberOfConcepts,
  children,
});

/** Names of a tree, nested: [name, [children...]]. */
export type NameTree = [string, NameTree[]];
export const names = (nodes: GqlDomainNode[] | undefined): NameTree[] =>
  (nodes ?? []).map((entry) => [entry.name, names(entry.children)]);

/**
 * Counts the SQL statements the server's ORM sends, through the ORM's own logger (every statement
 * passes its logQuery, whatever the debug setting); nothing in src is changed.
 */
// idempotency_keys: the heartbeat deletes expired keys (src/modules/jobs/job-heartbeat.ts).
const BACKGROUND_STATEMENT =
  /\bjob_tasks\b|\bsearch_outbox\b|api_requests = s\.api_requests|\bidempotency_keys\b/;

export function sqlCounter(t: TestApp) {
  const logger = t.orm.config.getLogger();
  const original = logger.logQuery.bind(logger);
  let statements: string[] = [];
  logger.logQuery = (context) => {
    const query = context.query ?? '';
    // The server's own timers (job heartbeats, the API request counter) share the ORM; a slow run
    // let one land inside a measured request. They are never the request's statements.
    if (!BACKGROUND_STATEMENT.test(query)) statements.push(query);
    original(context);
  };
  return {
    /** The statements sent while `action` ran. */
    async during(action: () => Promise<unknown>): Promise<string[]> {
      statements = [];
      await action();
      const seen = statements;
      statements = [];
      return seen;
    },
    restore() {
      logger.logQuery = original;
    },
  };
}
