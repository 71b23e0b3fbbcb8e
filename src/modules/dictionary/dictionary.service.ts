import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { lowerOf } from '../../db/sql.js';
import { commonDto, loadAuditUsers } from '../../shared/audit.js';
import { AppError } from '../../shared/errors.js';
import { applyFormat, type Format } from '../../shared/format.js';
import {
  AUDIT_SORTS,
  findPage,
  type ListSpec,
  listedClientId,
  markDeleted,
  nameWhere,
  rownumOf,
} from '../../shared/listing.js';
import { newOid } from '../../shared/oid.js';
import { isClientAdmin, type Scope } from '../../shared/scope.js';
import { assertVersion } from '../../shared/versioning.js';
import { isDictionaryAdmin, readableSectionIds } from '../access/access.service.js';
import { Client } from '../client/client.entity.js';
import { recordDictionaryEvent } from '../events/structure-events.js';
import { fieldDto, fieldsOf, syncFields } from '../field/field.service.js';
import { languageDto, languagesOf, syncLanguages } from '../language/language.service.js';
import { PermissionScheme } from '../permission/permission-scheme.entity.js';
import { Section } from '../section/section.entity.js';
import { conceptCountsBySection, sectionCountsByDictionary, sectionDto } from '../section/section-counts.js';
import { User } from '../user/user.entity.js';
import { Dictionary } from './dictionary.entity.js';
import {
  DICTIONARY_SHORT_KEYS,
  type DictionaryCreateInput,
  type DictionaryDto,
  type DictionaryListInput,
  type DictionaryUpdateInput,
} from './dictionary.schema.js';
import { administrableDictionary, readableDictionary, readableDictionaryIds } from './dictionary-access.js';

const NO_TENANT = { tenant: false } as const;
const spec: ListSpec<Dictionary, 'name' | 'sortIndex' | 'createdAt' | 'changedAt'> = {
  entity: Dictionary,
  sortable: {
    name: 'name',
    sortIndex: 'sortIndex',
    ...AUDIT_SORTS,
  },
  fallbackSort: 'sortIndex',
  filters: NO_TENANT,
};

/** Renders dictionaries with their structure in a fixed number of queries, whatever the page size. */
export async function renderDictionaries(
  scope: Scope,
  dictionaries: readonly Dictionary[],
  format: Format,
): Promise<(Partial<DictionaryDto> & { id: number })[]> {
  if (format === 'ID' || dictionaries.length === 0) return dictionaries.map((d) => ({ id: d.id }));
  if (format === 'SHORT') {
    return dictionaries.map((d) => ({ id: d.id, name: d.name, description: d.description ?? null }));
  }
  const em = scope.em;
  const ids = dictionaries.map((d) => d.id);
  const sections = await em.find(
    Section,
    { dictionary: { $in: ids } },
    { orderBy: { sortIndex: 'ASC', id: 'ASC' }, filters: NO_TENANT },
  );
  const [{ languages, variants }, { fields, items }, conceptCounts, sectionCounts, domainRows] =
    await Promise.all([
      languagesOf(em, ids),
      fieldsOf(em, ids),
      conceptCountsBySection(
        em,
        sections.map((s) => s.id),
      ),
      sectionCountsByDictionary(em, ids),
      em.execute<{ dictionary_id: number }[]>(
        'select distinct dictionary_id from domains where dictionary_id in (?) and not deleted',
        [ids],
      ),
    ]);
  const ownClient = dictionaries.filter(
    (d) => d.client.id === scope.actor.clientId && !isDictionaryAdmin(scope.actor, d),
  );
  const readable = ownClient.length
    ? await readableSectionIds(
        scope,
        ownClient.map((d) => d.id),
      )
    : new Set<number>();
  const audit = await loadAuditUsers(em, [...dictionaries, ...sections, ...fields]);
  const withDomains = new Set(domainRows.map((row) => row.dictionary_id));
  return dictionaries.map((dictionary) => {
    const own = sections.filter((s) => s.dictionary.id === dictionary.id);
    const sectionDtos = own.map((s) => sectionDto(s, audit, conceptCounts, sectionCounts));
    const admin = isDictionaryAdmin(scope.actor, dictionary);
    const ownFields = fields.filter((f) => f.dictionary.id === dictionary.id);
    const dto: DictionaryDto = {
      ...commonDto(dictionary, dictionary.client.id, audit),
      name: dictionary.name,
      description: dictionary.description ?? null,
      sections: sectionDtos.filter((s) => admin || readable.has(s.id)),
      allSections: sectionDtos,
      languages: languages
        .filter((l) => l.dictionary.id === dictionary.id)
        .map((l) => languageDto(l, variants)),
      conceptFields: ownFields.filter((f) => f.level === 'CONCEPT').map((f) => fieldDto(f, items, audit)),
      termFields: ownFields.filter((f) => f.level === 'TERM').map((f) => fieldDto(f, items, audit)),
      emailRecipientId: dictionary.emailRecipientId ?? null,
      sortIndex: dictionary.sortIndex,
      concepts: own.reduce((sum, s) => sum + (conceptCounts.get(s.id) ?? 0), 0),
      hasDomains: withDomains.has(dictionary.id),
      domainPresentation: dictionary.domainPresentation,
      layoutId: null,
      permissionSchemeId: dictionary.permissionScheme?.id ?? null,
    };
    return applyFormat(dto, format, DICTIONARY_SHORT_KEYS);
  });
}

