/**
 * TBX export (docs/tbx.md): a dictionary's live concepts in id order, read in keyset batches and handed
 * to writeTbx as TbxEntry objects, so the document streams out and memory holds one batch. Languages,
 * fields and a filter's criteria restrict what is written; only sections with CONCEPT_EXPORT are read.
 * The plan and its types are in tbx-export-plan.ts, the batch reader in tbx-export-batches.ts, the
 * entry builder in tbx-export-entry.ts.
 */
import { withStatementTimeout } from '../../db/timeouts.js';
import { AppError, notFound } from '../../shared/errors.js';
import type { Scope } from '../../shared/scope.js';
import { dictionaryPermissions, isDictionaryAdmin } from '../access/access.service.js';
import { readableDictionary } from '../dictionary/dictionary-access.js';
import { fieldsOf } from '../field/field.service.js';
import { getFilter } from '../filter/filter.service.js';
import type { FilterCriteria } from '../filter/filter-criteria.js';
import { criteriaSql, type Sql } from '../filter/filter-sql.js';
import { languagesOf } from '../language/language.service.js';
import { writeMtf } from '../multiterm/mtf-writer.js';
import { Section } from '../section/section.entity.js';
import { sheetLayout, synonymColumns } from '../spreadsheet/sheet-layout.js';
import { writeCsv, writeXlsx } from '../spreadsheet/sheet-writer.js';
import { enabledWorkflows } from '../workflow/workflow-effects.js';
import { seenTermSql } from '../workflow/workflow-visibility.js';
import { conceptEntries } from './tbx-export-batches.js';
import {
  type ExportChunk,
  type ExportField,
  type ExportPlan,
  exportedStates,
  FORMAT_DIALECTS,
  repeatedOids,
  type TbxDownload,
  type TbxExportFormat,
  type TbxExportInput,
} from './tbx-export-plan.js';
import { languageTag, tbxCategoryOf } from './tbx-mapping.js';
import type { TbxEntry } from './tbx-model.js';
import { storedStatusMapping } from './tbx-settings.js';
import { effectiveMapping, isDefaultMapping } from './tbx-status-mapping.js';
import { type TbxReportExample, writeTbx } from './tbx-writer.js';

// The export's callers (router, REST route, job, CLI) take all they need from this file.
export {
  type ExportChunk,
  type TbxDownload,
  type TbxExportFormat,
  TbxExportFormats,
  type TbxExportInput,
} from './tbx-export-plan.js';

const NO_TENANT = { tenant: false } as const;

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
    statusMapping: null,
  };
  const mapping = effectiveMapping(await storedStatusMapping(scope.em, dictionary.id), input.statusMapping);
  if (!isDefaultMapping(mapping)) plan.statusMapping = mapping;
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
  const em = scope.em.fork();
  // One aggregate over the export's terms (seconds for a million): bounded as a job's statements are.
  const columns = () =>
    withStatementTimeout(scope.config.DATABASE_JOB_STATEMENT_TIMEOUT_MS, () => synonymColumns(em, plan));
  const layout = async () =>
    sheetLayout(plan, languages, input.synonyms === 'COLUMNS' ? await columns() : undefined);
  const special: Partial<Record<TbxExportFormat, () => AsyncIterable<ExportChunk>>> = {
    MULTITERM_XML: () => writeMtf(entries, { report, examples }),
    CSV: async function* () {
      yield* writeCsv(await layout(), entries, report);
    },
    XLSX: async function* () {
      yield* writeXlsx(await layout(), entries, dictionary.name, report);
    },
  };
  return {
    fileName: `${safeName}.${EXTENSIONS[input.format] ?? 'tbx'}`,
    // Cross-references are only written to concepts of the export, by their XML ids.
    chunks: special[input.format]?.() ?? writeTbx(header, entries, { report, examples }),
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
