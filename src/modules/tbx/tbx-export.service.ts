/**
 * TBX export (docs/tbx.md): a dictionary's live concepts in id order, read in keyset batches and handed
 * to writeTbx as TbxEntry objects, so the document streams out and memory holds one batch. Languages,
 * fields and a filter's criteria restrict what is written; only sections with CONCEPT_EXPORT are read.
 *
 * Over 500 lines since the structured field parts and provenance (issue 37) joined it; not split in that
 * session for lack of time to re-run the TBX validator suites. The seam to cut along: the batch reader
 * (SQL and visibility) apart from the entry builder (fields, parts, provenance to TbxEntry).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, notFound } from '../../shared/errors.js';
import type { Scope } from '../../shared/scope.js';
import { dictionaryPermissions, isDictionaryAdmin } from '../access/access.service.js';
import { type LanguageFieldsDto, languageFieldsOf, tagKey } from '../concept/concept-language-fields.js';
import { readableDictionary } from '../dictionary/dictionary-access.js';
import type { FieldLevel } from '../field/field.entity.js';
import { fieldsOf } from '../field/field.service.js';
import { getFilter } from '../filter/filter.service.js';
import type { FilterCriteria } from '../filter/filter-criteria.js';
import { andSql, criteriaSql, type Sql } from '../filter/filter-sql.js';
import { languagesOf } from '../language/language.service.js';
import { writeMtf } from '../multiterm/mtf-writer.js';
import { Section } from '../section/section.entity.js';
import { type SheetLayout, writeCsv, writeXlsx } from '../spreadsheet/sheet-writer.js';
import { enabledWorkflows, type GoverningWorkflow, statesOf } from '../workflow/workflow-effects.js';
import { seenTermSql, unseenStates } from '../workflow/workflow-visibility.js';
import {
  CROSS_REFERENCE,
  type FieldParts,
  languageTag,
  type Provenance,
  SUBJECT_FIELD,
  tbxCategoryOf,
  tbxValuesOf,
} from './tbx-mapping.js';
import type { TbxEntry, TbxLanguageSection, TbxTransaction, TbxValue } from './tbx-model.js';
import { GENERATED_ID, originalIdValue } from './tbx-original-ids.js';
import { type TbxProfile, type TbxReportExample, writeTbx } from './tbx-writer.js';

const NO_TENANT = { tenant: false } as const;
/** Concepts read per query. */
const BATCH_SIZE = 500;

/**
 * TBX: TBX-Basic v3 DCA; TBX_V2: TBX-Basic v2 (martif); TBX_V3_FULL and TBX_V2_FULL: every field of the
 * dictionary under its own category, valid against the core structure (docs/tbx.md, Dialects).
 */
export const TbxExportFormats = [
  'TBX',
  'TBX_V2',
  'TBX_V3_FULL',
  'TBX_V2_FULL',
  'MULTITERM_XML',
  'CSV',
  'XLSX',
] as const;
export type TbxExportFormat = (typeof TbxExportFormats)[number];

const FORMAT_DIALECTS: Record<TbxExportFormat, { dialect: 'TBX_V3_DCA' | 'TBX_V2'; profile: TbxProfile }> = {
  TBX: { dialect: 'TBX_V3_DCA', profile: 'basic' },
  TBX_V2: { dialect: 'TBX_V2', profile: 'basic' },
  TBX_V3_FULL: { dialect: 'TBX_V3_DCA', profile: 'full' },
  TBX_V2_FULL: { dialect: 'TBX_V2', profile: 'full' },
  // MultiTerm XML (multiterm/mtf-writer.ts) is written from the entries of the full dialect.
  MULTITERM_XML: { dialect: 'TBX_V3_DCA', profile: 'full' },
  // Spreadsheets (spreadsheet/sheet-writer.ts): one concept a row, from the same entries.
  CSV: { dialect: 'TBX_V3_DCA', profile: 'full' },
  XLSX: { dialect: 'TBX_V3_DCA', profile: 'full' },
};

