/**
 * What a TBX export is asked for and how it will be read: formats and their dialects, the input, the
 * download it answers, and the plan (sections, fields, languages, conditions) the batches follow.
 */

import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../shared/errors.js';
import type { Scope } from '../../shared/scope.js';
import type { ExportAttachments } from '../attachment/attachment-tbx.js';
import type { FieldLevel } from '../field/field.entity.js';
import type { Sql } from '../filter/filter-sql.js';
import type { GoverningWorkflow } from '../workflow/workflow-effects.js';
import { unseenStates } from '../workflow/workflow-visibility.js';
import type { PartialStatusMapping, StatusMapping } from './tbx-status-mapping.js';
import type { TbxProfile, TbxReportExample } from './tbx-writer.js';

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

export const FORMAT_DIALECTS: Record<
  TbxExportFormat,
  { dialect: 'TBX_V3_DCA' | 'TBX_V2'; profile: TbxProfile }
> = {
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
  /** The caller's saved query: only the concepts its search finds (tbx-export-restriction.ts). */
  savedQueryId?: number | undefined;
  /** Only the concepts of this project (docs/projects.md), which the caller must see. */
  projectId?: number | undefined;
  /** Workflow (docs/workflows.md): also terms of unpublished entries, which are left out by default. */
  includeUnpublished?: boolean;
  /** Administrative statuses -> term statuses, over the dictionary's mapping (tbx-status-mapping.ts). */
  statusMapping?: PartialStatusMapping;
  /** TBX formats: a zip with the document and the attachment files (docs/attachments.md). */
  withFiles?: boolean;
  /** CSV and XLSX: synonyms joined in one cell (default) or in repeated columns. */
  synonyms?: 'JOINED' | 'COLUMNS';
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

export interface ExportField {
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

export interface ExportPlan {
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
  /** The status mapping whose reverse is written; null for the built-in rule (values as stored). */
  statusMapping: StatusMapping | null;
  /** ATTACHMENT fields and their files, written as xGraphic/xSource (attachment-tbx.ts). */
  attachments?: ExportAttachments;
}

/**
 * The states whose terms the export leaves out: the unpublished ones, unless `includeUnpublished`,
 * which only callers who review in the workflow may ask for (403 for others, as the same terms are
 * invisible to them everywhere else: workflow-visibility.ts).
 */
export async function exportedStates(
  scope: Scope,
  workflow: GoverningWorkflow,
  input: Pick<TbxExportInput, 'includeUnpublished'>,
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

/** Oids that two or more live concepts or terms of the dictionary share (one query for the export). */
export async function repeatedOids(em: EntityManager, dictionaryId: number): Promise<Set<string>> {
  const rows = await em.execute<{ oid: string }[]>(
    `select oid from (
       select oid from concepts where dictionary_id = ? and not deleted and oid is not null
       union all select oid from terms where dictionary_id = ? and not deleted and oid is not null
     ) ids group by oid having count(*) > 1`,
    [dictionaryId, dictionaryId],
  );
  return new Set(rows.map((row) => row.oid));
}
