/**
 * The dictionary-definition import as the spec's state machine: start (file read and checked) ->
 * process-dictionary (structure written; terminated unless filters follow) -> process-filter (filters
 * written once every user, group and field they name is found or mapped). Sessions live in PostgreSQL.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { databaseErrorToAppError } from '../../db/errors.js';
import { lowerOf } from '../../db/sql.js';
import { AppError, notFound } from '../../shared/errors.js';
import { isClientAdmin, type Scope } from '../../shared/scope.js';
import { administrableDictionary } from '../dictionary/dictionary-access.js';
import { Field, type FieldLevel } from '../field/field.entity.js';
import { Filter } from '../filter/filter.entity.js';
import { assertCriteria } from '../filter/filter.service.js';
import type { FilterCriteria } from '../filter/filter-criteria.js';
import { Group } from '../group/group.entity.js';
import { GuestUserTypes, User } from '../user/user.entity.js';
import type {
  Choice,
  DefinitionSummary,
  FilterValidationResult,
  ImportStartResult,
  NamedObject,
  ProcessFilterInput,
  ProcessResult,
} from './definition.schema.js';
import { DefinitionImport } from './definition-import.entity.js';
import { writeStructure } from './definition-structure.js';
import { type Definition, type DefinitionFilters, parseDefinitionXml } from './definition-xml.js';

const NO_TENANT = { tenant: false } as const;
/** An import not continued within an hour is dropped. */
const IMPORT_TTL_MS = 60 * 60 * 1000;
/** Open imports a user may keep; starting another drops the oldest. */
const OPEN_IMPORTS_PER_USER = 3;
/** Existing users offered for mapping, at most. */
const MAX_CHOICES = 1000;
const SKIP: Choice = { id: 0, oid: null, name: 'Skip the filters that need it', skip: true };

/** Reads and checks the file (a bad one is 400 and opens nothing), then opens the import. */
export async function startImport(scope: Scope, xml: string): Promise<ImportStartResult> {
  if (scope.actor.guest) throw new AppError('FORBIDDEN', 'Guests cannot import dictionary definitions');
  const definition = parseDefinitionXml(xml);
  const { em } = scope;
  await em.nativeDelete(DefinitionImport, { expiresAt: { $lt: new Date() } });
  const open = await em.find(
    DefinitionImport,
    { userId: scope.actor.userId },
    { orderBy: { createdAt: 'DESC' }, offset: OPEN_IMPORTS_PER_USER - 1 },
  );
  if (open.length) await em.nativeDelete(DefinitionImport, { id: { $in: open.map((i) => i.id) } });
  const session = em.create(DefinitionImport, {
    id: crypto.randomUUID(),
    clientId: scope.actor.clientId,
    userId: scope.actor.userId,
    definition,
    expiresAt: new Date(Date.now() + IMPORT_TTL_MS),
  });
  await em.flush();
  return {
    importId: session.id,
    hasFilters: definition.filters.filters.length > 0,
    success: true,
    errorMessage: null,
    summary: summaryOf(definition),
  };
}

/** What the file holds, by name: the import's confirmation step shows it before anything is written. */
function summaryOf(definition: Definition): DefinitionSummary {
  const fieldsAt = (level: 'CONCEPT' | 'TERM') =>
    definition.fields.filter((field) => field.level === level).map((field) => field.name);
  return {
    name: definition.dictionary.name,
    languages: definition.languages.map((language) => language.code),
    conceptFields: fieldsAt('CONCEPT'),
    termFields: fieldsAt('TERM'),
    sections: definition.sections.map((section) => section.name),
    domains: definition.domains.length,
    views: definition.views.map((view) => view.name),
    filters: definition.filters.filters.map((filter) => filter.name),
  };
}

/** The caller's own open import; anything else (another user's, expired, terminated) is 404. */
async function openImport(scope: Scope, importId: string): Promise<DefinitionImport> {
  const session = await scope.em.findOne(DefinitionImport, {
    id: importId,
    userId: scope.actor.userId,
    clientId: scope.actor.clientId,
    expiresAt: { $gt: new Date() },
  });
  if (!session) throw notFound('Import', importId);
  return session;
}

