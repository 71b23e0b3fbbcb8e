/**
 * The one place that answers "may this actor do X in this dictionary / section / concept?". Roles come
 * first (system and client administrators and the dictionary's administrators may do everything); other
 * users get the union of what the permission scheme grants to their groups. A section without a scheme
 * uses its dictionary's; a dictionary without one lets named users read, print and export.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { notFound } from '../../shared/errors.js';
import { type Actor, isClientAdmin, type Scope } from '../../shared/scope.js';
import { Dictionary } from '../dictionary/dictionary.entity.js';
import { Group } from '../group/group.entity.js';
import { effectiveGroups } from '../group/group.service.js';
import {
  type ConceptPermission,
  ConceptPermissionValues,
  type DictionaryPermission,
  DictionaryPermissionValues,
  type PermissionGrant,
  type PermissionScheme,
  type TermPermission,
  TermPermissionValues,
} from '../permission/permission-scheme.entity.js';
import type { DictionaryPermissionsDto } from '../permission/permission-scheme.schema.js';
import { dictionaryAdminRole } from '../role/role.service.js';
import { Section } from '../section/section.entity.js';

const NO_TENANT = { tenant: false } as const;

/** What a dictionary without a scheme allows named users (the All users group). */
const DEFAULT_GRANT: Omit<PermissionGrant, 'groupId'> = {
  dictionaryPermissions: ['DICT_READ', 'CONCEPT_PRINT', 'CONCEPT_EXPORT'],
  conceptPermissions: ['CONCEPT_PRINT', 'CONCEPT_VIEW_HISTORY'],
  termPermissions: [],
  languages: [],
};

/** The actor's groups in the acting client, resolved once per request. */
export interface AccessSubject {
  actor: Actor;
  groupIds: ReadonlySet<number>;
  allUsersGroupId: number | null;
  ownerGroupId: number | null;
}

const subjects = new WeakMap<Scope, Promise<AccessSubject>>();

async function resolveSubject(em: EntityManager, actor: Actor): Promise<AccessSubject> {
  const groups = await effectiveGroups(em, actor.clientId, { id: actor.userId, guest: actor.guest });
  const owner = await em.findOne(Group, { client: actor.clientId, type: 'OWNER' }, { filters: NO_TENANT });
  return {
    actor,
    groupIds: new Set(groups.map((group) => group.id)),
    allUsersGroupId: groups.find((group) => group.type === 'ALL_USERS')?.id ?? null,
    ownerGroupId: owner?.id ?? null,
  };
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
  scheme: PermissionScheme | null | undefined,
  isOwner: boolean,
): Omit<PermissionGrant, 'groupId'>[] {
  if (!scheme) {
    return subject.allUsersGroupId !== null ? [DEFAULT_GRANT] : [];
  }
  return scheme.grants.filter(
    (grant) => subject.groupIds.has(grant.groupId) || (isOwner && grant.groupId === subject.ownerGroupId),
  );
}

function flags<K extends string>(values: readonly K[], granted: (value: K) => boolean): Record<K, boolean> {
  return Object.fromEntries(values.map((value) => [value, granted(value)])) as Record<K, boolean>;
}

const CONCEPT_LEVEL = DictionaryPermissionValues.filter((value) => value.startsWith('CONCEPT_'));

async function loadDictionaries(scope: Scope, ids: readonly number[]) {
  const dictionaries = await scope.em.find(
    Dictionary,
    { id: { $in: [...ids] }, client: scope.actor.clientId },
    { populate: ['permissionScheme'], filters: NO_TENANT },
  );
  const missing = ids.find((id) => !dictionaries.some((dictionary) => dictionary.id === id));
  if (missing !== undefined) throw notFound('Dictionary', missing);
  const sections = await scope.em.find(
    Section,
    { dictionary: { $in: [...ids] } },
    { populate: ['permissionScheme'], filters: NO_TENANT, orderBy: { id: 'ASC' } },
  );
  return { dictionaries, sections };
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

async function dictionaryAccess(scope: Scope, dictionaryIds: readonly number[]) {
  const subject = await accessSubject(scope);
  const { dictionaries, sections } = await loadDictionaries(scope, dictionaryIds);
  const readableSections = new Set<number>();
  const permissions = dictionaryIds.map((id) => {
    const dictionary = dictionaries.find((d) => d.id === id)!;
    const admin = isDictionaryAdmin(scope.actor, dictionary);
    const dictionaryScheme = dictionary.permissionScheme?.getEntity() ?? null;
    const atDictionary = new Set(
      grantsFor(subject, dictionaryScheme, false).flatMap((grant) => grant.dictionaryPermissions),
    );
    const sectionPermissions: Record<string, Record<string, boolean>> = {};
    const sectionOidPermissions: Record<string, Record<string, boolean>> = {};
    const inSomeSection = new Set<DictionaryPermission>();
    for (const section of sections.filter((s) => s.dictionary.id === id)) {
      const scheme = section.permissionScheme?.getEntity() ?? dictionaryScheme;
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
  return { permissions, readableSections };
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
  const sections = await scope.em.find(
    Section,
    { id: { $in: sectionIds }, client: scope.actor.clientId },
    { populate: ['permissionScheme', 'dictionary.permissionScheme'], filters: NO_TENANT },
  );
  const byId = new Map(sections.map((section) => [section.id, section]));
  const missing = sectionIds.find((id) => !byId.has(id));
  if (missing !== undefined) throw notFound('Section', missing);
  const needsSubject = sections.some((s) => !isDictionaryAdmin(scope.actor, s.dictionary.getEntity()));
  const subject = needsSubject ? await accessSubject(scope) : null;
  const memo = new Map<string, ConceptAccess>();
  return entries.map(({ sectionId, ownerId }) => {
    const isOwner = ownerId !== null && ownerId === scope.actor.userId;
    const key = `${sectionId}:${isOwner}`;
    let access = memo.get(key);
    if (!access) {
      access = sectionAccess(scope.actor, subject, byId.get(sectionId)!, isOwner);
      memo.set(key, access);
    }
    return access;
  });
}

function sectionAccess(
  actor: Actor,
  subject: AccessSubject | null,
  section: Section,
  isOwner: boolean,
): ConceptAccess {
  const dictionary = section.dictionary.getEntity();
  if (isDictionaryAdmin(actor, dictionary) || !subject) {
    return {
      concept: flags(ConceptPermissionValues, () => true),
      term: flags(TermPermissionValues, () => true),
      termLanguages: null,
      readable: true,
      conceptCreate: true,
    };
  }
  const scheme = section.permissionScheme?.getEntity() ?? dictionary.permissionScheme?.getEntity() ?? null;
  const grants = grantsFor(subject, scheme, isOwner);
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
