import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { lowerOf } from '../../db/sql.js';
import { commonDto, loadAuditUsers } from '../../shared/audit.js';
import { AppError, notFound } from '../../shared/errors.js';
import { applyFormat, type Format } from '../../shared/format.js';
import {
  AUDIT_SORTS,
  type ListSpec,
  listCalls,
  listedClientId,
  markDeleted,
  nameWhere,
} from '../../shared/listing.js';
import { assertNotGuest, deletedFilter, isClientAdmin, type Scope } from '../../shared/scope.js';
import { assertVersion } from '../../shared/versioning.js';
import {
  administrableDictionary,
  readableDictionariesWhere,
  readableDictionary,
} from '../dictionary/dictionary-access.js';
import type { FilterDto } from '../filter/filter.schema.js';
import { getFilter } from '../filter/filter.service.js';
import { Group } from '../group/group.entity.js';
import { runForEachAsJob } from '../jobs/job-runner.js';
import { languagesOf } from '../language/language.service.js';
import { languageKey } from '../stemming/language-codes.js';
import { type GroupMapping, type LangMapping, SyncSettings } from './sync-settings.entity.js';
import {
  type LangMappingInput,
  SYNC_SETTINGS_SHORT_KEYS,
  type SyncSettingsCreateInput,
  type SyncSettingsDto,
  type SyncSettingsListInput,
  type SyncSettingsPatchInput,
} from './sync-settings.schema.js';

const NO_TENANT = { tenant: false } as const;
const WHAT = 'Synchronization settings';
const spec: ListSpec<SyncSettings, 'name' | 'createdAt' | 'changedAt'> = {
  entity: SyncSettings,
  sortable: { name: 'name', ...AUDIT_SORTS },
  fallbackSort: 'name',
  filters: NO_TENANT,
};

function assertMayManage(scope: Scope): void {
  if (!isClientAdmin(scope.actor)) {
    throw new AppError('FORBIDDEN', 'Only administrators manage synchronization settings');
  }
}

/** Guests never read them: the settings name the client's groups (see assertNotGuest). */
const assertMayRead = (scope: Scope) => assertNotGuest(scope, 'synchronization settings');

type FilterOut = NonNullable<SyncSettingsDto['filter']>;

/**
 * The filters named by a page of settings, through the filter module's own reading (so its visibility
 * rules hold): what the caller may see in short form plus `deleted`, otherwise only the id.
 */
async function filtersOf(scope: Scope, ids: readonly number[]): Promise<Map<number, FilterOut>> {
  const found = new Map<number, FilterOut>();
  for (const id of new Set(ids)) {
    try {
      const filter = (await getFilter(scope, id, 'FULL', true)) as FilterDto;
      found.set(id, {
        id,
        name: filter.name,
        description: filter.description,
        dictionaryId: filter.dictionaryId,
        deleted: filter.deleted,
      });
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'NOT_FOUND')) throw error;
      found.set(id, { id });
    }
  }
  return found;
}

async function render(scope: Scope, rows: readonly SyncSettings[], format: Format) {
  if (format === 'ID') return rows.map((row) => ({ id: row.id }));
  const [audit, filters] = await Promise.all([
    loadAuditUsers(scope.em, rows),
    format === 'SHORT'
      ? new Map<number, FilterOut>()
      : filtersOf(
          scope,
          rows.flatMap((row) => (row.filterId ? [row.filterId] : [])),
        ),
  ]);
  return rows.map((row) => {
    const dto: SyncSettingsDto = {
      ...commonDto(row, row.client.id, audit),
      name: row.name,
      description: row.description ?? null,
      active: row.active,
      dictionaryId: row.dictionary.id,
      languages: row.languages,
      groups: row.groups,
      filter: row.filterId ? (filters.get(row.filterId) ?? { id: row.filterId }) : null,
    };
    return applyFormat(dto, format, SYNC_SETTINGS_SHORT_KEYS);
  });
}

async function listWhere(
  scope: Scope,
  input: SyncSettingsListInput,
): Promise<FilterQuery<SyncSettings> | null> {
  assertMayRead(scope);
  const clientId = listedClientId(scope, input.client_id);
  if (clientId === null) return null;
  const where: FilterQuery<SyncSettings>[] = [{ client: clientId }];
  if (input['dictionary-id'] !== undefined) where.push({ dictionary: input['dictionary-id'] });
  where.push(...nameWhere<SyncSettings>(input));
  if (input.active !== undefined) where.push({ active: input.active });
  where.push(...(await readableDictionariesWhere(scope, clientId)));
  return { $and: where };
}

const listing = listCalls(spec, listWhere, render);
export const listSyncSettings = listing.list;
export const syncSettingsRownum = listing.rownum;

