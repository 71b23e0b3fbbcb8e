/**
 * Display fields: stored values prepared for showing (picklist items by name, dates as yyyy-MM-dd,
 * several values joined), with the caller's readOnly and hidden flags.
 */

import type { AuditedRow } from '../../db/common.properties.js';
import type { AuditUsers } from '../../shared/audit.js';
import type { DictionaryStructure } from '../concept/concept-structure.js';
import { dataCategory } from '../field/data-categories.js';
import type { Field, FieldLevel, PicklistItem } from '../field/field.entity.js';
import type { DisplayField } from './display.schema.js';
import { isHidden } from './display-view.js';

/** What preparing values needs, loaded once per request. */
export interface DisplayContext {
  structure: DictionaryStructure;
  /** Picklist items by field id, in sort order. */
  items: ReadonlyMap<number, readonly PicklistItem[]>;
  /** The caller's view (null: everything shows). */
  visible: ReadonlySet<string> | null;
  /** MULTIVALUED_SEPARATOR: joins several values (and their oids). */
  separator: string;
}

type SystemKey = 'DICT' | 'SECT' | 'DOM' | 'TERM' | 'CREBY' | 'CREDATE' | 'CHGBY' | 'CHGDATE';
type TermMetaKey = 'TCREBY' | 'TCREDATE' | 'TCHGBY' | 'TCHGDATE';

const joinedOrNull = (values: readonly string[], separator: string): string | null =>
  values.length ? values.join(separator) : null;

/** yyyy-MM-dd of a date value (stored as yyyy-MM-dd; other spellings are shown as they are). */
function dateValue(value: string): string {
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const compact = /^(\d{4})(\d{2})(\d{2})$/.exec(value);
  return compact ? `${compact[1]}-${compact[2]}-${compact[3]}` : value;
}

/** A DisplayField of a system attribute (dictionary, section, domains, term name, audit data). */
export function systemField(
  context: DisplayContext,
  key: SystemKey | TermMetaKey,
  value: string | null,
  valueOid: string | null,
  readOnly: boolean,
): DisplayField {
  return {
    id: key,
    label: dataCategory(key).name,
    value,
    valueOid,
    cssClass: `system-${key.toLowerCase()}`,
    cssStyle: null,
    readOnly,
    hidden: isHidden(context.visible, key),
  };
}

/** A DisplayField of a dictionary field with its stored values. */
export function valueField(
  context: DisplayContext,
  field: Field,
  values: readonly string[],
  readOnly: boolean,
): DisplayField {
  const oid = field.oid ?? String(field.id);
  let shown: string[] = [...values];
  let oids: string[] = [];
  if (field.fieldType === 'PICKLIST' || field.fieldType === 'MULTISELECT') {
    const items = context.items.get(field.id) ?? [];
    const matches = values.map((value) =>
      items.find((item) => item.name === value || item.tbxName === value),
    );
    shown = values.map((value, index) => matches[index]?.name ?? matches[index]?.tbxName ?? value);
    oids = matches.flatMap((item) => (item ? [item.oid] : []));
  } else if (field.fieldType === 'DATE') {
    shown = values.map(dateValue);
  }
  return {
    id: oid,
    label: field.name,
    value: joinedOrNull(shown, context.separator),
    valueOid: joinedOrNull(oids, context.separator),
    cssClass: `field-${field.fieldType.toLowerCase()}`,
    cssStyle: null,
    readOnly,
    hidden: isHidden(context.visible, oid),
  };
}

/**
 * The DisplayFields of one level for a field map: every live field of the level when `all` (forms),
 * otherwise only those holding a value (showing). Values of deleted fields are not shown.
 */
export function levelFields(
  context: DisplayContext,
  level: FieldLevel,
  fieldMap: Readonly<Record<string, readonly string[]>>,
  options: { all: boolean; readOnly: boolean },
): DisplayField[] {
  const fields: DisplayField[] = [];
  for (const { field } of context.structure.fields.values()) {
    if (field.level !== level) continue;
    const values = fieldMap[field.oid ?? String(field.id)] ?? [];
    if (!options.all && values.length === 0) continue;
    fields.push(valueField(context, field, values, options.readOnly));
  }
  return fields;
}

const day = (date: Date): string => date.toISOString().slice(0, 10);
const userName = (audit: AuditUsers, id: number | null | undefined): string | null => {
  const user = id ? audit.get(id) : undefined;
  return user ? (user.fullName ?? user.username) : null;
};

/** Created and changed by and when, read-only; concept keys or the term keys (TCREBY...). */
export function auditFields(
  context: DisplayContext,
  row: AuditedRow,
  audit: AuditUsers,
  level: FieldLevel,
): DisplayField[] {
  const keys =
    level === 'CONCEPT'
      ? (['CREBY', 'CREDATE', 'CHGBY', 'CHGDATE'] as const)
      : (['TCREBY', 'TCREDATE', 'TCHGBY', 'TCHGDATE'] as const);
  return [
    systemField(context, keys[0], userName(audit, row.createdById), null, true),
    systemField(context, keys[1], day(row.createdAt), null, true),
    systemField(context, keys[2], userName(audit, row.changedById), null, true),
    systemField(context, keys[3], day(row.changedAt), null, true),
  ];
}