/** A download's pieces: text, or bytes for XLSX. */
export type ExportChunk = string | Uint8Array;

export interface TbxExportInput {
  id: number;
  format: TbxExportFormat;
  /** Language codes (ISO 639-2 or 639-1, or a custom language's code); empty: all. */
  languages: readonly string[];
  /** Field oids; empty: all. */
  fields: readonly string[];
  filterId?: number;
  /** Workflow (docs/workflows.md): also terms of unpublished entries, which are left out by default. */
  includeUnpublished?: boolean;
}

export interface TbxDownload {
  fileName: string;
  /** The document, produced as it is read (pull to continue). */
  chunks: AsyncIterable<ExportChunk>;
  /**
   * Once the chunks are consumed: what the file could not express (TBX-Basic: `written as note: …`,
   * `mapped: …`; every dialect: concepts without terms) -> count. The document ends with it as a comment.
   */
  report?: Map<string, number>;
  /** Once the chunks are consumed: a bounded list of the report's values, where they were. */
  examples?: TbxReportExample[];
  /** Once the chunks are consumed: the concepts and terms written. */
  written?: { concepts: number; terms: number };
  /** The dictionary and format, for the job that records the download (tbx-export-job.ts). */
  dictionaryId?: number;
  format?: TbxExportFormat;
}

interface ExportField {
  oid: string;
  level: FieldLevel;
  category: string;
  /** Picklist item names -> TBX names, so a value stored by its display name is written the TBX way. */
  tbxNames: Map<string, string>;
  /** Language-level in TBX-Basic: shared by every term of a language, it is written once on langSec. */
  languageLevel: boolean;
  /** The element an import read the field's values in (GENERIC fields only), kept by the full dialects. */
  element: string;
}

interface ExportPlan {
  dictionaryId: number;
  sectionIds: number[];
  fields: ExportField[];
  /** Language code (lower case) -> code and ISO 639-1 code, for xml:lang. */
  languages: Map<string, { code: string; code2: string | null; sortIndex: number }>;
  conceptWhere: Sql[];
  termWhere: Sql[];
  /** Concepts without a term left are not written (languages were restricted). */
  needsTerms: boolean;
  /** Oids held by more than one concept or term of the dictionary: not usable as XML ids. */
  repeatedOids: Set<string>;
  /** The dictionary's enabled workflow: each term's processStatus is its entry state's. */
  workflow: GoverningWorkflow | null;
  /** TBX-Basic: a term-level definition every term holds alike is written on langSec. */
  basic: boolean;
}

/**
 * Checks the caller may export (CONCEPT_EXPORT in at least one section, or administration) and the
 * parameters (400 naming an unknown language, field or filter), then answers the lazily produced file.
 */