/** The list's where: the client, the name filters, and for non-administrators the readable dictionaries. */
async function listWhere(scope: Scope, input: DictionaryListInput): Promise<FilterQuery<Dictionary> | null> {
  const clientId = listedClientId(scope, input.client_id);
  if (clientId === null) return null;
  const where: FilterQuery<Dictionary>[] = [{ client: clientId }];
  where.push(...nameWhere<Dictionary>(input));
  if (!isClientAdmin(scope.actor)) {
    const candidates = await scope.em.find(Dictionary, { client: clientId }, { filters: NO_TENANT });
    where.push({ id: { $in: [...(await readableDictionaryIds(scope, candidates))] } });
  }
  return { $and: where };
}

export async function listDictionaries(scope: Scope, input: DictionaryListInput) {
  return findPage(scope, spec, await listWhere(scope, input), input, (rows) =>
    renderDictionaries(scope, rows, input.format),
  );
}

export async function dictionaryRownum(scope: Scope, id: number, input: DictionaryListInput) {
  return rownumOf(scope, spec, await listWhere(scope, input), input, id);
}

export async function getDictionary(scope: Scope, id: number, format: Format, includeDeleted: boolean) {
  const dictionary = await readableDictionary(scope, id, { includeDeleted });
  const [dto] = await renderDictionaries(scope, [dictionary], format);
  return dto!;
}

async function assertNameFree(em: EntityManager, clientId: number, name: string, exceptId?: number) {
  const clash = await em.findOne(
    Dictionary,
    {
      client: clientId,
      [lowerOf('name')]: name.toLowerCase(),
      ...(exceptId ? { id: { $ne: exceptId } } : {}),
    },
    { filters: NO_TENANT },
  );
  if (clash) throw new AppError('UNPROCESSABLE', `A dictionary named "${name}" already exists`);
}

/** References sent by id must be live objects of the dictionary's client. */
async function assertReferences(
  em: EntityManager,
  clientId: number,
  input: Pick<DictionaryCreateInput, 'permissionSchemeId' | 'emailRecipientId'>,
) {
  if (input.permissionSchemeId != null) {
    const scheme = await em.findOne(
      PermissionScheme,
      { id: input.permissionSchemeId, client: clientId },
      { filters: NO_TENANT },
    );
    if (!scheme)
      throw new AppError('BAD_REQUEST', `Permission scheme ${input.permissionSchemeId} does not exist`);
  }
  if (input.emailRecipientId != null) {
    const user = await em.findOne(
      User,
      { id: input.emailRecipientId, client: clientId },
      { filters: NO_TENANT },
    );
    if (!user) throw new AppError('BAD_REQUEST', `User ${input.emailRecipientId} does not exist`);
  }
}

