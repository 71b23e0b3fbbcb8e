/**
 * Display concepts: a concept prepared for showing or editing, and stubs for new concepts and terms.
 * Nothing here is stored. Each call costs a fixed number of queries: the concept (with access), its
 * parts, the dictionary structure with picklist items, the caller's view, the audit users.
 */
import { randomUUID } from 'node:crypto';
import type { AuditedRow } from '../../db/common.properties.js';
import { type AuditUsers, loadAuditUsers } from '../../shared/audit.js';
import { AppError, notFound } from '../../shared/errors.js';
import type { Scope } from '../../shared/scope.js';
import { type ConceptAccess, conceptAccessFor } from '../access/access.service.js';
import type { Concept, FieldValues } from '../concept/concept.entity.js';
import type { ConceptOutput } from '../concept/concept.schema.js';
import {
  assertConceptPermission,
  conceptIdOfTerm,
  type LoadedConcept,
  readableConcept,
  termAllowed,
} from '../concept/concept-access.js';
import { loadParts } from '../concept/concept-parts.js';
import { renderConcepts } from '../concept/concept-render.js';
import {
  type DictionaryStructure,
  loadStructure,
  type StructureLanguage,
} from '../concept/concept-structure.js';
import { Dictionary } from '../dictionary/dictionary.entity.js';
import { readableDictionary } from '../dictionary/dictionary-access.js';
import { PicklistItem } from '../field/field.entity.js';
import { hideUnseenTerms } from '../workflow/workflow-visibility.js';
import type { DisplayConcept, DisplayConceptInput, DisplayField, DisplayTerm } from './display.schema.js';
import { auditFields, type DisplayContext, levelFields, systemField } from './display-fields.js';
import { printPage } from './display-print.js';
import { visibleKeys } from './display-view.js';

const NO_TENANT = { tenant: false } as const;

/** What the caller may change, as the readOnly flags show it. */
interface Rights {
  /** Section and domains. */
  classification: boolean;
  conceptFields: boolean;
  /** A stored term: TERM_UPDATE in its language; a new one: adding terms in its language. */
  term: (languageCode: string, isNew: boolean) => boolean;
}

/** Whether the term grants reach a language (null: every language), as concept writes check it. */
const languageAllowed = (access: ConceptAccess, code: string): boolean =>
  access.termLanguages === null || access.termLanguages.includes(code.toLowerCase());

function rightsInConcept(access: ConceptAccess): Rights {
  return {
    classification: access.concept.CONCEPT_UPDATE,
    conceptFields: access.concept.CONCEPT_UPDATE || access.concept.CONCEPT_EDIT_FIELDS,
    term: (code, isNew) =>
      isNew
        ? access.concept.TERM_CREATE && languageAllowed(access, code)
        : termAllowed(access, 'TERM_UPDATE', code),
  };
}

/** A concept being created (CONCEPT_CREATE in its section): everything, terms in the allowed languages. */
function rightsOfNewConcept(access: ConceptAccess): Rights {
  return { classification: true, conceptFields: true, term: (code) => languageAllowed(access, code) };
}

interface TermSource {
  id: number | null;
  name: string | null;
  languageCode: string;
  regionCode: string | null;
  scriptCode: string | null;
  fieldMap: FieldValues;
  /** The stored row, for the audit fields; null on stubs. */
  row: AuditedRow | null;
}

interface ConceptSource {
  id: number | null;
  sectionId: number;
  domainIds: readonly number[];
  fieldMap: FieldValues;
  terms: readonly TermSource[];
  row: AuditedRow | null;
}

interface BuildOptions {
  rights: Rights;
  audit: AuditUsers;
  /** Forms (create, edit, copy): every field and every language; showing: what holds values. */
  form: boolean;
  selectedTermId?: number;
  concept: ConceptOutput | null;
}

const NO_AUDIT: AuditUsers = new Map();

/** The dictionary's languages, each once, by sortIndex. */
function orderedLanguages(structure: DictionaryStructure): StructureLanguage[] {
  const unique = new Map<number, StructureLanguage>();
  for (const entry of structure.languages.values()) unique.set(entry.language.id, entry);
  return [...unique.values()].sort(
    (a, b) => a.language.sortIndex - b.language.sortIndex || a.language.id - b.language.id,
  );
}

