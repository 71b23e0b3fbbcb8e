import type { EntityManager } from '@mikro-orm/postgresql';
import { type AuditUsers, commonDto } from '../../shared/audit.js';
import { AppError, notFound } from '../../shared/errors.js';
import { newOid } from '../../shared/oid.js';
import type { Scope } from '../../shared/scope.js';
import type { Dictionary } from '../dictionary/dictionary.entity.js';
import { readableDictionary } from '../dictionary/dictionary-access.js';
import { dataCategory, isTbxCategory } from './data-categories.js';
import { Field, type FieldLevel, PicklistItem } from './field.entity.js';
import type { FieldDto, FieldInput } from './field.schema.js';
import type { FieldRules } from './field-validation.js';

const NO_TENANT = { tenant: false } as const;

/** The live fields (with picklist items) of some dictionaries, in sort order. */
export async function fieldsOf(em: EntityManager, dictionaryIds: readonly number[]) {
  if (dictionaryIds.length === 0) return { fields: [] as Field[], items: [] as PicklistItem[] };
  const fields = await em.find(
    Field,
    { dictionary: { $in: [...dictionaryIds] } },
    { orderBy: { sortIndex: 'ASC', id: 'ASC' }, filters: NO_TENANT },
  );
  const items = fields.length
    ? await em.find(
        PicklistItem,
        { field: { $in: fields.map((f) => f.id) } },
        { orderBy: { sortIndex: 'ASC', id: 'ASC' } },
      )
    : [];
  return { fields, items };
}

/** A field's model as stored: its constraints and its picklist items in order. */
export function fieldModelOf(field: Field, items: readonly PicklistItem[]) {
  return {
    required: field.required,
    minLen: field.minLen,
    maxLen: field.maxLen,
    regExp: field.regExp ?? null,
    number: field.number,
    unicode: field.unicode,
    picklistItems: items
      .filter((item) => item.field.id === field.id)
      .map((item) => ({
        id: item.id,
        oid: item.oid,
        name: item.name ?? null,
        tbxName: item.tbxName ?? null,
        sortIndex: item.sortIndex,
      })),
  };
}

export function fieldDto(field: Field, items: readonly PicklistItem[], audit: AuditUsers): FieldDto {
  const oid = field.oid ?? String(field.id);
  const model = fieldModelOf(field, items);
  return {
    ...commonDto(field, field.client.id, audit),
    name: field.name,
    specifiedName: field.specifiedName ?? null,
    dictionaryId: field.dictionary.id,
    dataCategory: field.dataCategory,
    fieldType: field.fieldType,
    level: field.level,
    sortIndex: field.sortIndex,
    model: {
      id: field.id,
      oid: field.oid ?? null,
      ...model,
      picklistItems: model.picklistItems.map((item) => ({ ...item, fieldOid: oid })),
    },
  };
}

/** What the validation of concept and term values needs of a field. */
export function fieldRules(field: Field, items: readonly PicklistItem[]): FieldRules {
  const own = items.filter((item) => item.field.id === field.id);
  return {
    oid: field.oid ?? String(field.id),
    name: field.name,
    fieldType: field.fieldType,
    required: field.required,
    minLen: field.minLen,
    maxLen: field.maxLen,
    regExp: field.regExp ?? null,
    number: field.number,
    unicode: field.unicode,
    picklistValues: own.flatMap((item) => [item.name, item.tbxName].filter((v): v is string => Boolean(v))),
  };
}

function assertModelValid(input: FieldInput, level: FieldLevel): void {
  const model = input.model;
  if (input.dataCategory !== 'GENERIC') {
    if (!isTbxCategory(input.dataCategory)) {
      throw new AppError(
        'BAD_REQUEST',
        `Field "${input.name}": ${input.dataCategory} is a system attribute, not a field`,
      );
    }
    const category = dataCategory(input.dataCategory);
    if (category && !category.levels.includes(level)) {
      throw new AppError(
        'BAD_REQUEST',
        `Field "${input.name}": ${input.dataCategory} is a ${category.levels.join('/')} level category`,
      );
    }
  }
  if (!model) return;
  if (model.minLen > 0 && model.maxLen > 0 && model.minLen > model.maxLen) {
    throw new AppError('BAD_REQUEST', `Field "${input.name}": minLen is greater than maxLen`);
  }
  if (model.regExp) {
    try {
      new RegExp(model.regExp, model.unicode ? 'u' : '');
    } catch {
      throw new AppError('BAD_REQUEST', `Field "${input.name}": invalid regular expression`);
    }
  }
  const choice = input.fieldType === 'PICKLIST' || input.fieldType === 'MULTISELECT';
  if (!choice && model.picklistItems.length > 0) {
    throw new AppError(
      'BAD_REQUEST',
      `Field "${input.name}": only PICKLIST and MULTISELECT fields have picklist items`,
    );
  }
  const values = model.picklistItems.map((item) => (item.name || item.tbxName || '').toLowerCase());
  const duplicate = values.find((value, index) => values.indexOf(value) !== index);
  if (duplicate)
    throw new AppError('BAD_REQUEST', `Field "${input.name}": picklist value "${duplicate}" is listed twice`);
}