async function applyStructure(
  em: EntityManager,
  dictionary: Dictionary,
  input: DictionaryCreateInput,
  actorId: number,
) {
  await syncLanguages(em, dictionary, input.languages ?? [], actorId);
  await syncFields(em, dictionary, 'CONCEPT', input.conceptFields ?? [], actorId);
  await syncFields(em, dictionary, 'TERM', input.termFields ?? [], actorId);
}

/** Client administrators create dictionaries; a new dictionary gets one section named like it. */
export async function createDictionary(scope: Scope, input: DictionaryCreateInput) {
  if (!isClientAdmin(scope.actor)) throw new AppError('FORBIDDEN', 'Only administrators create dictionaries');
  const clientId = scope.actor.clientId;
  const id = await scope.em.transactional(async (em) => {
    await assertNameFree(em, clientId, input.name);
    await assertReferences(em, clientId, input);
    const client = em.getReference(Client, clientId);
    const dictionary = em.create(Dictionary, {
      client,
      oid: newOid(),
      name: input.name,
      description: input.description ?? null,
      emailRecipientId: input.emailRecipientId ?? null,
      sortIndex: input.sortIndex ?? 0,
      domainPresentation: input.domainPresentation ?? 'FLAT',
      permissionScheme: input.permissionSchemeId ?? null,
      createdById: scope.actor.userId,
      changedById: scope.actor.userId,
    });
    em.create(Section, {
      client,
      dictionary,
      oid: newOid(),
      name: input.name,
      createdById: scope.actor.userId,
      changedById: scope.actor.userId,
    });
    await em.flush();
    await applyStructure(em, dictionary, input, scope.actor.userId);
    await recordDictionaryEvent(em, scope, 'dictionary.created', dictionary.id);
    return dictionary.id;
  });
  scope.em.clear();
  return getDictionary(scope, id, input.format, false);
}

/** The full update of the generic pattern: languages and fields are made what the request lists. */
export async function updateDictionary(scope: Scope, input: DictionaryUpdateInput) {
  await scope.em.transactional(async (em) => {
    const dictionary = await administrableDictionary(scope, input.id, { em });
    assertVersion(dictionary, input.version, 'Dictionary');
    if (input.name.toLowerCase() !== dictionary.name.toLowerCase()) {
      await assertNameFree(em, dictionary.client.id, input.name, dictionary.id);
    }
    await assertReferences(em, dictionary.client.id, input);
    Object.assign(dictionary, {
      name: input.name,
      description: input.description ?? null,
      emailRecipientId: input.emailRecipientId ?? null,
      sortIndex: input.sortIndex ?? 0,
      domainPresentation: input.domainPresentation ?? 'FLAT',
      permissionScheme: input.permissionSchemeId ?? null,
      // The dictionary's own update also moves its version when only languages or fields changed.
      structureChangedAt: new Date(),
      changedById: scope.actor.userId,
    });
    // Changed before the structure is synced: its flushes write the row once, so the version moves by one.
    await applyStructure(em, dictionary, input, scope.actor.userId);
    await recordDictionaryEvent(em, scope, 'dictionary.updated', dictionary.id);
  });
  scope.em.clear();
  return getDictionary(scope, input.id, input.format, false);
}

/** Soft-deletes a dictionary (administrators, or DICT_DELETE); its content stays for include-deleted reads. */
export async function deleteDictionary(scope: Scope, id: number): Promise<void> {
  await scope.em.transactional(async (em) => {
    const dictionary = await administrableDictionary(scope, id, { em, permission: 'DICT_DELETE' });
    markDeleted(dictionary, scope.actor.userId);
    await recordDictionaryEvent(em, scope, 'dictionary.deleted', dictionary.id);
  });
}
