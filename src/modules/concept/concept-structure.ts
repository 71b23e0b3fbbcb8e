/**
 * What a concept write is checked against: the dictionary's live fields (with their rules), languages
 * with variants, sections and domains. Loaded once per write in a handful of queries.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Dictionary } from '../dictionary/dictionary.entity.js';
import { Domain } from '../domain/domain.entity.js';
import type { Field, FieldLevel } from '../field/field.entity.js';
import { fieldRules, fieldsOf } from '../field/field.service.js';
import type { FieldRules } from '../field/field-validation.js';
import type { Language } from '../language/language.entity.js';
import { languagesOf } from '../language/language.service.js';
import { Section } from '../section/section.entity.js';

const NO_TENANT = { tenant: false } as const;

export interface StructureField {
  field: Field;
  rules: FieldRules;
}

export interface StructureLanguage {
  language: Language;
  /** The code terms carry: code3 when the language has one, else its code; lowercase. */
  code: string;
  regions: Map<string, string>;
  scripts: Map<string, string>;
}

export interface DictionaryStructure {
  dictionary: Dictionary;
  fields: Map<string, StructureField>;
  /** Oids of the dictionary's deleted fields: their stored values are dropped on the next write. */
  deletedFieldOids: Set<string>;
  languages: Map<string, StructureLanguage>;
  sectionsByOid: Map<string, Section>;
  sectionsById: Map<number, Section>;
  domainsByOid: Map<string, Domain>;
  domainsById: Map<number, Domain>;
}

/** The code a term of this language carries (ISO 639-2 where known, lowercase). */
export const termCodeOf = (language: Language): string => (language.code3 ?? language.code).toLowerCase();

export async function loadStructure(em: EntityManager, dictionary: Dictionary): Promise<DictionaryStructure> {
  // Sequential on purpose: this runs inside transactions, whose one connection takes one query at a time.
  const { fields, items } = await fieldsOf(em, [dictionary.id]);
  const { languages, variants } = await languagesOf(em, [dictionary.id]);
  const sections = await em.find(Section, { dictionary: dictionary.id }, { filters: NO_TENANT });
  const domains = await em.find(Domain, { dictionary: dictionary.id }, { filters: NO_TENANT });
  const deletedFields = await em.execute<{ oid: string }[]>(
    'select oid from fields where dictionary_id = ? and deleted and oid is not null',
    [dictionary.id],
  );
  const languageMap = new Map<string, StructureLanguage>();
  for (const language of languages) {
    const own = variants.filter((variant) => variant.language.id === language.id);
    const entry: StructureLanguage = {
      language,
      code: termCodeOf(language),
      regions: new Map(own.filter((v) => v.type === 0).map((v) => [v.code.toLowerCase(), v.code])),
      scripts: new Map(own.filter((v) => v.type === 1).map((v) => [v.code.toLowerCase(), v.code])),
    };
    languageMap.set(entry.code, entry);
    languageMap.set(language.code.toLowerCase(), entry);
    // A term may name its language by the ISO 639-1 code too (en for eng): one rule with term search.
    if (language.code2) languageMap.set(language.code2.toLowerCase(), entry);
  }
  return {
    dictionary,
    fields: new Map(
      fields
        .filter((field) => field.oid)
        .map((field) => [
          field.oid!,
          {
            field,
            rules: fieldRules(
              field,
              items.filter((item) => item.field.id === field.id),
            ),
          },
        ]),
    ),
    deletedFieldOids: new Set(deletedFields.map((row) => row.oid)),
    languages: languageMap,
    sectionsByOid: new Map(sections.map((section) => [section.oid ?? String(section.id), section])),
    sectionsById: new Map(sections.map((section) => [section.id, section])),
    domainsByOid: new Map(domains.map((domain) => [domain.oid ?? String(domain.id), domain])),
    domainsById: new Map(domains.map((domain) => [domain.id, domain])),
  };
}

/** The fields of one level (CONCEPT or TERM), in sort order. */
export function fieldsOfLevel(structure: DictionaryStructure, level: FieldLevel): StructureField[] {
  return [...structure.fields.values()].filter((entry) => entry.field.level === level);
}
