/**
 * The one place that answers "may this actor do X in this dictionary / section / concept?". Roles come
 * first (system and client administrators and the dictionary's administrators may do everything); other
 * users get the union of what the permission scheme grants to their groups. A section without a scheme
 * uses its dictionary's; a dictionary without one lets named users read, print and export.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { notFound } from '../../shared/errors.js';
import { type Actor, isClientAdmin, type Scope } from '../../shared/scope.js';
import { ambientManager, boundRows, type Sql } from '../../shared/sql.js';
import {
  type ConceptPermission,
  ConceptPermissionValues,
  type DictionaryPermission,
  DictionaryPermissionValues,
  type PermissionGrant,
  type TermPermission,
  TermPermissionValues,
} from '../permission/permission-scheme.entity.js';
import type { DictionaryPermissionsDto } from '../permission/permission-scheme.schema.js';
import { dictionaryAdminRole } from '../role/role.service.js';

/** What a dictionary without a scheme allows named users (the All users group). */
const DEFAULT_GRANT: Omit<PermissionGrant, 'groupId'> = {
  dictionaryPermissions: ['DICT_READ', 'CONCEPT_PRINT', 'CONCEPT_EXPORT'],
  conceptPermissions: ['CONCEPT_PRINT', 'CONCEPT_VIEW_HISTORY'],
  termPermissions: [],
  languages: [],
};

/** A group the actor acts in, with the filters it imposes per dictionary id. */
export interface SubjectGroup {
  id: number;
  type: string;
  filterMap: Record<string, number>;
}

/** The actor's groups in the acting client, resolved once per request. */
export interface AccessSubject {
  actor: Actor;
  /** The effective groups (explicit ones, and All users or Guest), without the Owner group. */
  groups: readonly SubjectGroup[];
  groupIds: ReadonlySet<number>;
  allUsersGroupId: number | null;
  ownerGroupId: number | null;
}

const subjects = new WeakMap<Scope, Promise<AccessSubject>>();

/** A row of subjectGroupsSql. */
export interface SubjectGroupRow {
  id: number;
  type: string;
  filter_map: Record<string, number> | null;
}

/** The effective groups (as effectiveGroups) and the client's Owner group: rows for subjectFrom. */
export function subjectGroupsSql(actor: Actor): Sql {
  return {
    text: `select id, type, filter_map from groups
            where client_id = ? and not deleted
              and (type in (?, 'OWNER')
                   or (type <> 'OWNER' and ? and id in (select group_id from group_members where user_id = ?)))`,
    params: [actor.clientId, actor.guest ? 'GUEST' : 'ALL_USERS', !actor.guest, actor.userId],
  };
}

export function subjectFrom(actor: Actor, rows: readonly SubjectGroupRow[]): AccessSubject {
  const groups = rows
    .filter((row) => row.type !== 'OWNER')
    .map((row) => ({ id: row.id, type: row.type, filterMap: row.filter_map ?? {} }));
  return {
    actor,
    groups,
    groupIds: new Set(groups.map((group) => group.id)),
    allUsersGroupId: groups.find((group) => group.type === 'ALL_USERS')?.id ?? null,
    ownerGroupId: rows.find((row) => row.type === 'OWNER')?.id ?? null,
  };
}

async function resolveSubject(em: EntityManager, actor: Actor): Promise<AccessSubject> {
  const query = subjectGroupsSql(actor);
  return subjectFrom(actor, await boundRows<SubjectGroupRow>(ambientManager(em), query, { prepared: true }));
}

/** Hands a subject loaded along with other reads to the rest of the request (see accessSubject). */
export function primeAccessSubject(scope: Scope, subject: AccessSubject): void {
  subjects.set(scope, Promise.resolve(subject));
}

/** The actor's groups, loaded at most once per request scope. */
export function accessSubject(scope: Scope): Promise<AccessSubject> {
  let subject = subjects.get(scope);
  if (!subject) {
    subject = resolveSubject(scope.em, scope.actor);
    subjects.set(scope, subject);
  }
  return subject;
}

/** System and client administrators, and DICTIONARY_ADMIN@<key> for this dictionary. */
export function isDictionaryAdmin(actor: Actor, dictionary: { id: number; oid?: string | null }): boolean {
  return isClientAdmin(actor) || actor.roles.includes(dictionaryAdminRole(dictionary));
}