/** The picklist items (with oids) of the structure's choice fields and the caller's view in the section. */
async function loadContext(
  scope: Scope,
  structure: DictionaryStructure,
  sectionId: number,
): Promise<DisplayContext> {
  const choiceFieldIds = [...structure.fields.values()]
    .filter(({ field }) => field.fieldType === 'PICKLIST' || field.fieldType === 'MULTISELECT')
    .map(({ field }) => field.id);
  const rows = choiceFieldIds.length
    ? await scope.em.find(
        PicklistItem,
        { field: { $in: choiceFieldIds } },
        { orderBy: { sortIndex: 'ASC', id: 'ASC' } },
      )
    : [];
  const items = new Map<number, PicklistItem[]>();
  for (const item of rows) items.set(item.field.id, [...(items.get(item.field.id) ?? []), item]);
  const section = structure.sectionsById.get(sectionId);
  const visible = await visibleKeys(scope, structure.dictionary.id, section?.view?.id ?? null);
  return { structure, items, visible, separator: scope.config.MULTIVALUED_SEPARATOR };
}

function displayTerm(
  context: DisplayContext,
  term: TermSource,
  options: Pick<BuildOptions, 'rights' | 'audit' | 'form'>,
): DisplayTerm {
  const readOnly = !options.rights.term(term.languageCode, term.id === null);
  return {
    id: term.id,
    dictionary_id: context.structure.dictionary.id,
    langCode: term.languageCode,
    region: term.regionCode,
    script: term.scriptCode,
    elementId: term.id === null ? `term-new-${randomUUID().slice(0, 8)}` : `term-${term.id}`,
    termField: systemField(context, 'TERM', term.name, null, readOnly),
    metadataFields: term.row ? auditFields(context, term.row, options.audit, 'TERM') : [],
    fields: levelFields(context, 'TERM', term.fieldMap, { all: options.form, readOnly }),
  };
}

function classificationFields(
  context: DisplayContext,
  source: ConceptSource,
  rights: Rights,
): DisplayField[] {
  const { structure, separator } = context;
  const dictionary = structure.dictionary;
  const section = structure.sectionsById.get(source.sectionId);
  const domains = source.domainIds
    .map((id) => structure.domainsById.get(id))
    .filter((domain) => domain !== undefined)
    .sort((a, b) => a.sortIndex - b.sortIndex || a.id - b.id);
  const joined = (values: string[]) => (values.length ? values.join(separator) : null);
  return [
    systemField(context, 'DICT', dictionary.name, dictionary.oid ?? String(dictionary.id), true),
    systemField(
      context,
      'SECT',
      section?.name ?? null,
      section ? (section.oid ?? String(section.id)) : null,
      !rights.classification,
    ),
    systemField(
      context,
      'DOM',
      joined(domains.map((domain) => domain.name)),
      joined(domains.map((domain) => domain.oid ?? String(domain.id))),
      !rights.classification,
    ),
  ];
}

function buildDisplay(context: DisplayContext, source: ConceptSource, options: BuildOptions): DisplayConcept {
  const { structure } = context;
  const groups = new Map<string, DisplayTerm[]>();
  for (const term of source.terms) {
    const code = structure.languages.get(term.languageCode.toLowerCase())?.code ?? term.languageCode;
    groups.set(code, [...(groups.get(code) ?? []), displayTerm(context, term, options)]);
  }
  const known = orderedLanguages(structure).map((entry) => entry.code);
  // Terms of a language the dictionary no longer has still show, after the dictionary's languages.
  const codes = [
    ...(options.form ? known : known.filter((code) => groups.has(code))),
    ...[...groups.keys()].filter((code) => !known.includes(code)).sort(),
  ];
  const termsPerLanguage = codes.map((code) => groups.get(code) ?? []);
  const selected =
    options.selectedTermId === undefined
      ? null
      : (termsPerLanguage.flat().find((term) => term.id === options.selectedTermId) ?? null);
  return {
    id: source.id,
    dictionary_id: structure.dictionary.id,
    sectionId: source.sectionId,
    requestedByUserId: 0,
    classificationFields: classificationFields(context, source, options.rights),
    languageCodes: codes,
    termsPerLanguage,
    termSelected: selected,
    concept: options.concept,
    metadataFields: source.row ? auditFields(context, source.row, options.audit, 'CONCEPT') : [],
    fields: levelFields(context, 'CONCEPT', source.fieldMap, {
      all: options.form,
      readOnly: !options.rights.conceptFields,
    }),
  };
}

const storedTerm = (term: {
  id: number;
  name: string;
  languageCode: string;
  regionCode?: string | null;
  scriptCode?: string | null;
  fieldMap: FieldValues;
}): Omit<TermSource, 'row'> => ({
  id: term.id,
  name: term.name,
  languageCode: term.languageCode,
  regionCode: term.regionCode ?? null,
  scriptCode: term.scriptCode ?? null,
  fieldMap: term.fieldMap,
});