const terminate = (em: EntityManager, session: DefinitionImport) =>
  em.nativeDelete(DefinitionImport, { id: session.id });

/** Errors that end a run (the file does not fit the dictionary) rather than refuse the request. */
function runFailure(error: unknown): AppError | undefined {
  const appError = error instanceof AppError ? error : databaseErrorToAppError(error);
  return appError && ['BAD_REQUEST', 'UNPROCESSABLE', 'CONFLICT'].includes(appError.code)
    ? appError
    : undefined;
}

/**
 * Writes the structure into the dictionary `dictionaryId` (merge) or a new one (null), in one
 * transaction. Not allowed on the target: 403/404 and the import stays open for another try. A run that
 * fails changes nothing and terminates the import, as does success without filters to follow.
 */
export async function processDictionary(
  scope: Scope,
  importId: string,
  dictionaryId: number | null,
  includeFilters: boolean,
): Promise<ProcessResult> {
  const session = await openImport(scope, importId);
  if (session.state !== 'UPLOADED') {
    throw new AppError('BAD_REQUEST', 'The dictionary of this import is written; send process-filter');
  }
  const target = dictionaryId === null ? null : await administrableDictionary(scope, dictionaryId);
  if (!target && !isClientAdmin(scope.actor)) {
    throw new AppError('FORBIDDEN', 'Only administrators create dictionaries');
  }
  const { definition } = session;
  const result: ProcessResult = {
    importId,
    success: false,
    dictionaryNew: target === null,
    dictionaryId: null,
    addedFiltersCount: 0,
    skippedFiltersCount: 0,
    errorMessage: null,
  };
  let outcome: Awaited<ReturnType<typeof writeStructure>>;
  try {
    outcome = await scope.em.transactional((em) => writeStructure({ ...scope, em }, definition, target));
  } catch (error) {
    const failure = runFailure(error);
    if (!failure) throw error;
    await terminate(scope.em, session);
    return { ...result, dictionaryNew: false, errorMessage: failure.message };
  }
  const filtersFollow = includeFilters && definition.filters.filters.length > 0;
  if (filtersFollow) {
    await scope.em.nativeUpdate(
      DefinitionImport,
      { id: session.id },
      {
        state: 'FILTERS',
        dictionaryId: outcome.dictionaryId,
        dictionaryNew: outcome.dictionaryNew,
        oidMap: outcome.oidMap,
        expiresAt: new Date(Date.now() + IMPORT_TTL_MS),
      },
    );
  } else {
    await terminate(scope.em, session);
  }
  return {
    ...result,
    success: true,
    dictionaryNew: outcome.dictionaryNew,
    dictionaryId: outcome.dictionaryId,
    skippedFiltersCount: filtersFollow ? 0 : definition.filters.filters.length,
  };
}

/** What each reference of the filters resolves to: an id of the target, 0 (skip), or missing. */
interface Resolution {
  users: Map<string, number>;
  groups: Map<string, number>;
  /** File field oid -> target field oid, or '' to skip. */
  fields: Map<string, string>;
  missing: Pick<
    FilterValidationResult,
    'missingUsers' | 'missingGroups' | 'missingConceptFields' | 'missingTermFields'
  >;
}

/** Checks a mapping value: 0, or the id of one of `candidates`; anything else is a 400 naming it. */
function mappedId(kind: string, oid: string, value: number, candidates: ReadonlySet<number>): number {
  if (value !== 0 && !candidates.has(value)) {
    throw new AppError(
      'BAD_REQUEST',
      `${kind} mapping of ${oid}: ${value} is not one of the existing ${kind}s`,
    );
  }
  return value;
}