/** The grants of a scheme (or the default) that reach the subject; OWNER grants only for the owner. */
function grantsFor(
  subject: AccessSubject,
  scheme: SchemeGrants | null,
  isOwner: boolean,
): Omit<PermissionGrant, 'groupId'>[] {
  if (!scheme) {
    return subject.allUsersGroupId !== null ? [DEFAULT_GRANT] : [];
  }
  return scheme.filter(
    (grant) => subject.groupIds.has(grant.groupId) || (isOwner && grant.groupId === subject.ownerGroupId),
  );
}

function flags<K extends string>(values: readonly K[], granted: (value: K) => boolean): Record<K, boolean> {
  return Object.fromEntries(values.map((value) => [value, granted(value)])) as Record<K, boolean>;
}

const CONCEPT_LEVEL = DictionaryPermissionValues.filter((value) => value.startsWith('CONCEPT_'));

/** The grants of a permission scheme; null where none is assigned. */
type SchemeGrants = readonly PermissionGrant[];

/** A dictionary as access decisions need it. */
export interface AccessDictionary {
  id: number;
  oid: string | null;
  scheme: SchemeGrants | null;
}

/** A live section as access decisions need it: its own scheme (null: the dictionary's applies). */
export interface AccessSection {
  id: number;
  oid: string | null;
  dictionaryId: number;
  scheme: SchemeGrants | null;
}

/** A row of dictionaryRowsSql. */
export interface DictionaryRow {
  id: number;
  oid: string | null;
  grants: PermissionGrant[] | null;
  sections: { id: number; oid: string | null; grants: PermissionGrant[] | null }[];
}

/**
 * The dictionaries of the client with their live sections and schemes, one row per dictionary (raw
 * SQL: this runs on every request that checks access; entity hydration cost more than the query).
 */
export function dictionaryRowsSql(ids: readonly number[], clientId: number): Sql {
  return {
    text: `select d.id, d.oid, dps.grants,
                  coalesce((select json_agg(json_build_object('id', s.id, 'oid', s.oid, 'grants', sps.grants)
                                            order by s.id)
                              from sections s left join permission_schemes sps on sps.id = s.permission_scheme_id
                             where s.dictionary_id = d.id and not s.deleted), '[]') as sections
             from dictionaries d left join permission_schemes dps on dps.id = d.permission_scheme_id
            where d.id = any(?::int[]) and d.client_id = ? and not d.deleted`,
    params: [[...ids], clientId],
  };
}

/** The dictionaries and their sections of dictionaryRowsSql; an id without a row answers 404. */
export function structureFrom(ids: readonly number[], rows: readonly DictionaryRow[]): AccessStructure {
  const missing = ids.find((id) => !rows.some((row) => row.id === id));
  if (missing !== undefined) throw notFound('Dictionary', missing);
  const dictionaries: AccessDictionary[] = rows.map((row) => ({
    id: row.id,
    oid: row.oid,
    scheme: row.grants,
  }));
  const sections: AccessSection[] = rows
    .flatMap((row) =>
      row.sections.map((section) => ({
        id: section.id,
        oid: section.oid,
        dictionaryId: row.id,
        scheme: section.grants,
      })),
    )
    .sort((a, b) => a.id - b.id);
  return { dictionaries, sections };
}

async function loadDictionaries(scope: Scope, ids: readonly number[]): Promise<AccessStructure> {
  const query = dictionaryRowsSql(ids, scope.actor.clientId);
  const rows = await boundRows<DictionaryRow>(ambientManager(scope.em), query, { prepared: true });
  return structureFrom(ids, rows);
}

/** DictionaryPermissions of the spec for each requested dictionary of the actor's client (others: 404). */
export async function dictionaryPermissions(
  scope: Scope,
  dictionaryIds: readonly number[],
): Promise<DictionaryPermissionsDto[]> {
  return (await dictionaryAccess(scope, dictionaryIds)).permissions;
}

/** The sections of the dictionaries the actor may read (DICT_READ there, or administration). */
export async function readableSectionIds(
  scope: Scope,
  dictionaryIds: readonly number[],
): Promise<Set<number>> {
  return (await dictionaryAccess(scope, dictionaryIds)).readableSections;
}

/**
 * Permissions, readable sections, and the loaded dictionaries and live sections (with schemes) of the
 * requested dictionaries; 404 for another client's. Callers that need several of these load them once.
 */