const blankTerm = (languageCode: string): TermSource => ({
  id: null,
  name: null,
  languageCode,
  regionCode: null,
  scriptCode: null,
  fieldMap: {},
  row: null,
});

/** The structure of a readable concept's dictionary. */
async function structureOf(scope: Scope, concept: Concept): Promise<DictionaryStructure> {
  const id = concept.dictionary.id;
  const dictionary = await scope.em.findOne(Dictionary, { id }, { filters: NO_TENANT });
  if (!dictionary) throw notFound('Dictionary', id);
  return loadStructure(scope.em, dictionary);
}

/** A concept's parts without the terms the caller is not shown (workflow: docs/workflows.md). */
async function visibleParts(scope: Scope, concept: Concept) {
  const parts = await loadParts(scope.em, [concept.id]);
  await hideUnseenTerms(scope, [concept], parts);
  return parts.get(concept.id)!;
}

/** A readable concept prepared for showing (form false) or editing (form true). */
async function present(
  scope: Scope,
  loaded: LoadedConcept,
  options: { form: boolean; selectedTermId?: number; loadConcept: boolean; withComments: boolean },
) {
  const { concept, access } = loaded;
  const parts = await visibleParts(scope, concept);
  if (
    options.selectedTermId !== undefined &&
    !parts.terms.some((term) => term.id === options.selectedTermId)
  ) {
    throw new AppError('NOT_FOUND', `Term ${options.selectedTermId} is not a term of concept ${concept.id}`);
  }
  const context = await loadContext(scope, await structureOf(scope, concept), concept.section.id);
  const audit = await loadAuditUsers(scope.em, [concept, ...parts.terms]);
  const [rendered] = options.loadConcept
    ? await renderConcepts(scope, [loaded], {
        format: options.form ? 'EDIT' : 'FULL',
        withComments: options.withComments,
        deletedTerms: false,
      })
    : [null];
  const source: ConceptSource = {
    id: concept.id,
    sectionId: concept.section.id,
    domainIds: parts.domainIds,
    fieldMap: concept.fieldMap,
    terms: parts.terms.map((term) => ({ ...storedTerm(term), row: term })),
    row: concept,
  };
  const display = buildDisplay(context, source, {
    rights: rightsInConcept(access),
    audit,
    form: options.form,
    selectedTermId: options.selectedTermId,
    concept: rendered ?? null,
  });
  return { display: { ...display, requestedByUserId: scope.actor.userId }, context, concept };
}

/** GET /display-concepts/{id} and ?term-id=: the concept prepared for showing. */
export async function showConcept(scope: Scope, input: DisplayConceptInput): Promise<DisplayConcept> {
  const termId = input['term-id'];
  const id = input.id ?? (termId === undefined ? undefined : await conceptIdOfTerm(scope, { id: termId }));
  if (id === undefined)
    throw new AppError('BAD_REQUEST', 'Give the concept id or the query parameter term-id');
  const loaded = await readableConcept(scope, id);
  const { display } = await present(scope, loaded, {
    form: false,
    selectedTermId: termId,
    loadConcept: input['load-concept'] || input['with-comments'],
    withComments: input['with-comments'],
  });
  return display;
}

/** PUT /display-concepts/edit/{conceptId}: every field and language, with the concept. */
export async function editConcept(scope: Scope, conceptId: number, termId?: number): Promise<DisplayConcept> {
  const loaded = await readableConcept(scope, conceptId);
  const { display } = await present(scope, loaded, {
    form: true,
    selectedTermId: termId,
    loadConcept: true,
    withComments: false,
  });
  return display;
}

/**
 * The section a new concept goes to: `preferred` when the caller may create concepts there, else the
 * first (by sortIndex) where they may; 403 when there is none.
 */
async function creatableSection(
  scope: Scope,
  structure: DictionaryStructure,
  preferred?: number,
): Promise<{ sectionId: number; access: ConceptAccess }> {
  const sections = [...structure.sectionsById.values()].sort(
    (a, b) => a.sortIndex - b.sortIndex || a.id - b.id,
  );
  const accesses = await conceptAccessFor(
    scope,
    sections.map((section) => ({ sectionId: section.id, ownerId: null })),
  );
  const candidates = sections
    .map((section, index) => ({ sectionId: section.id, access: accesses[index]! }))
    .filter((entry) => entry.access.conceptCreate);
  const chosen = candidates.find((entry) => entry.sectionId === preferred) ?? candidates[0];
  if (!chosen) {
    throw new AppError(
      'FORBIDDEN',
      `You may not create concepts in dictionary ${structure.dictionary.id} (CONCEPT_CREATE is granted in none of its sections)`,
    );
  }
  return chosen;
}