async function resolve(
  em: EntityManager,
  session: DefinitionImport,
  filters: DefinitionFilters,
  input: ProcessFilterInput,
): Promise<Resolution> {
  const clientId = session.clientId;
  const dictionaryId = session.dictionaryId!;
  const resolution: Resolution = {
    users: new Map(),
    groups: new Map(),
    fields: new Map(),
    missing: { missingUsers: [], missingGroups: [], missingConceptFields: [], missingTermFields: [] },
  };

  const usernames = filters.users.map((u) => u.name.toLowerCase());
  const users = usernames.length
    ? await em.find(
        User,
        { client: clientId, type: { $nin: [...GuestUserTypes] }, [lowerOf('username')]: { $in: usernames } },
        { filters: NO_TENANT },
      )
    : [];
  const mappedUsers = Object.values(input.userMapping).filter((id) => id > 0);
  const userCandidates = new Set(
    (mappedUsers.length
      ? await em.find(
          User,
          { id: { $in: mappedUsers }, client: clientId, type: { $nin: [...GuestUserTypes] } },
          { filters: NO_TENANT },
        )
      : []
    ).map((u) => u.id),
  );
  for (const ref of filters.users) {
    const mapped = input.userMapping[ref.oid];
    const found = users.find((u) => u.username.toLowerCase() === ref.name.toLowerCase());
    if (mapped !== undefined)
      resolution.users.set(ref.oid, mappedId('user', ref.oid, mapped, userCandidates));
    else if (found) resolution.users.set(ref.oid, found.id);
    else resolution.missing.missingUsers.push({ id: ref.id, oid: ref.oid, name: ref.name });
  }

  const groups = await em.find(Group, { client: clientId }, { filters: NO_TENANT });
  const groupIds = new Set(groups.map((g) => g.id));
  for (const ref of filters.groups) {
    const mapped = input.groupMapping[ref.oid];
    const found = groups.find((g) => g.name.toLowerCase() === ref.name.toLowerCase());
    if (mapped !== undefined) resolution.groups.set(ref.oid, mappedId('group', ref.oid, mapped, groupIds));
    else if (found) resolution.groups.set(ref.oid, found.id);
    else resolution.missing.missingGroups.push({ id: ref.id, oid: ref.oid, name: ref.name });
  }

  const fields = await em.find(Field, { dictionary: dictionaryId }, { filters: NO_TENANT });
  const oidMap = session.oidMap;
  const definitionFields = new Map<string, { level: FieldLevel; name: string }>([
    ...session.definition.fields.map((f) => [f.oid, f] as const),
    ...filters.fieldRefs.map((f) => [f.oid, f] as const),
  ]);
  const named = new Set(filters.filters.flatMap((f) => f.criteria.fieldConditions.map((c) => c.fieldOid)));
  for (const oid of named) {
    const known = definitionFields.get(oid);
    const level = known?.level ?? 'CONCEPT';
    const mapping = level === 'CONCEPT' ? input.conceptFieldsMapping : input.termFieldsMapping;
    const candidates = fields.filter((f) => f.level === level);
    const mapped = mapping[oid];
    if (mapped !== undefined) {
      const id = mappedId(`${level.toLowerCase()} field`, oid, mapped, new Set(candidates.map((f) => f.id)));
      const field = candidates.find((f) => f.id === id);
      resolution.fields.set(oid, field ? (field.oid ?? String(field.id)) : '');
    } else if (oidMap[oid]) {
      resolution.fields.set(oid, oidMap[oid]);
    } else {
      const entry: NamedObject = { id: null, oid, name: known?.name ?? oid };
      (level === 'CONCEPT'
        ? resolution.missing.missingConceptFields
        : resolution.missing.missingTermFields
      ).push(entry);
    }
  }
  return resolution;
}

/** The existing objects a missing one may be mapped to, after the skip option. */
async function choices(em: EntityManager, session: DefinitionImport) {
  const [users, groups, fields] = await Promise.all([
    em.find(
      User,
      { client: session.clientId, type: { $nin: [...GuestUserTypes] } },
      { orderBy: { username: 'ASC' }, limit: MAX_CHOICES, filters: NO_TENANT },
    ),
    em.find(Group, { client: session.clientId }, { orderBy: { name: 'ASC' }, filters: NO_TENANT }),
    em.find(Field, { dictionary: session.dictionaryId! }, { orderBy: { name: 'ASC' }, filters: NO_TENANT }),
  ]);
  const choice = (row: { id: number; oid?: string | null }, name: string): Choice => ({
    id: row.id,
    oid: row.oid ?? null,
    name,
    skip: false,
  });
  return {
    existingUsers: [SKIP, ...users.map((u) => choice(u, u.username))],
    existingGroups: [SKIP, ...groups.map((g) => choice(g, g.name))],
    existingConceptFields: [
      SKIP,
      ...fields.filter((f) => f.level === 'CONCEPT').map((f) => choice(f, f.name)),
    ],
    existingTermFields: [SKIP, ...fields.filter((f) => f.level === 'TERM').map((f) => choice(f, f.name))],
  };
}