/**
 * Makes one level's fields of a dictionary what the input lists: sent ids update, new fields get an
 * oid, missing ones are soft-deleted (their values stay stored and come back if the field is restored).
 */
export async function syncFields(
  em: EntityManager,
  dictionary: Dictionary,
  level: FieldLevel,
  inputs: readonly FieldInput[],
  actorId: number,
): Promise<void> {
  const sentIds = inputs.map((input) => input.id).filter((id): id is number => id !== undefined);
  const repeated = sentIds.find((id, index) => sentIds.indexOf(id) !== index);
  if (repeated !== undefined) throw new AppError('BAD_REQUEST', `Field ${repeated} is listed twice`);
  const { fields: all, items } = await fieldsOf(em, [dictionary.id]);
  const existing = all.filter((field) => field.level === level);
  const names = inputs.map((input) => input.name.toLowerCase());
  const duplicate = names.find((name, index) => names.indexOf(name) !== index);
  if (duplicate)
    throw new AppError('UNPROCESSABLE', `Two ${level.toLowerCase()} fields are named "${duplicate}"`);
  const tbx = inputs.map((input) => input.dataCategory).filter((c) => c !== 'GENERIC');
  const twice = tbx.find((category, index) => tbx.indexOf(category) !== index);
  if (twice) throw new AppError('UNPROCESSABLE', `Two ${level.toLowerCase()} fields stand for ${twice}`);

  const kept = new Set<number>();
  for (const [index, input] of inputs.entries()) {
    assertModelValid(input, level);
    const model = input.model;
    const values = {
      name: input.name,
      specifiedName: input.specifiedName ?? null,
      dataCategory: input.dataCategory,
      fieldType: input.fieldType,
      sortIndex: input.sortIndex ?? index,
      required: model?.required ?? false,
      minLen: model?.minLen ?? 0,
      maxLen: model?.maxLen ?? 0,
      regExp: model?.regExp || null,
      number: model?.number ?? false,
      unicode: model?.unicode ?? false,
      changedById: actorId,
    };
    let field = input.id ? existing.find((f) => f.id === input.id) : undefined;
    if (input.id && !field) {
      throw new AppError(
        'BAD_REQUEST',
        `Field ${input.id} is not a ${level.toLowerCase()} field of this dictionary`,
      );
    }
    if (field) {
      Object.assign(field, values);
      kept.add(field.id);
    } else {
      field = em.create(Field, {
        client: dictionary.client,
        dictionary,
        level,
        oid: newOid(),
        ...values,
        createdById: actorId,
      });
    }
    syncPicklist(em, field, items, model?.picklistItems ?? []);
  }
  for (const field of existing) {
    if (kept.has(field.id)) continue;
    field.deleted = true;
    field.deletedAt = new Date();
    field.deletedById = actorId;
  }
}

function syncPicklist(
  em: EntityManager,
  field: Field,
  existing: readonly PicklistItem[],
  inputs: NonNullable<FieldInput['model']>['picklistItems'],
) {
  const own = existing.filter((item) => item.field.id === field.id);
  const sentIds = inputs.map((input) => input.id).filter((id): id is number => id !== undefined);
  const twice = sentIds.find((id, index) => sentIds.indexOf(id) !== index);
  if (twice !== undefined) {
    throw new AppError('BAD_REQUEST', `Picklist item ${twice} of field "${field.name}" is listed twice`);
  }
  const kept = new Set<number>();
  for (const [index, input] of inputs.entries()) {
    const values = {
      name: input.name ?? null,
      tbxName: input.tbxName ?? null,
      sortIndex: input.sortIndex ?? index,
    };
    const item = input.id ? own.find((i) => i.id === input.id) : undefined;
    if (input.id && !item) {
      throw new AppError('BAD_REQUEST', `Picklist item ${input.id} is not an item of field "${field.name}"`);
    }
    if (item) {
      Object.assign(item, values);
      kept.add(item.id);
    } else {
      em.create(PicklistItem, { field, oid: newOid(), ...values });
    }
  }
  for (const item of own) if (!kept.has(item.id)) em.remove(item);
}