/** Settings of the client the caller acts in; another client's are 404 whoever asks. */
async function findSettings(scope: Scope, id: number, em: EntityManager = scope.em, includeDeleted = false) {
  const settings = await em.findOne(
    SyncSettings,
    { id, client: scope.actor.clientId },
    { filters: { ...NO_TENANT, ...deletedFilter(scope, includeDeleted) } },
  );
  if (!settings) throw notFound(WHAT, id);
  return settings;
}

export async function getSyncSettings(scope: Scope, id: number, format: Format, includeDeleted: boolean) {
  assertMayRead(scope);
  const settings = await findSettings(scope, id, scope.em, includeDeleted);
  // Administrators read every setting of the client; others only those of dictionaries they may read.
  if (!isClientAdmin(scope.actor)) {
    await readableDictionary(scope, settings.dictionary.id).catch(() => {
      throw notFound(WHAT, id);
    });
  }
  const [dto] = await render(scope, [settings], format);
  return dto!;
}

/** A dictionary of the client the caller acts in (system administrators could otherwise name any). */
async function dictionaryOfClient(scope: Scope, id: number) {
  const dictionary = await administrableDictionary(scope, id, { em: scope.em });
  if (dictionary.client.id !== scope.actor.clientId) throw notFound('Dictionary', id);
  return dictionary;
}

async function assertNameFree(em: EntityManager, clientId: number, name: string, exceptId?: number) {
  const clash = await em.findOne(
    SyncSettings,
    {
      client: clientId,
      [lowerOf('name')]: name.toLowerCase(),
      ...(exceptId ? { id: { $ne: exceptId } } : {}),
    },
    { filters: NO_TENANT },
  );
  if (clash) {
    throw new AppError(
      'UNPROCESSABLE',
      `Synchronization settings named "${name}" already exist in the client`,
    );
  }
}

const mappingLabel = (entry: LangMappingInput | LangMapping) =>
  [entry.langCode, entry.regionCode ?? '', entry.scriptCode ?? ''].join(';').replace(/;+$/, '');

/**
 * Each entry names a live language of the dictionary and, optionally, a region (type 0) and a script
 * (type 1) variant of that language; codes are matched ignoring case and stored as the dictionary spells
 * them. One language-region-script combination may be listed once.
 */
async function resolveLanguages(
  em: EntityManager,
  dictionaryId: number,
  sent: readonly (LangMappingInput | LangMapping)[],
): Promise<LangMapping[]> {
  const { languages, variants } = await languagesOf(em, [dictionaryId]);
  const resolved: LangMapping[] = [];
  const seen = new Set<string>();
  for (const entry of sent) {
    const label = mappingLabel(entry);
    // The one rule of language codes: en, ENG and eng name the dictionary's eng.
    const language = languages.find((l) => l.code.toLowerCase() === languageKey(entry.langCode));
    if (!language) {
      throw new AppError(
        'BAD_REQUEST',
        `Language mapping "${label}": "${entry.langCode}" is not a language of dictionary ${dictionaryId}`,
      );
    }
    const variant = (type: 0 | 1, code: string | null | undefined) => {
      if (!code) return null;
      const found = variants.find(
        (v) =>
          v.language.id === language.id && v.type === type && v.code.toLowerCase() === code.toLowerCase(),
      );
      if (!found) {
        throw new AppError(
          'BAD_REQUEST',
          `Language mapping "${label}": "${code}" is not a ${type === 0 ? 'region' : 'script'} variant of language "${language.code}" in dictionary ${dictionaryId}`,
        );
      }
      return found.code;
    };
    const mapping: LangMapping = {
      langCode: language.code,
      regionCode: variant(0, entry.regionCode),
      scriptCode: variant(1, entry.scriptCode),
    };
    const key = mappingLabel(mapping).toLowerCase();
    if (seen.has(key)) throw new AppError('BAD_REQUEST', `Language mapping "${label}" is listed twice`);
    seen.add(key);
    resolved.push(mapping);
  }
  return resolved;
}

/** Live groups of the client, each once; the Owner group stands for no users, so it cannot be mapped. */
async function resolveGroups(
  em: EntityManager,
  clientId: number,
  sent: readonly GroupMapping[],
): Promise<GroupMapping[]> {
  const ids = sent.map((mapping) => mapping.groupId);
  const twice = ids.find((id, index) => ids.indexOf(id) !== index);
  if (twice !== undefined) throw new AppError('BAD_REQUEST', `Group ${twice} is listed twice`);
  if (ids.length === 0) return [];
  const found = await em.find(
    Group,
    { id: { $in: ids }, client: clientId, type: { $ne: 'OWNER' } },
    { fields: ['id'], filters: NO_TENANT },
  );
  const missing = ids.filter((id) => !found.some((group) => group.id === id));
  if (missing.length) {
    throw new AppError('BAD_REQUEST', `Not groups of the client: ${missing.join(', ')}`);
  }
  return ids.map((groupId) => ({ groupId }));
}