export async function exportTbx(scope: Scope, input: TbxExportInput): Promise<TbxDownload> {
  const dictionary = await readableDictionary(scope, input.id);
  if (dictionary.client.id !== scope.actor.clientId) throw notFound('Dictionary', input.id);
  const sections = await scope.em.find(Section, { dictionary: dictionary.id }, { filters: NO_TENANT });
  const admin = isDictionaryAdmin(scope.actor, dictionary);
  const permissions = admin ? undefined : (await dictionaryPermissions(scope, [dictionary.id]))[0];
  const sectionIds = sections
    .filter((s) => admin || permissions?.sectionPermissions[String(s.id)]?.CONCEPT_EXPORT)
    .map((s) => s.id);
  if (sectionIds.length === 0) {
    throw new AppError('FORBIDDEN', 'You may not export concepts of this dictionary (CONCEPT_EXPORT)');
  }

  const { fields, items } = await fieldsOf(scope.em, [dictionary.id]);
  for (const oid of input.fields) {
    if (!fields.some((field) => field.oid === oid)) {
      throw new AppError('BAD_REQUEST', `fields: "${oid}" is not a field of dictionary ${dictionary.id}`);
    }
  }
  const exported = fields
    .filter((field) => field.oid && (input.fields.length === 0 || input.fields.includes(field.oid)))
    .map((field): ExportField => {
      const tbxNames = new Map<string, string>();
      for (const item of items) {
        if (item.field.id === field.id && item.name && item.tbxName) tbxNames.set(item.name, item.tbxName);
      }
      return {
        oid: field.oid!,
        level: field.level,
        category: tbxCategoryOf(field),
        tbxNames,
        languageLevel: field.level === 'TERM' && field.dataCategory === 'DEFINITION',
        element: field.tbxElement ?? '',
      };
    });

  const { languages } = await languagesOf(scope.em, [dictionary.id]);
  const languageMap = new Map(
    languages.map((language) => [
      language.code.toLowerCase(),
      { code: language.code, code2: language.code2 ?? null, sortIndex: language.sortIndex },
    ]),
  );
  const conceptWhere: Sql[] = [];
  const termWhere: Sql[] = [];
  if (input.languages.length) {
    const codes = input.languages.map((code) => {
      const wanted = code.trim().toLowerCase();
      const language = languages.find((l) =>
        [l.code, l.code2, l.code3].some((c) => c?.toLowerCase() === wanted),
      );
      if (!language) {
        throw new AppError(
          'BAD_REQUEST',
          `languages: "${code}" is not a language of dictionary ${dictionary.id}`,
        );
      }
      return language.code;
    });
    termWhere.push({ text: 't.language_code in (?)', params: [codes] });
  }
  if (input.filterId !== undefined) {
    // FULL answers every member; the type leaves them optional for the other formats.
    const filter: { id: number; dictionaryId?: number; criteria?: FilterCriteria } = await getFilter(
      scope,
      input.filterId,
      'FULL',
      false,
    );
    if (filter.dictionaryId !== dictionary.id || !filter.criteria) {
      throw new AppError('BAD_REQUEST', `filter-id: filter ${input.filterId} belongs to another dictionary`);
    }
    await criteriaSql(scope.em, dictionary.id, filter.criteria, conceptWhere, termWhere);
  }
  const workflow = (await enabledWorkflows(scope.em, [dictionary.id])).get(dictionary.id) ?? null;
  const seen = workflow ? seenTermSql(workflow, await exportedStates(scope, workflow, input)) : null;
  if (seen) termWhere.push(seen);
  const plan: ExportPlan = {
    dictionaryId: dictionary.id,
    sectionIds,
    fields: exported,
    languages: languageMap,
    conceptWhere,
    termWhere,
    needsTerms: termWhere.length > 0,
    repeatedOids: await repeatedOids(scope.em, dictionary.id),
    workflow,
    basic: FORMAT_DIALECTS[input.format].profile === 'basic',
  };
  const sourceLanguage = [...languageMap.values()].sort((a, b) => a.sortIndex - b.sortIndex)[0];
  const header = {
    ...FORMAT_DIALECTS[input.format],
    sourceLang: sourceLanguage ? languageTag(sourceLanguage, null, null) : null,
    title: dictionary.name,
  };
  const report = new Map<string, number>();
  const examples: TbxReportExample[] = [];
  const written = { concepts: 0, terms: 0 };
  // Characters file systems refuse (and control characters) become `_`.
  const safeName =
    [...dictionary.name]
      .map((char) => (char < ' ' || '\\/:*?"<>|'.includes(char) ? '_' : char))
      .join('')
      .trim() || 'dictionary';
  const entries = counted(conceptEntries(scope.em.fork(), plan), written);
  const writers: Record<TbxExportFormat, () => AsyncIterable<ExportChunk>> = {
    ...fromEntries(
      TbxExportFormats.map((format) => [format, () => writeTbx(header, entries, { report, examples })]),
    ),
    MULTITERM_XML: () => writeMtf(entries, { report, examples }),
    CSV: () => writeCsv(sheetLayout(plan, languages), entries, report),
    XLSX: () => writeXlsx(sheetLayout(plan, languages), entries, dictionary.name, report),
  };
  return {
    fileName: `${safeName}.${EXTENSIONS[input.format] ?? 'tbx'}`,
    // Cross-references are only written to concepts of the export, by their XML ids.
    chunks: writers[input.format](),
    report,
    examples,
    written,
    dictionaryId: dictionary.id,
    format: input.format,
  };
}