export async function dictionaryAccess(scope: Scope, dictionaryIds: readonly number[]) {
  const subject = await accessSubject(scope);
  return accessIn(scope.actor, subject, dictionaryIds, await loadDictionaries(scope, dictionaryIds));
}

/** dictionaryAccess over a subject and structure already loaded. */
export function accessIn(
  actor: Actor,
  subject: AccessSubject,
  dictionaryIds: readonly number[],
  structure: AccessStructure,
) {
  const { dictionaries, sections } = structure;
  const readableSections = new Set<number>();
  const permissions = dictionaryIds.map((id) => {
    const dictionary = dictionaries.find((d) => d.id === id)!;
    const admin = isDictionaryAdmin(actor, dictionary);
    const dictionaryScheme = dictionary.scheme;
    const atDictionary = new Set(
      grantsFor(subject, dictionaryScheme, false).flatMap((grant) => grant.dictionaryPermissions),
    );
    const sectionPermissions: Record<string, Record<string, boolean>> = {};
    const sectionOidPermissions: Record<string, Record<string, boolean>> = {};
    const inSomeSection = new Set<DictionaryPermission>();
    for (const section of sections.filter((s) => s.dictionaryId === id)) {
      const scheme = section.scheme ?? dictionaryScheme;
      const granted = new Set(
        grantsFor(subject, scheme, false).flatMap((grant) => grant.dictionaryPermissions),
      );
      const readable = admin || granted.has('DICT_READ');
      if (readable) {
        inSomeSection.add('DICT_READ');
        readableSections.add(section.id);
      }
      const map = flags(CONCEPT_LEVEL, (value) => admin || (readable && granted.has(value)));
      for (const [key, value] of Object.entries(map))
        if (value) inSomeSection.add(key as DictionaryPermission);
      sectionPermissions[String(section.id)] = map;
      sectionOidPermissions[section.oid ?? String(section.id)] = map;
    }
    // Reading and concept work happen in sections: where there are sections, they decide.
    const hasSections = Object.keys(sectionPermissions).length > 0;
    const sectionLevel = (value: DictionaryPermission) =>
      value === 'DICT_READ' || value.startsWith('CONCEPT_');
    return {
      dictionaryId: id,
      permissions: flags(
        DictionaryPermissionValues,
        (value) =>
          admin || (hasSections && sectionLevel(value) ? inSomeSection.has(value) : atDictionary.has(value)),
      ),
      sectionPermissions,
      sectionOidPermissions,
    };
  });
  return { permissions, readableSections, dictionaries, sections };
}

export interface ConceptAccess {
  concept: Record<ConceptPermission, boolean>;
  term: Record<TermPermission, boolean>;
  /** Languages the term permissions are limited to; null means every language. */
  termLanguages: string[] | null;
  /** Whether the section is readable at all (unreadable concepts answer 404). */
  readable: boolean;
  /** CONCEPT_CREATE in the section: creating concepts there, and restoring deleted ones. */
  conceptCreate: boolean;
}

/**
 * Concept and term permissions in one section, for a concept created by `ownerId` (null for a new
 * concept). Used by the concepts work for the permission maps and languageCodesEditable.
 */
export async function conceptAccess(
  scope: Scope,
  sectionId: number,
  ownerId: number | null,
): Promise<ConceptAccess> {
  const [access] = await conceptAccessFor(scope, [{ sectionId, ownerId }]);
  return access!;
}

/**
 * conceptAccess for many concepts at once: the sections (with their schemes) load in one query, so a
 * page of concepts costs the same as one. An unknown section (or another client's) answers 404.
 */
export async function conceptAccessFor(
  scope: Scope,
  entries: readonly { sectionId: number; ownerId: number | null }[],
): Promise<ConceptAccess[]> {
  if (entries.length === 0) return [];
  const sectionIds = [...new Set(entries.map((entry) => entry.sectionId))];
  const rows = await ambientManager(scope.em).execute<
    {
      id: number;
      oid: string | null;
      dictionary_id: number;
      grants: PermissionGrant[] | null;
      dictionary_oid: string | null;
      dictionary_grants: PermissionGrant[] | null;
    }[]
  >(
    `select s.id, s.oid, s.dictionary_id, sps.grants, d.oid as dictionary_oid, dps.grants as dictionary_grants
       from sections s join dictionaries d on d.id = s.dictionary_id
       left join permission_schemes sps on sps.id = s.permission_scheme_id
       left join permission_schemes dps on dps.id = d.permission_scheme_id
      where s.id in (?) and s.client_id = ? and not s.deleted`,
    [sectionIds, scope.actor.clientId],
  );
  const missing = sectionIds.find((id) => !rows.some((row) => row.id === id));
  if (missing !== undefined) throw notFound('Section', missing);
  const sections = rows.map((row) => ({
    id: row.id,
    oid: row.oid,
    dictionaryId: row.dictionary_id,
    scheme: row.grants,
  }));
  const dictionaries = rows.map((row) => ({
    id: row.dictionary_id,
    oid: row.dictionary_oid,
    scheme: row.dictionary_grants,
  }));
  return conceptAccessInSections(scope, { sections, dictionaries }, entries);
}

