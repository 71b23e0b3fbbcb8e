/**
 * Writes the structure part of a definition into a dictionary: a new one is created with it, an existing
 * one gains what it lacks (languages, variants, fields, views, sections, domains matched by name) and
 * keeps everything it has. Runs inside the caller's transaction.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../shared/errors.js';
import { newOid } from '../../shared/oid.js';
import type { Scope } from '../../shared/scope.js';
import type { Dictionary } from '../dictionary/dictionary.entity.js';
import { createDictionary } from '../dictionary/dictionary.service.js';
import { findDictionary, markStructureChanged } from '../dictionary/dictionary-access.js';
import { Domain } from '../domain/domain.entity.js';
import {
  type Field,
  type FieldLevel,
  type PicklistItem,
  SystemDataCategories,
} from '../field/field.entity.js';
import type { FieldInput } from '../field/field.schema.js';
import { fieldModelOf, fieldsOf, syncFields } from '../field/field.service.js';
import type { LanguageInput } from '../language/language.schema.js';
import { languagesOf, syncLanguages } from '../language/language.service.js';
import { Section } from '../section/section.entity.js';
import { View } from '../view/view.entity.js';
import type { Definition, DefinitionField } from './definition-xml.js';

const NO_TENANT = { tenant: false } as const;
/** Always visible in a view (as the view service keeps them). */
const ALWAYS_VISIBLE = ['TERM', 'LANG'];
const key = (text: string) => text.trim().toLowerCase();

const languageInputOf = (language: Definition['languages'][number]): LanguageInput => ({
  code: language.code,
  name: language.name,
  custom: language.custom,
  rtl: language.rtl,
  sortIndex: language.sortIndex,
  variants: language.variants.map((v) => ({
    type: v.type,
    code: v.code,
    name: v.name,
    sortIndex: v.sortIndex,
  })),
});

const fieldInputOf = (field: DefinitionField): FieldInput => ({
  name: field.name,
  specifiedName: field.specifiedName,
  dataCategory: field.dataCategory,
  fieldType: field.fieldType,
  sortIndex: field.sortIndex,
  model: field.model,
});

/** An existing field as the input that keeps it exactly as it is. */
const keptFieldInput = (field: Field, items: readonly PicklistItem[]): FieldInput => ({
  id: field.id,
  name: field.name,
  specifiedName: field.specifiedName ?? null,
  dataCategory: field.dataCategory,
  fieldType: field.fieldType,
  sortIndex: field.sortIndex,
  // Items keep their ids, so the sync leaves them as they are.
  model: fieldModelOf(field, items),
});

/** Languages and fields of the file that the dictionary lacks are added; its own stay untouched. */
async function mergeLanguagesAndFields(scope: Scope, dictionary: Dictionary, definition: Definition) {
  const { em } = scope;
  const actorId = scope.actor.userId;
  const { languages, variants } = await languagesOf(em, [dictionary.id]);
  const languageInputs: LanguageInput[] = languages.map((language) => ({
    id: language.id,
    code: language.code,
    name: language.name,
    custom: language.custom,
    rtl: language.rtl,
    sortIndex: language.sortIndex,
    variants: variants
      .filter((v) => v.language.id === language.id)
      .map((v) => ({ id: v.id, type: v.type, code: v.code, name: v.name, sortIndex: v.sortIndex })),
  }));
  for (const wanted of definition.languages) {
    const existing = languageInputs.find((l) => key(l.code) === key(wanted.code));
    if (!existing) {
      languageInputs.push(languageInputOf(wanted));
      continue;
    }
    for (const variant of wanted.variants) {
      const has = existing.variants?.some(
        (v) => v.type === variant.type && key(v.code ?? '') === key(variant.code),
      );
      if (!has) existing.variants = [...(existing.variants ?? []), { ...variant }];
    }
  }
  await syncLanguages(em, dictionary, languageInputs, actorId);

  const { fields, items } = await fieldsOf(em, [dictionary.id]);
  for (const level of ['CONCEPT', 'TERM'] as const satisfies readonly FieldLevel[]) {
    const own = fields.filter((f) => f.level === level);
    const inputs = own.map((field) => keptFieldInput(field, items));
    for (const wanted of definition.fields.filter((f) => f.level === level)) {
      if (!own.some((f) => key(f.name) === key(wanted.name))) inputs.push(fieldInputOf(wanted));
    }
    await syncFields(em, dictionary, level, inputs, actorId);
  }
}

/** Domains in the order they can be created: the file's order, a child put off until its parent is placed. */
function parentsFirst(domains: Definition['domains']): Definition['domains'] {
  const ordered: Definition['domains'] = [];
  const placed = new Set<string>();
  let pending = [...domains];
  while (pending.length) {
    const before = ordered.length;
    for (const domain of pending) {
      if (domain.parent && !placed.has(domain.parent)) continue;
      ordered.push(domain);
      placed.add(domain.oid);
    }
    if (ordered.length === before) {
      const cycle = pending.map((d) => d.oid).slice(0, 5);
      throw new AppError('BAD_REQUEST', `The domains ${cycle.join(', ')} form a cycle`);
    }
    pending = pending.filter((d) => !placed.has(d.oid));
  }
  return ordered;
}