const EXTENSIONS: Partial<Record<TbxExportFormat, string>> = {
  MULTITERM_XML: 'xml',
  CSV: 'csv',
  XLSX: 'xlsx',
};
const fromEntries = <V>(pairs: [TbxExportFormat, V][]) =>
  Object.fromEntries(pairs) as Record<TbxExportFormat, V>;

/**
 * A spreadsheet's columns: the dictionary's languages in order, its concept and term fields' categories
 * (domains and cross-references are columns or report lines of their own), the workflow's processStatus,
 * and definitions held by a language as a whole.
 */
function sheetLayout(
  plan: ExportPlan,
  languages: { code: string; code2?: string | null; sortIndex: number }[],
): SheetLayout {
  const unique = (values: string[]) => [...new Set(values)];
  const of = (level: FieldLevel) =>
    unique(plan.fields.filter((field) => field.level === level).map((field) => field.category)).filter(
      (category) => category !== SUBJECT_FIELD && category !== CROSS_REFERENCE,
    );
  const termCategories = of('TERM');
  return {
    languages: [...languages]
      .sort((a, b) => a.sortIndex - b.sortIndex)
      .map((language) => languageTag({ code: language.code, code2: language.code2 ?? null }, null, null)),
    conceptCategories: of('CONCEPT'),
    termCategories: plan.workflow ? ['processStatus', ...termCategories] : termCategories,
    languageCategories: termCategories.filter((category) => category === 'definition'),
  };
}

/**
 * The states whose terms the export leaves out: the unpublished ones, unless `includeUnpublished`,
 * which only callers who review in the workflow may ask for (403 for others, as the same terms are
 * invisible to them everywhere else: workflow-visibility.ts).
 */
async function exportedStates(
  scope: Scope,
  workflow: GoverningWorkflow,
  input: TbxExportInput,
): Promise<string[]> {
  if (!input.includeUnpublished) {
    return workflow.definition.states.filter((state) => state.unpublished).map((state) => state.key);
  }
  if ((await unseenStates(scope, workflow)).length) {
    throw new AppError(
      'FORBIDDEN',
      'include-unpublished: only users who review in the dictionary’s workflow may export unpublished entries',
    );
  }
  return [];
}

/** Counts the entries (with a term: the others are not written) and terms handed to the writer. */
async function* counted(entries: AsyncIterable<TbxEntry>, written: { concepts: number; terms: number }) {
  for await (const entry of entries) {
    const terms = entry.languages.reduce((sum, section) => sum + section.terms.length, 0);
    if (terms > 0) {
      written.concepts++;
      written.terms += terms;
    }
    yield entry;
  }
}

/** Oids that two or more live concepts or terms of the dictionary share (one query for the export). */
async function repeatedOids(em: EntityManager, dictionaryId: number): Promise<Set<string>> {
  const rows = await em.execute<{ oid: string }[]>(
    `select oid from (
       select oid from concepts where dictionary_id = ? and not deleted and oid is not null
       union all select oid from terms where dictionary_id = ? and not deleted and oid is not null
     ) ids group by oid having count(*) > 1`,
    [dictionaryId, dictionaryId],
  );
  return new Set(rows.map((row) => row.oid));
}

/** An XML NCName (xsd:ID): a letter or `_` first, then letters, digits, marks, `.`, `-`, `_`. */
const XML_ID = /^[\p{L}_][\p{L}\p{N}\p{M}._-]*$/u;

/**
 * The XML id of a concept or term: its oid when that is a valid, unrepeated XML id (not of our own
 * generated form), else `concept-<id>` / `term-<id>` (a term without an oid gets none).
 */