/** A live field of a dictionary the actor may read, by oid. */
export async function readableField(scope: Scope, fieldOid: string): Promise<Field> {
  const field = await scope.em.findOne(
    Field,
    { oid: fieldOid, client: scope.actor.clientId },
    { filters: NO_TENANT },
  );
  if (!field) throw notFound('Field', fieldOid);
  await readableDictionary(scope, field.dictionary.id).catch(() => {
    throw notFound('Field', fieldOid);
  });
  return field;
}

const tableOf = (level: FieldLevel) => (level === 'CONCEPT' ? 'concepts' : 'terms');

/** The next value of an INCREMENTAL field: one more than the highest value used (1 when none). */
export async function nextIncrementalValue(scope: Scope, fieldOid: string): Promise<number> {
  const field = await readableField(scope, fieldOid);
  if (field.fieldType !== 'INCREMENTAL') {
    throw new AppError('BAD_REQUEST', `Field "${field.name}" is not an incremental field`);
  }
  const [row] = await scope.em.execute<{ highest: string | null }[]>(
    `select max((field_map -> ? ->> 0)::numeric) as highest from "${tableOf(field.level)}"
     where dictionary_id = ? and not deleted and field_map -> ? ->> 0 ~ '^[0-9]+$'`,
    [fieldOid, field.dictionary.id, fieldOid],
  );
  return row?.highest ? Number(row.highest) + 1 : 1;
}

/** Whether no other concept (or term) of the dictionary holds this value of an INCREMENTAL field. */
export async function isIncrementalValueFree(
  scope: Scope,
  fieldOid: string,
  value: number,
  type: FieldLevel,
  entryId: number | undefined,
): Promise<boolean> {
  const field = await readableField(scope, fieldOid);
  if (field.fieldType !== 'INCREMENTAL') {
    throw new AppError('BAD_REQUEST', `Field "${field.name}" is not an incremental field`);
  }
  if (field.level !== type) {
    throw new AppError('BAD_REQUEST', `Field "${field.name}" is a ${field.level} field, not a ${type} field`);
  }
  const [row] = await scope.em.execute<{ used: number }[]>(
    `select count(*)::int as used from "${tableOf(field.level)}"
     where dictionary_id = ? and not deleted and field_map -> ? @> to_jsonb(?::text) and id <> ?`,
    [field.dictionary.id, fieldOid, String(value), entryId ?? 0],
  );
  return (row?.used ?? 0) === 0;
}

/**
 * Picklist values proposed from the values a text field holds today (distinct, sorted); with
 * `multivalued`, values are split at MULTIVALUED_SEPARATOR. Nothing is stored: the items are saved with
 * the dictionary when the administrator keeps them.
 */
export async function generatePicklist(scope: Scope, fieldOid: string, multivalued: boolean) {
  const field = await readableField(scope, fieldOid);
  const rows = await scope.em.execute<{ value: string }[]>(
    `select distinct jsonb_array_elements_text(field_map -> ?) as value from "${tableOf(field.level)}"
     where dictionary_id = ? and not deleted and jsonb_typeof(field_map -> ?) = 'array'`,
    [fieldOid, field.dictionary.id, fieldOid],
  );
  const separator = scope.config.MULTIVALUED_SEPARATOR;
  const values = rows.flatMap((row) => (multivalued && separator ? row.value.split(separator) : [row.value]));
  const distinct = [...new Set(values.map((value) => value.trim()).filter(Boolean))].sort((a, b) =>
    a.localeCompare(b),
  );
  return distinct.map((name, sortIndex) => ({
    id: null,
    oid: null,
    name,
    tbxName: null,
    sortIndex,
    fieldOid,
  }));
}
