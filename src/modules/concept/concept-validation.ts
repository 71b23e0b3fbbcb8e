/**
 * Turns what a caller sent into the state a concept should have, checking it against the dictionary's
 * structure. Every problem is collected, so one 400 names all fields that are wrong.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { sameJson } from '../../shared/canonical-json.js';
import { AppError } from '../../shared/errors.js';
import type { FieldLevel } from '../field/field.entity.js';
import { fieldValueProblems, normalizeFieldValues } from '../field/field-validation.js';
import type { LanguageFieldsSnapshot, RefLinkSnapshot } from '../history/history.types.js';
import { ATTRIBUTES_OF_TYPE, RelationAttributes, RelationTypes } from './concept.entity.js';
import type { RefLinkInput } from './concept.schema.js';
import { type DictionaryStructure, fieldsOfLevel } from './concept-structure.js';

export type FieldValues = Record<string, string[]>;

/** A link as a write wants it; its term is the term it is sent with. */
export type DesiredRefLink = Omit<RefLinkSnapshot, 'sourceTermId'>;

export interface DesiredTerm {
  /** An existing term of the concept (live or, for an undo, deleted); absent for a new one. */
  id?: number;
  name: string;
  languageCode: string;
  regionCode: string | null;
  scriptCode: string | null;
  fieldMap: FieldValues;
  refLinks: DesiredRefLink[];
}

export interface DesiredRelation {
  id?: number;
  sourceConceptId: number | null;
  targetConceptId: number;
  type: number;
  attribute: number;
  text: string | null;
}

/** The whole state of a concept, as a write wants it. `null` source/target means the concept itself. */
export interface DesiredConcept {
  sectionId: number;
  domainIds: number[];
  fieldMap: FieldValues;
  refLinks: DesiredRefLink[];
  terms: DesiredTerm[];
  relations: DesiredRelation[];
  /** Values per language tag (TERM-level fields, as a TBX language section holds them); undefined: kept. */
  languageFields?: LanguageFieldsSnapshot[];
}

export class Problems {
  readonly list: string[] = [];
  add(message: string) {
    this.list.push(message);
  }
  throwIfAny() {
    if (this.list.length === 0) return;
    const shown = this.list.slice(0, 20);
    const more = this.list.length > shown.length ? ` (and ${this.list.length - shown.length} more)` : '';
    throw new AppError('BAD_REQUEST', `${shown.join('; ')}${more}`);
  }
}

/** The section named by oid; a problem when it is not a live section of the dictionary. */
export function sectionIdOf(structure: DictionaryStructure, oid: string | undefined, problems: Problems) {
  if (oid === undefined) {
    problems.add('sectionOid is required');
    return undefined;
  }
  const section = structure.sectionsByOid.get(oid);
  if (!section) {
    problems.add(`sectionOid "${oid}" is not a section of dictionary ${structure.dictionary.id}`);
    return undefined;
  }
  return section.id;
}

export function domainIdsOf(structure: DictionaryStructure, oids: readonly string[], problems: Problems) {
  const ids: number[] = [];
  for (const oid of new Set(oids)) {
    const domain = structure.domainsByOid.get(oid);
    if (domain) ids.push(domain.id);
    else problems.add(`domainList: "${oid}" is not a domain of dictionary ${structure.dictionary.id}`);
  }
  return ids;
}

export function refLinksOf(inputs: readonly RefLinkInput[] | null | undefined): DesiredRefLink[] {
  return (inputs ?? []).map((link) => ({
    sourceFieldOid: link.sourceFieldOid,
    type: link.type,
    text: link.text,
    dynamicText: link.dynamicText ?? null,
    position: link.position,
    url: link.url ?? null,
    conceptId: link.conceptId ?? null,
    termId: link.termId ?? null,
    languageCode: link.languageCode?.toLowerCase() ?? null,
  }));
}

/**
 * Checks one entry's values against the fields of its level and answers them as stored (line breaks as
 * CR LF, blanks dropped, empty fields left out).
 */