function xmlIdOf(plan: ExportPlan, kind: 'concept' | 'term', row: { id: number; oid: string | null }) {
  const own = `${kind}-${row.id}`;
  const oid = row.oid;
  if (oid === null) return kind === 'concept' ? own : null;
  const usable = oid === own || (XML_ID.test(oid) && !plan.repeatedOids.has(oid) && !GENERATED_ID.test(oid));
  return usable ? oid : own;
}

/** The oid as a value of its own when the XML id cannot be it, so that an import restores it. */
const originalIdOf = (xmlId: string | null, oid: string | null): TbxValue[] =>
  oid !== null && oid !== xmlId ? [originalIdValue(oid)] : [];

// ---------------------------------------------------------------- reading concepts

interface ConceptRow {
  id: number;
  oid: string | null;
  field_map: Record<string, string[]>;
  /** How imported values were made: their separate values and links (tbx-mapping.ts). */
  field_parts: FieldParts;
  provenance: Provenance | null;
  created_at: Date;
  changed_at: Date;
  created_by: string | null;
  changed_by: string | null;
}

interface TermRow extends ConceptRow {
  concept_id: number;
  name: string;
  language_code: string;
  region_code: string | null;
  script_code: string | null;
}

/** The concepts of the plan, in id order, a batch per query (keyset: id > last). */
async function* conceptEntries(em: EntityManager, plan: ExportPlan): AsyncGenerator<TbxEntry> {
  const conceptFilter = andSql(plan.conceptWhere);
  const termFilter = andSql(plan.termWhere);
  // A concept is written when it has a term left, if languages were restricted.
  const hasTerm: Sql = plan.needsTerms
    ? {
        text: ` and exists (select 1 from terms t where t.concept_id = c.id and not t.deleted${termFilter.text})`,
        params: termFilter.params,
      }
    : { text: '', params: [] };
  let after = 0;
  for (;;) {
    const concepts = await em.execute<ConceptRow[]>(
      `select c.id, c.oid, c.field_map, c.field_parts, c.provenance, c.created_at, c.changed_at, cu.username as created_by, mu.username as changed_by
         from concepts c left join users cu on cu.id = c.created_by_id left join users mu on mu.id = c.changed_by_id
        where c.dictionary_id = ? and not c.deleted and c.section_id in (?) and c.id > ?${conceptFilter.text}${hasTerm.text}
        order by c.id limit ${BATCH_SIZE}`,
      [plan.dictionaryId, plan.sectionIds, after, ...conceptFilter.params, ...hasTerm.params],
    );
    if (concepts.length === 0) return;
    after = concepts[concepts.length - 1]!.id;
    const ids = concepts.map((concept) => concept.id);
    const terms = await em.execute<TermRow[]>(
      `select t.id, t.oid, t.concept_id, t.name, t.language_code, t.region_code, t.script_code, t.field_map, t.field_parts, t.provenance,
              t.created_at, t.changed_at, cu.username as created_by, mu.username as changed_by
         from terms t left join users cu on cu.id = t.created_by_id left join users mu on mu.id = t.changed_by_id
        where t.concept_id in (?) and not t.deleted${termFilter.text}
        order by t.concept_id, t.id`,
      [ids, ...termFilter.params],
    );
    const domains = await em.execute<{ concept_id: number; name: string }[]>(
      `select cd.concept_id, d.name from concept_domains cd join domains d on d.id = cd.domain_id
        where cd.concept_id in (?) and not d.deleted order by cd.concept_id, d.sort_index, d.id`,
      [ids],
    );
    // One relation row shows on both concepts: it is written once, as the source's cross-reference,
    // when its target concept is exported too (a target must be an id of the file).
    const relations = await em.execute<
      { source_concept_id: number; text: string | null; id: number; oid: string | null }[]
    >(
      `select r.source_concept_id, r.text, c.id, c.oid from concept_relations r join concepts c on c.id = r.target_concept_id
        where r.source_concept_id in (?) and not c.deleted and c.section_id in (?)${conceptFilter.text}${hasTerm.text}
        order by r.relation_id`,
      [ids, plan.sectionIds, ...conceptFilter.params, ...hasTerm.params],
    );
    const byConcept = <T extends { concept_id: number }>(rows: readonly T[]) => {
      const map = new Map<number, T[]>();
      for (const row of rows) map.set(row.concept_id, [...(map.get(row.concept_id) ?? []), row]);
      return map;
    };
    const processStatusOf = await processStatuses(em, plan, terms);
    const languageFields = await languageFieldsOf(em, ids);
    const languageParts = await languagePartsOf(em, ids);
    const termsOf = byConcept(terms);
    const domainsOf = byConcept(domains);
    const relationsOf = byConcept(relations.map((r) => ({ ...r, concept_id: r.source_concept_id })));
    for (const concept of concepts) {
      yield entryOf(
        plan,
        concept,
        termsOf.get(concept.id) ?? [],
        domainsOf.get(concept.id) ?? [],
        relationsOf.get(concept.id) ?? [],
        processStatusOf,
        (languageFields.get(concept.id) ?? []).map((fields) => ({
          ...fields,
          fieldParts: languageParts.get(`${concept.id}|${tagKey(fields)}`) ?? {},
        })),
      );
    }
  }
}