/** A filter's criteria in the target's terms, or null when a reference was skipped. */
function translatedCriteria(
  criteria: FilterCriteria,
  resolution: Resolution,
  userIdOf: Map<number, string>,
  oidMap: Record<string, string>,
): FilterCriteria | null {
  const users = (ids: number[]) => ids.map((id) => resolution.users.get(userIdOf.get(id)!) ?? 0);
  const createdBy = users(criteria.createdBy);
  const changedBy = users(criteria.changedBy);
  const fieldConditions = criteria.fieldConditions.map((c) => ({
    ...c,
    fieldOid: resolution.fields.get(c.fieldOid) ?? '',
  }));
  if ([...createdBy, ...changedBy].includes(0) || fieldConditions.some((c) => c.fieldOid === '')) return null;
  return {
    ...criteria,
    createdBy,
    changedBy,
    fieldConditions,
    sectionOids: criteria.sectionOids.map((oid) => oidMap[oid] ?? oid),
    domainOids: criteria.domainOids.map((oid) => oidMap[oid] ?? oid),
  };
}

/**
 * Writes the file's filters once every user, group and field they name is found in the target (by
 * username, group name, field oid written by process-dictionary) or mapped; otherwise answers what is
 * missing and what exists, and the import stays open. Filters needing a skipped object, filters whose
 * name the owner already uses in the dictionary, and filters that no longer fit the dictionary are skipped.
 */
export async function processFilter(
  scope: Scope,
  input: ProcessFilterInput,
): Promise<ProcessResult | FilterValidationResult> {
  const importId = input['import-id'];
  const session = await openImport(scope, importId);
  if (session.state !== 'FILTERS') {
    throw new AppError('BAD_REQUEST', 'Send process-dictionary with include-filters=true first');
  }
  const dictionary = await administrableDictionary(scope, session.dictionaryId!);
  const filters = session.definition.filters;
  const resolution = await resolve(scope.em, session, filters, input);
  const missingCount = Object.values(resolution.missing).reduce((sum, list) => sum + list.length, 0);
  if (missingCount > 0) {
    return {
      importId,
      success: false,
      errorMessage: `Map or skip the ${missingCount} missing users, groups and fields`,
      ...resolution.missing,
      ...(await choices(scope.em, session)),
    };
  }
  const userIdOf = new Map(filters.users.map((u) => [u.id, u.oid]));
  let added = 0;
  let skipped = 0;
  await scope.em.transactional(async (em) => {
    const taken = new Set(
      (await em.find(Filter, { dictionary: dictionary.id }, { filters: NO_TENANT })).map(
        (f) => `${f.ownerId}:${f.name.toLowerCase()}`,
      ),
    );
    for (const filter of filters.filters) {
      const ownerId = resolution.users.get(filter.owner) ?? 0;
      const groupId = filter.visibility === 'GROUP' ? (resolution.groups.get(filter.group ?? '') ?? 0) : null;
      const criteria = translatedCriteria(filter.criteria, resolution, userIdOf, session.oidMap);
      const name = `${ownerId}:${filter.name.toLowerCase()}`;
      const fits =
        ownerId !== 0 &&
        groupId !== 0 &&
        criteria !== null &&
        !taken.has(name) &&
        (await assertCriteria(em, dictionary.id, criteria).then(
          () => true,
          () => false,
        ));
      if (!fits) {
        skipped++;
        continue;
      }
      em.create(Filter, {
        client: dictionary.client,
        dictionary,
        name: filter.name,
        description: filter.description,
        ownerId,
        visibility: filter.visibility,
        groupId,
        criteria,
        createdById: scope.actor.userId,
        changedById: scope.actor.userId,
      });
      taken.add(name);
      added++;
    }
    await em.flush();
    await terminate(em, session);
  });
  return {
    importId,
    success: true,
    dictionaryNew: session.dictionaryNew,
    dictionaryId: dictionary.id,
    addedFiltersCount: added,
    skippedFiltersCount: skipped,
    errorMessage: null,
  };
}
