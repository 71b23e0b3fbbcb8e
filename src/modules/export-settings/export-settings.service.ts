import type { FilterQuery } from '@mikro-orm/postgresql';
import { commonDto, loadAuditUsers } from '../../shared/audit.js';
import { notFound } from '../../shared/errors.js';
import { applyFormat, type Format } from '../../shared/format.js';
import { AUDIT_SORTS, type ListSpec, listCalls, listedClientId, nameWhere } from '../../shared/listing.js';
import { deletedFilter, isClientAdmin, type Scope } from '../../shared/scope.js';
import { Dictionary } from '../dictionary/dictionary.entity.js';
import { readableDictionaryIds } from '../dictionary/dictionary-access.js';
import { ExportSettings } from './export-settings.entity.js';
import {
  EXPORT_SHORT_KEYS,
  type ExportSettingsDto,
  type ExportSettingsListInput,
} from './export-settings.schema.js';

const NO_TENANT = { tenant: false } as const;
const spec: ListSpec<ExportSettings, 'name' | 'createdAt' | 'changedAt'> = {
  entity: ExportSettings,
  sortable: { name: 'name', ...AUDIT_SORTS },
  fallbackSort: 'name',
  filters: NO_TENANT,
};

async function render(scope: Scope, rows: readonly ExportSettings[], format: Format) {
  if (format === 'ID') return rows.map((row) => ({ id: row.id }));
  const audit = await loadAuditUsers(scope.em, rows);
  return rows.map((row) => {
    const dto: ExportSettingsDto = {
      ...commonDto(row, row.client.id, audit),
      name: row.name,
      dictionaryId: row.dictionary.id,
      visibility: row.visibility,
      userId: row.userId ?? null,
      fileFormat: row.fileFormat,
      fileName: row.fileName ?? null,
      exportPermalinks: row.exportPermalinks,
      exportAttachments: row.exportAttachments,
      exportOneSheet: row.exportOneSheet,
      filterId: row.filterId ?? null,
      selectedLanguages: row.selectedLanguages,
      selectedConceptFields: row.selectedConceptFields,
      selectedTermFields: row.selectedTermFields,
      orderTermByField: row.orderTermByField ?? null,
      neverLaunched: row.neverLaunched,
    };
    return applyFormat(dto, format, EXPORT_SHORT_KEYS);
  });
}

/** Own and public settings of readable dictionaries; administrators see all of the client. */
async function visibleWhere(scope: Scope, clientId: number): Promise<FilterQuery<ExportSettings>> {
  if (isClientAdmin(scope.actor)) return { client: clientId };
  const dictionaries = await scope.em.find(Dictionary, { client: clientId }, { filters: NO_TENANT });
  return {
    client: clientId,
    dictionary: { $in: [...(await readableDictionaryIds(scope, dictionaries))] },
    $or: [{ userId: scope.actor.userId }, { visibility: 'PUBLIC' }],
  };
}

async function listWhere(scope: Scope, input: ExportSettingsListInput) {
  const clientId = listedClientId(scope, input.client_id);
  if (clientId === null) return null;
  const where: FilterQuery<ExportSettings>[] = [await visibleWhere(scope, clientId)];
  if (input['dictionary-id'] !== undefined) where.push({ dictionary: input['dictionary-id'] });
  where.push(...nameWhere<ExportSettings>(input));
  return { $and: where };
}

const listing = listCalls(spec, listWhere, render);
export const listExportSettings = listing.list;
export const exportSettingsRownum = listing.rownum;

export async function getExportSettings(scope: Scope, id: number, format: Format, includeDeleted: boolean) {
  const row = await scope.em.findOne(
    ExportSettings,
    { $and: [{ id }, await visibleWhere(scope, scope.actor.clientId)] },
    { filters: { ...NO_TENANT, ...deletedFilter(scope, includeDeleted) } },
  );
  if (!row) throw notFound('Export settings', id);
  const [dto] = await render(scope, [row], format);
  return dto!;
}