function valuesOf(
  plan: ExportPlan,
  level: FieldLevel,
  fieldMap: Record<string, string[]>,
  fieldParts: FieldParts,
): TbxValue[] {
  return plan.fields
    .filter((field) => field.level === level)
    .flatMap((field) =>
      (fieldMap[field.oid] ?? []).flatMap((value) =>
        tbxValuesOf(field.category, value, field.tbxNames, field.element, fieldParts[field.oid]),
      ),
    );
}

/** The parts of the concepts' language fields, by `conceptId|tag` (one query; most rows have none). */
async function languagePartsOf(em: EntityManager, ids: readonly number[]): Promise<Map<string, FieldParts>> {
  const rows = await em.execute<
    {
      concept_id: number;
      language_code: string;
      region_code: string | null;
      script_code: string | null;
      field_parts: FieldParts;
    }[]
  >(
    `select concept_id, language_code, region_code, script_code, field_parts from concept_language_fields
      where concept_id in (?) and field_parts <> '{}'::jsonb`,
    [[...ids]],
  );
  return new Map(
    rows.map((row) => [
      `${row.concept_id}|${tagKey({ languageCode: row.language_code, regionCode: row.region_code, scriptCode: row.script_code })}`,
      row.field_parts,
    ]),
  );
}

/**
 * Who created and changed a concept or term: the file's people where an import kept them (the
 * modifier while the row was not changed since), else the users.
 */
function transactionsOf(row: ConceptRow): TbxTransaction[] {
  const changedAt = new Date(row.changed_at);
  const fileModifier =
    row.provenance?.changedAt !== undefined &&
    new Date(row.provenance.changedAt).getTime() === changedAt.getTime()
      ? row.provenance.changedBy
      : undefined;
  return [
    {
      kind: 'created',
      date: new Date(row.created_at),
      responsibility: row.provenance?.createdBy ?? row.created_by,
    },
    { kind: 'changed', date: changedAt, responsibility: fileModifier ?? row.changed_by },
  ];
}

