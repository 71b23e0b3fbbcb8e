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
import { attachmentStore } from '../attachment/attachment.service.js';
import { zipBundle } from '../attachment/attachment-bundle.js';
import { exportAttachments } from '../attachment/attachment-tbx.js';
import { readableDictionary } from '../dictionary/dictionary-access.js';
import { fieldsOf } from '../field/field.service.js';
import type { Sql } from '../filter/filter-sql.js';
import { languagesOf } from '../language/language.service.js';
import {
  knownFields,
  MtfDefinitionCollector,
  writeMtfDefinition,
} from '../multiterm/mtf-definition-writer.js';
import { zipMultiTermPackage } from '../multiterm/mtf-package.js';
import { languageName, writeMtf } from '../multiterm/mtf-writer.js';
import { readableProject } from '../project/project-access.js'; // projects
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
import { exportRestriction } from './tbx-export-restriction.js';
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

/** The concepts of a project the caller sees (404 otherwise) whose dictionaries include this one (400). */
async function projectConceptsSql(scope: Scope, projectId: number, dictionaryId: number): Promise<Sql> {
  const { project } = await readableProject(scope, projectId);
  if (!project.dictionary_ids.includes(dictionaryId)) {
    throw new AppError(
      'BAD_REQUEST',
      `project-id: dictionary ${dictionaryId} is not in project ${projectId}`,
    );
  }
  return {
    text: 'c.id in (select concept_id from project_entries where project_id = ?)',
    params: [projectId],
  };
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
  const { languages } = await languagesOf(scope.em, [dictionary.id]);
  const { conceptWhere, termWhere, fieldOids, languageCodes } = await exportRestriction(
    scope,
    dictionary.id,
    input,
    fields,
    languages,
  );
  const exported = fields
    .filter((field) => field.oid && (!fieldOids || fieldOids.has(field.oid)))
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
  const languageMap = new Map(
    languages.map((language) => [
      language.code.toLowerCase(),
      { code: language.code, code2: language.code2 ?? null, sortIndex: language.sortIndex },
    ]),
  );
  if (input.projectId !== undefined)
    conceptWhere.push(await projectConceptsSql(scope, input.projectId, dictionary.id));
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
  const tbxFormat = !['MULTITERM_XML', 'CSV', 'XLSX'].includes(input.format);
  const bundle = Boolean(input.withFiles) && tbxFormat;
  // MultiTerm XML with files: a zip of the XML and its termbase definition (.xdt).
  const mtfPackage = Boolean(input.withFiles) && input.format === 'MULTITERM_XML';
  if (input.withFiles && !tbxFormat && !mtfPackage) {
    throw new AppError('BAD_REQUEST', 'with-files bundles TBX formats and MultiTerm XML only');
  }
  const attachmentOids = fields
    .filter((field) => field.fieldType === 'ATTACHMENT' && exported.some((e) => e.oid === field.oid))
    .map((field) => field.oid!);
  if (attachmentOids.length || bundle) {
    plan.attachments = await exportAttachments(
      scope.em,
      scope.actor.clientId,
      dictionary.id,
      attachmentOids,
      // A MultiTerm package carries its multimedia files as a TBX bundle does (files/<key>/<name>).
      bundle || mtfPackage,
    );
  }
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
  const definition = mtfPackage
    ? new MtfDefinitionCollector(
        dictionary.name,
        knownFields(exported, fields, items),
        [...languageMap.values()]
          .filter((language) => !languageCodes || languageCodes.has(language.code))
          .sort((a, b) => a.sortIndex - b.sortIndex)
          .map((language) => {
            const tag = languageTag(language, null, null);
            return { name: languageName(tag), locale: tag.toUpperCase() };
          }),
      )
    : undefined;
  const special: Partial<Record<TbxExportFormat, () => AsyncIterable<ExportChunk>>> = {
    MULTITERM_XML: () => writeMtf(entries, { report, examples, definition }),
    CSV: async function* () {
      yield* writeCsv(await layout(), entries, report);
    },
    XLSX: async function* () {
      yield* writeXlsx(await layout(), entries, dictionary.name, report);
    },
  };
  const documentName = `${safeName}.${EXTENSIONS[input.format] ?? 'tbx'}`;
  // Cross-references are only written to concepts of the export, by their XML ids.
  const document = special[input.format]?.() ?? writeTbx(header, entries, { report, examples });
  const store = attachmentStore(scope.em.fork());
  const chunks = definition
    ? zipMultiTermPackage(
        safeName,
        document,
        () => writeMtfDefinition(definition.definition()),
        plan.attachments,
        store,
      )
    : bundle && plan.attachments
      ? zipBundle(documentName, document, plan.attachments, store)
      : document;
  return {
    fileName: bundle || definition ? `${safeName}.zip` : documentName,
    chunks,
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