/** POST /display-concepts/create/{dictionaryId}: an empty concept, one blank term per writable language. */
export async function createStub(scope: Scope, dictionaryId: number): Promise<DisplayConcept> {
  const dictionary = await readableDictionary(scope, dictionaryId);
  const structure = await loadStructure(scope.em, dictionary);
  const { sectionId, access } = await creatableSection(scope, structure);
  const context = await loadContext(scope, structure, sectionId);
  const rights = rightsOfNewConcept(access);
  const terms = orderedLanguages(context.structure)
    .filter((entry) => rights.term(entry.code, true))
    .map((entry) => blankTerm(entry.code));
  const display = buildDisplay(
    context,
    { id: null, sectionId, domainIds: [], fieldMap: {}, terms, row: null },
    { rights, audit: NO_AUDIT, form: true, concept: null },
  );
  return { ...display, requestedByUserId: scope.actor.userId };
}

/** POST /display-concepts/copy/{conceptId}: the concept's values and terms without ids. */
export async function copyStub(scope: Scope, conceptId: number): Promise<DisplayConcept> {
  const { concept } = await readableConcept(scope, conceptId);
  const parts = await visibleParts(scope, concept);
  const structure = await structureOf(scope, concept);
  const { sectionId, access } = await creatableSection(scope, structure, concept.section.id);
  const context = await loadContext(scope, structure, sectionId);
  const display = buildDisplay(
    context,
    {
      id: null,
      sectionId,
      domainIds: parts.domainIds,
      fieldMap: concept.fieldMap,
      terms: parts.terms.map((term) => ({ ...storedTerm(term), id: null, row: null })),
      row: null,
    },
    { rights: rightsOfNewConcept(access), audit: NO_AUDIT, form: true, concept: null },
  );
  return { ...display, requestedByUserId: scope.actor.userId };
}

function assertMayAddTerm(access: ConceptAccess, code: string): void {
  assertConceptPermission(access, 'TERM_CREATE', 'add terms to this concept');
  if (!languageAllowed(access, code)) {
    throw new AppError('FORBIDDEN', `You may not add terms in language "${code}"`);
  }
}

/** POST /display-concepts/add-term/{conceptId}: a blank term (lang-code, or the first writable language). */
export async function addTermStub(scope: Scope, conceptId: number, langCode?: string): Promise<DisplayTerm> {
  const { concept, access } = await readableConcept(scope, conceptId);
  assertConceptPermission(access, 'TERM_CREATE', 'add terms to this concept');
  const context = await loadContext(scope, await structureOf(scope, concept), concept.section.id);
  let code: string | undefined;
  if (langCode !== undefined) {
    code = context.structure.languages.get(langCode.toLowerCase())?.code;
    if (!code) {
      throw new AppError(
        'BAD_REQUEST',
        `lang-code: "${langCode}" is not a language of dictionary ${concept.dictionary.id}`,
      );
    }
  } else {
    code = orderedLanguages(context.structure).find((entry) => languageAllowed(access, entry.code))?.code;
    if (!code) throw new AppError('FORBIDDEN', 'You may not add terms in any language of this dictionary');
  }
  assertMayAddTerm(access, code);
  return displayTerm(context, blankTerm(code), {
    rights: rightsInConcept(access),
    audit: NO_AUDIT,
    form: true,
  });
}

/** POST /display-concepts/copy-term/{termId}: the term's name, language and values, without id. */
export async function copyTermStub(scope: Scope, termId: number): Promise<DisplayTerm> {
  const loaded = await readableConcept(scope, await conceptIdOfTerm(scope, { id: termId }));
  const { concept, access } = loaded;
  const parts = await visibleParts(scope, concept);
  const term = parts.terms.find((candidate) => candidate.id === termId);
  if (!term) throw notFound('Term', termId);
  assertMayAddTerm(access, term.languageCode);
  const context = await loadContext(scope, await structureOf(scope, concept), concept.section.id);
  return displayTerm(
    context,
    { ...storedTerm(term), id: null, row: null },
    { rights: rightsInConcept(access), audit: NO_AUDIT, form: true },
  );
}

/** The print page of a concept (CONCEPT_PRINT): a standalone HTML document of what the caller sees. */
export async function printConcept(scope: Scope, id: number): Promise<string> {
  const loaded = await readableConcept(scope, id);
  assertConceptPermission(loaded.access, 'CONCEPT_PRINT', 'print this concept');
  const { display, context, concept } = await present(scope, loaded, {
    form: false,
    loadConcept: false,
    withComments: false,
  });
  return printPage(display, orderedLanguages(context.structure), concept.cid);
}