export function checkFieldMap(
  structure: DictionaryStructure,
  level: FieldLevel,
  values: FieldValues,
  where: string,
  problems: Problems,
): FieldValues {
  const stored: FieldValues = {};
  for (const oid of Object.keys(values)) {
    const entry = structure.fields.get(oid);
    if (!entry || entry.field.level !== level) {
      problems.add(
        `${where}: "${oid}" is not a ${level.toLowerCase()} field of dictionary ${structure.dictionary.id}`,
      );
    }
  }
  for (const { field, rules } of fieldsOfLevel(structure, level)) {
    if (field.level !== level) continue;
    const sent = values[rules.oid];
    for (const problem of fieldValueProblems(rules, sent)) problems.add(`${where}: ${problem}`);
    const kept = normalizeFieldValues(rules, sent ?? []);
    if (kept.length > 0) stored[rules.oid] = kept;
  }
  return stored;
}

/** A link's text must stand at its position in one of the field's stored values (CR LF counts two). */
export function checkRefLinks(
  links: readonly DesiredRefLink[],
  values: FieldValues,
  where: string,
  problems: Problems,
) {
  for (const link of links) {
    const label = `${where}: reference link "${link.text}"`;
    // Own values only: a sourceFieldOid such as `__proto__` or `constructor` names no field.
    const fieldValues = Object.hasOwn(values, link.sourceFieldOid) ? values[link.sourceFieldOid] : undefined;
    if (!fieldValues) {
      problems.add(`${label} points into field "${link.sourceFieldOid}", which has no value here`);
      continue;
    }
    const found = fieldValues.some(
      (value) => value.slice(link.position, link.position + link.text.length) === link.text,
    );
    if (!found) {
      problems.add(
        `${label} does not stand at position ${link.position} of field "${link.sourceFieldOid}" (line breaks count two characters)`,
      );
    }
    if (link.type === 'URL' && !(link.url && /^(https?|mailto|ftp):/i.test(link.url))) {
      problems.add(`${label}: a URL link needs an http(s), mailto or ftp url`);
    }
    if (link.type === 'CONCEPT' && link.conceptId === null)
      problems.add(`${label}: a CONCEPT link needs conceptId`);
    if (link.type === 'TERM' && link.termId === null) problems.add(`${label}: a TERM link needs termId`);
  }
}

/** Language, region and script of a term, as the dictionary spells them; problems when undefined. */
export function checkTermLanguage(
  structure: DictionaryStructure,
  term: { languageCode: string; regionCode?: string | null; scriptCode?: string | null },
  where: string,
  problems: Problems,
) {
  const language = structure.languages.get(term.languageCode.toLowerCase());
  if (!language) {
    problems.add(
      `${where}: languageCode "${term.languageCode}" is not a language of dictionary ${structure.dictionary.id}`,
    );
    return { languageCode: term.languageCode.toLowerCase(), regionCode: null, scriptCode: null };
  }
  const variant = (code: string | null | undefined, known: Map<string, string>, what: string) => {
    if (code === null || code === undefined || code.trim() === '') return null;
    const defined = known.get(code.trim().toLowerCase());
    if (!defined) problems.add(`${where}: ${what} "${code}" is not a variant of language "${language.code}"`);
    return defined ?? code.trim();
  };
  return {
    languageCode: language.code,
    regionCode: variant(term.regionCode, language.regions, 'regionCode'),
    scriptCode: variant(term.scriptCode, language.scripts, 'scriptCode'),
  };
}

/**
 * Language fields hold values of the dictionary's TERM-level fields (what a TBX import keeps from a
 * language section), per language tag of the dictionary. A tag may appear once; tags left without
 * values are dropped (reads never show them).
 */