/**
 * Views, sections and domains of the file that the dictionary lacks (matched by name; domains by name
 * below the same parent). Answers the file oid -> dictionary oid map of fields, sections and domains.
 */
async function mergeViewsSectionsDomains(
  scope: Scope,
  dictionary: Dictionary,
  definition: Definition,
): Promise<Record<string, string>> {
  const { em } = scope;
  const audit = { createdById: scope.actor.userId, changedById: scope.actor.userId };
  const owner = { client: dictionary.client, dictionary };
  const oidMap: Record<string, string> = {};

  const { fields } = await fieldsOf(em, [dictionary.id]);
  for (const wanted of definition.fields) {
    const target = fields.find((f) => f.level === wanted.level && key(f.name) === key(wanted.name));
    if (target) oidMap[wanted.oid] = target.oid ?? String(target.id);
  }

  const views = await em.find(View, { dictionary: dictionary.id }, { filters: NO_TENANT });
  const viewByName = new Map(views.map((view) => [key(view.name), view]));
  for (const wanted of definition.views) {
    if (viewByName.has(key(wanted.name))) continue;
    const shown = wanted.fields
      .map((oid) => oidMap[oid] ?? ((SystemDataCategories as readonly string[]).includes(oid) ? oid : null))
      .filter((oid): oid is string => oid !== null);
    const view = em.create(View, {
      ...owner,
      ...audit,
      name: wanted.name,
      fields: [...new Set([...ALWAYS_VISIBLE, ...shown])],
    });
    viewByName.set(key(wanted.name), view);
  }

  const sections = await em.find(Section, { dictionary: dictionary.id }, { filters: NO_TENANT });
  for (const wanted of definition.sections) {
    let section = sections.find((s) => key(s.name) === key(wanted.name));
    if (!section) {
      const view = wanted.view ? viewByName.get(key(wanted.view)) : undefined;
      section = em.create(Section, {
        ...owner,
        ...audit,
        oid: newOid(),
        name: wanted.name,
        view: view ?? null,
        sortIndex: wanted.sortIndex,
      });
      sections.push(section);
    }
    oidMap[wanted.oid] = section.oid!;
  }

  const domains = await em.find(Domain, { dictionary: dictionary.id }, { filters: NO_TENANT });
  const created = new Map<string, Domain>();
  for (const wanted of parentsFirst(definition.domains)) {
    const parent = wanted.parent ? created.get(wanted.parent) : undefined;
    await em.flush(); // parents need their ids before children point at them
    let domain = domains.find(
      (d) => key(d.name) === key(wanted.name) && (d.parentId ?? null) === (parent?.id ?? null),
    );
    if (!domain) {
      domain = em.create(Domain, {
        ...owner,
        ...audit,
        oid: newOid(),
        name: wanted.name,
        parentId: parent?.id ?? null,
        sortIndex: wanted.sortIndex,
      });
      domains.push(domain);
    }
    created.set(wanted.oid, domain);
    oidMap[wanted.oid] = domain.oid!;
  }
  await em.flush();
  return oidMap;
}

export interface StructureOutcome {
  dictionaryId: number;
  dictionaryNew: boolean;
  oidMap: Record<string, string>;
}

/** Creates a dictionary from the definition (client administrators), or merges it into `target`. */
export async function writeStructure(
  scope: Scope,
  definition: Definition,
  target: Dictionary | null,
): Promise<StructureOutcome> {
  let dictionary = target;
  if (!dictionary) {
    const created = await createDictionary(scope, {
      format: 'ID',
      name: definition.dictionary.name,
      description: definition.dictionary.description,
      sortIndex: definition.dictionary.sortIndex,
      domainPresentation: definition.dictionary.domainPresentation as Dictionary['domainPresentation'],
      languages: definition.languages.map(languageInputOf),
      conceptFields: definition.fields.filter((f) => f.level === 'CONCEPT').map(fieldInputOf),
      termFields: definition.fields.filter((f) => f.level === 'TERM').map(fieldInputOf),
    });
    dictionary = await findDictionary(scope, created.id);
  } else {
    await mergeLanguagesAndFields(scope, dictionary, definition);
  }
  const oidMap = await mergeViewsSectionsDomains(scope, dictionary, definition);
  await markStructureChanged(scope.em as EntityManager, dictionary.id, {
    actorId: scope.actor.userId,
    subject: 'definition',
    action: 'imported',
  });
  return { dictionaryId: dictionary.id, dictionaryNew: target === null, oidMap };
}