/** A filter of the dictionary that the caller may see (filter module rules); otherwise 400. */
async function assertFilter(scope: Scope, filterId: number, dictionaryId: number): Promise<void> {
  const filter = await getFilter(scope, filterId, 'SHORT', false).then(
    (dto) => dto as Partial<FilterDto>,
    (error: unknown) => {
      if (error instanceof AppError && error.code === 'NOT_FOUND') return null;
      throw error;
    },
  );
  if (!filter || filter.dictionaryId !== dictionaryId) {
    throw new AppError(
      'BAD_REQUEST',
      `Filter ${filterId} is not a filter of dictionary ${dictionaryId} that you may see`,
    );
  }
}

type SyncSettingsWrite = SyncSettingsCreateInput | SyncSettingsPatchInput;

/** The filter sent as filterId or as filter {id}: undefined when neither is sent, null to clear. */
function sentFilterId(input: SyncSettingsWrite): number | null | undefined {
  const fromObject = input.filter === undefined ? undefined : (input.filter?.id ?? null);
  if (input.filterId !== undefined && fromObject !== undefined && input.filterId !== fromObject) {
    throw new AppError('BAD_REQUEST', 'filterId and filter.id name different filters');
  }
  return input.filterId !== undefined ? input.filterId : fromObject;
}

/**
 * Applies the writable attributes: on a full update (and on create) missing or null attributes take their
 * default; on a partial one missing attributes stay and null clears. Languages and the filter are checked
 * against the dictionary whenever they or the dictionary change.
 */
async function applyAttributes(
  scope: Scope,
  row: SyncSettings,
  input: SyncSettingsWrite,
  partial: boolean,
  dictionaryChanged: boolean,
) {
  const dictionaryId = row.dictionary.id;
  const sends = (key: keyof SyncSettingsWrite) => !partial || input[key] !== undefined;
  if (input.name !== undefined) row.name = input.name;
  if (sends('description')) row.description = input.description ?? null;
  if (sends('active')) row.active = input.active ?? true;
  if (sends('languages') || dictionaryChanged) {
    const languages = sends('languages') ? (input.languages ?? []) : row.languages;
    row.languages = await resolveLanguages(scope.em, dictionaryId, languages);
  }
  if (sends('groups')) row.groups = await resolveGroups(scope.em, row.client.id, input.groups ?? []);
  const filterId = sentFilterId(input);
  if (!partial || filterId !== undefined || dictionaryChanged) {
    const wanted = !partial || filterId !== undefined ? (filterId ?? null) : (row.filterId ?? null);
    if (wanted !== null) await assertFilter(scope, wanted, dictionaryId);
    row.filterId = wanted;
  }
}

export async function createSyncSettings(scope: Scope, input: SyncSettingsCreateInput) {
  assertMayManage(scope);
  const id = await scope.em.transactional(async (em) => {
    const tx = { ...scope, em };
    const dictionary = await dictionaryOfClient(tx, input.dictionaryId);
    await assertNameFree(em, scope.actor.clientId, input.name);
    const row = em.create(SyncSettings, {
      client: dictionary.client,
      dictionary,
      name: input.name,
      createdById: scope.actor.userId,
      changedById: scope.actor.userId,
    });
    await applyAttributes(tx, row, input, false, true);
    await em.flush();
    return row.id;
  });
  scope.em.clear();
  return getSyncSettings(scope, id, input.format, false);
}

export async function updateSyncSettings(scope: Scope, input: SyncSettingsPatchInput, partial: boolean) {
  assertMayManage(scope);
  await scope.em.transactional(async (em) => {
    const tx = { ...scope, em };
    const row = await findSettings(tx, input.id, em);
    assertVersion(row, input.version, WHAT);
    const dictionaryChanged = input.dictionaryId !== undefined && input.dictionaryId !== row.dictionary.id;
    if (dictionaryChanged) {
      row.dictionary = (await dictionaryOfClient(tx, input.dictionaryId!)) as never;
    }
    if (input.name !== undefined && input.name.toLowerCase() !== row.name.toLowerCase()) {
      await assertNameFree(em, row.client.id, input.name, row.id);
    }
    await applyAttributes(tx, row, input, partial, dictionaryChanged);
    row.changedById = scope.actor.userId;
  });
  scope.em.clear();
  return getSyncSettings(scope, input.id, input.format, false);
}

async function softDelete(scope: Scope, id: number) {
  assertMayManage(scope);
  const row = await findSettings(scope, id);
  markDeleted(row, scope.actor.userId);
}

export async function deleteSyncSettings(scope: Scope, id: number): Promise<void> {
  await scope.em.transactional((em) => softDelete({ ...scope, em }, id));
}

export function deleteSyncSettingsAsync(scope: Scope, ids: number[]) {
  assertMayManage(scope);
  return runForEachAsJob(scope, 'sync-settings.delete', ids, softDelete);
}