export function checkLanguageFields(
  structure: DictionaryStructure,
  rows: readonly LanguageFieldsSnapshot[],
  problems: Problems,
): LanguageFieldsSnapshot[] {
  const seen = new Set<string>();
  const checked: LanguageFieldsSnapshot[] = [];
  rows.forEach((row, index) => {
    const where = `languageFields[${index}]`;
    const tag = checkTermLanguage(structure, row, where, problems);
    const key = [tag.languageCode, tag.regionCode ?? '', tag.scriptCode ?? ''].join('|');
    if (seen.has(key)) problems.add(`${where}: language ${tag.languageCode} is given twice`);
    seen.add(key);
    const fieldMap = checkFieldMap(structure, 'TERM', row.fieldMap, `${where}.fieldMap`, problems);
    if (Object.keys(fieldMap).length > 0) checked.push({ ...tag, fieldMap });
  });
  // Tag order, as reads list them (language, then region and script, none first).
  const order = (row: LanguageFieldsSnapshot) => [
    row.languageCode,
    row.regionCode ?? '',
    row.scriptCode ?? '',
  ];
  return checked.sort((a, b) => {
    const [x, y] = [order(a), order(b)];
    const at = x.findIndex((part, index) => part !== y[index]);
    return at < 0 ? 0 : x[at]! < y[at]! ? -1 : 1;
  });
}

export function checkRelation(relation: DesiredRelation, where: string, problems: Problems) {
  const allowed = ATTRIBUTES_OF_TYPE[relation.type] ?? [];
  if (!allowed.includes(relation.attribute)) {
    problems.add(
      `${where}: attribute ${relation.attribute} (${RelationAttributes[relation.attribute] ?? '?'}) does not belong to type ${relation.type} (${RelationTypes[relation.type] ?? '?'}); allowed: ${allowed.join(', ')}`,
    );
  }
}

/**
 * INCREMENTAL values are unique in a dictionary per field. A transaction-scoped advisory lock per field
 * makes check-then-write safe against a concurrent writer of the same field.
 */
export async function checkIncrementalValues(
  em: EntityManager,
  structure: DictionaryStructure,
  entries: readonly {
    level: FieldLevel;
    id: number | undefined;
    conceptId: number | undefined;
    fieldMap: FieldValues;
    where: string;
  }[],
  problems: Problems,
) {
  const incremental = [...structure.fields.values()].filter(
    (entry) => entry.field.fieldType === 'INCREMENTAL',
  );
  for (const { field, rules } of incremental) {
    const oid = rules.oid;
    const users = entries.filter((entry) => entry.level === field.level && entry.fieldMap[oid]?.length);
    if (users.length === 0) continue;
    await em.execute('select pg_advisory_xact_lock(hashtext(?))', [`incremental:${oid}`]);
    const seen = new Map<string, string>();
    for (const entry of users) {
      const value = entry.fieldMap[oid]![0]!;
      const other = seen.get(value);
      if (other)
        problems.add(`${entry.where}: Field "${field.name}": value ${value} is also given to ${other}`);
      seen.set(value, entry.where);
      const table = field.level === 'CONCEPT' ? 'concepts' : 'terms';
      const ownConcept = field.level === 'TERM' ? ' and concept_id <> ?' : '';
      const params: unknown[] = [structure.dictionary.id, oid, value, entry.id ?? 0];
      const [row] = await em.execute<{ used: number }[]>(
        `select count(*)::int as used from "${table}"
          where dictionary_id = ? and not deleted and field_map -> ? @> to_jsonb(?::text) and id <> ?${ownConcept}`,
        field.level === 'TERM' ? [...params, entry.conceptId ?? 0] : params,
      );
      if ((row?.used ?? 0) > 0) {
        problems.add(
          `${entry.where}: Field "${field.name}": value ${value} is already used in this dictionary`,
        );
      }
    }
  }
}

/**
 * Values of fields deleted from the dictionary since they were stored: dropped from the stored map, and
 * from what was sent when it only repeats them (a concept sent back as read). New values for a deleted
 * field stay in `sent`, so validation refuses them by name.
 */
export function withoutDeletedFields(
  structure: DictionaryStructure,
  stored: FieldValues,
  sent: FieldValues | undefined,
): { stored: FieldValues; sent: FieldValues | undefined } {
  const deleted = (oid: string) => structure.deletedFieldOids.has(oid);
  const keep = (map: FieldValues, drop: (oid: string) => boolean) =>
    Object.fromEntries(Object.entries(map).filter(([oid]) => !drop(oid)));
  return {
    stored: keep(stored, deleted),
    sent: sent && keep(sent, (oid) => deleted(oid) && sameJson(sent[oid], stored[oid])),
  };
}