/** Sections with their dictionaries, as dictionaryAccess and conceptAccessFor load them. */
export interface AccessStructure {
  sections: AccessSection[];
  dictionaries: AccessDictionary[];
}

/**
 * conceptAccessFor over sections already loaded (as dictionaryAccess loads them); every entry's section
 * must be among them.
 */
export async function conceptAccessInSections(
  scope: Scope,
  structure: AccessStructure,
  entries: readonly { sectionId: number; ownerId: number | null }[],
): Promise<ConceptAccess[]> {
  const byId = new Map(structure.sections.map((section) => [section.id, section]));
  const dictionaryOf = new Map(structure.dictionaries.map((dictionary) => [dictionary.id, dictionary]));
  const needsSubject = structure.dictionaries.some((d) => !isDictionaryAdmin(scope.actor, d));
  const subject = needsSubject ? await accessSubject(scope) : null;
  const memo = new Map<string, ConceptAccess>();
  return entries.map(({ sectionId, ownerId }) => {
    const isOwner = ownerId !== null && ownerId === scope.actor.userId;
    const key = `${sectionId}:${isOwner}`;
    let access = memo.get(key);
    if (!access) {
      const section = byId.get(sectionId);
      const dictionary = section && dictionaryOf.get(section.dictionaryId);
      if (!section || !dictionary) throw notFound('Section', sectionId);
      access = sectionAccess(scope.actor, subject, section, dictionary, isOwner);
      memo.set(key, access);
    }
    return access;
  });
}

/** Whether some grant of these sections' schemes goes to the Owner group (then concept owners matter). */
export function ownerGrantsIn(
  subject: AccessSubject,
  structure: AccessStructure,
  sectionIds: ReadonlySet<number>,
): boolean {
  if (subject.ownerGroupId === null) return false;
  return structure.sections.some((section) => {
    if (!sectionIds.has(section.id)) return false;
    const scheme =
      section.scheme ?? structure.dictionaries.find((d) => d.id === section.dictionaryId)?.scheme ?? null;
    return scheme?.some((grant) => grant.groupId === subject.ownerGroupId) ?? false;
  });
}

function sectionAccess(
  actor: Actor,
  subject: AccessSubject | null,
  section: AccessSection,
  dictionary: AccessDictionary,
  isOwner: boolean,
): ConceptAccess {
  if (isDictionaryAdmin(actor, dictionary) || !subject) {
    return {
      concept: flags(ConceptPermissionValues, () => true),
      term: flags(TermPermissionValues, () => true),
      termLanguages: null,
      readable: true,
      conceptCreate: true,
    };
  }
  const grants = grantsFor(subject, section.scheme ?? dictionary.scheme, isOwner);
  const readable = grants.some((grant) => grant.dictionaryPermissions.includes('DICT_READ'));
  const concept = new Set(readable ? grants.flatMap((grant) => grant.conceptPermissions) : []);
  // The language limit belongs to the grants that give term work: term permissions or TERM_CREATE.
  const termGrants = readable
    ? grants.filter(
        (grant) => grant.termPermissions.length > 0 || grant.conceptPermissions.includes('TERM_CREATE'),
      )
    : [];
  const term = new Set(termGrants.flatMap((grant) => grant.termPermissions));
  const unlimited = termGrants.length === 0 || termGrants.some((grant) => grant.languages.length === 0);
  return {
    concept: flags(ConceptPermissionValues, (value) => concept.has(value)),
    term: flags(TermPermissionValues, (value) => term.has(value)),
    termLanguages: unlimited ? null : [...new Set(termGrants.flatMap((grant) => grant.languages))],
    readable,
    conceptCreate: readable && grants.some((grant) => grant.dictionaryPermissions.includes('CONCEPT_CREATE')),
  };
}