function entryOf(
  plan: ExportPlan,
  concept: ConceptRow,
  terms: readonly TermRow[],
  domains: readonly { name: string }[],
  relations: readonly { text: string | null; id: number; oid: string | null }[],
  processStatusOf: ReadonlyMap<number, string | null> | null,
  languageFields: readonly (LanguageFieldsDto & { fieldParts: FieldParts })[],
): TbxEntry {
  const conceptId = xmlIdOf(plan, 'concept', concept);
  const values: TbxValue[] = [
    ...originalIdOf(conceptId, concept.oid),
    ...valuesOf(plan, 'CONCEPT', concept.field_map, concept.field_parts),
    ...domains.map((domain) => ({ category: SUBJECT_FIELD, element: 'descrip', value: domain.name })),
    ...relations.map((relation) => {
      const target = xmlIdOf(plan, 'concept', relation)!;
      return { category: CROSS_REFERENCE, element: 'ref', value: relation.text ?? target, target };
    }),
  ];
  // Language sections in the order of their first term, so an import creates the terms in this order.
  const sections = new Map<string, TbxLanguageSection>();
  for (const row of terms) {
    const language = plan.languages.get(row.language_code.toLowerCase());
    const lang = languageTag(
      language ?? { code: row.language_code, code2: null },
      row.region_code,
      row.script_code,
    );
    let section = sections.get(lang);
    if (!section) {
      section = { lang, values: [], terms: [] };
      sections.set(lang, section);
    }
    // A term without an oid is written without id: a merge finds it by language and text.
    const termId = xmlIdOf(plan, 'term', row);
    section.terms.push({
      id: termId,
      term: row.name,
      values: [
        ...originalIdOf(termId, row.oid),
        ...withProcessStatus(valuesOf(plan, 'TERM', row.field_map, row.field_parts), processStatusOf, row.id),
      ],
      transactions: transactionsOf(row),
      line: 0,
    });
  }
  // The concept's language fields go on the section of their language tag (one with a term: a section
  // needs one; without, they are not written, like a language the export leaves out).
  for (const fields of languageFields) {
    const language = plan.languages.get(fields.languageCode.toLowerCase());
    const lang = languageTag(
      language ?? { code: fields.languageCode, code2: null },
      fields.regionCode,
      fields.scriptCode,
    );
    sections.get(lang)?.values.push(...valuesOf(plan, 'TERM', fields.fieldMap, fields.fieldParts));
  }
  if (plan.basic) for (const section of sections.values()) hoistLanguageValues(plan, section);
  return {
    id: conceptId,
    values,
    transactions: transactionsOf(concept),
    languages: [...sections.values()],
    line: 0,
  };
}

/**
 * Under a workflow, the processStatus of each term's entry state by term id (null: the state has none),
 * read for the whole batch in one statement; null without a workflow (stored values are written as is).
 */
async function processStatuses(
  em: EntityManager,
  plan: ExportPlan,
  terms: readonly TermRow[],
): Promise<Map<number, string | null> | null> {
  if (!plan.workflow) return null;
  const states = await statesOf(
    em,
    terms.map((row) => ({
      dictionaryId: plan.dictionaryId,
      conceptId: row.concept_id,
      languageCode: row.language_code,
      termId: row.id,
    })),
    new Map([[plan.dictionaryId, plan.workflow]]),
  );
  return new Map(terms.map((row, index) => [row.id, states[index]?.state.processStatus ?? null]));
}

/** A term's values with its state's processStatus instead of any stored one (under a workflow). */
function withProcessStatus(
  values: TbxValue[],
  processStatusOf: ReadonlyMap<number, string | null> | null,
  termId: number,
): TbxValue[] {
  if (!processStatusOf) return values;
  const kept = values.filter((value) => value.category.toLowerCase() !== 'processstatus');
  const status = processStatusOf.get(termId);
  return status ? [{ category: 'processStatus', element: 'termNote', value: status }, ...kept] : kept;
}

/**
 * A definition every term of a language holds alike is the language's definition (TBX-Basic puts it
 * on langSec): written there once, in TBX-Basic (which has no term-level definition). An import keeps a
 * langSec value as the concept's language field.
 */
function hoistLanguageValues(plan: ExportPlan, section: TbxLanguageSection) {
  for (const field of plan.fields.filter((f) => f.languageLevel)) {
    const per = section.terms.map((term) =>
      term.values.filter((v) => v.category === field.category).map((v) => v.value),
    );
    const first = per[0];
    if (!first?.length || per.some((list) => list.join('\u0000') !== first.join('\u0000'))) continue;
    for (const term of section.terms) term.values = term.values.filter((v) => v.category !== field.category);
    // A language field may hold the same definition already.
    const held = new Set(section.values.filter((v) => v.category === field.category).map((v) => v.value));
    section.values.push(
      ...first
        .filter((value) => !held.has(value))
        .map((value) => ({ category: field.category, element: 'descrip', value })),
    );
  }
}
