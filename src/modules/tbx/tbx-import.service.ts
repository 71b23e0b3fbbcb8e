/**
 * TBX import (docs/tbx.md): the uploaded file is parsed once to check it (a malformed file answers 400
 * with its line and changes nothing) and to count its entries, then imported as a job in ONE
 * transaction: a failure anywhere leaves the dictionary as it was. Entries are read as a stream and
 * written in batches with set-based SQL (concepts, terms, domains, history items); cross-references are
 * collected in a temporary table and become relations once the whole file is in.
 */

import { rm } from 'node:fs/promises';
import type { ImportSummary } from '../../shared/common.schema.js';
import type { Scope } from '../../shared/scope.js';
import { writeLanguageFields } from '../concept/concept-language-fields.js';
import { type AsyncOutcome, type JobProgress, runAsJob } from '../jobs/job-runner.js';
import { applyDefinition, fieldTargets, type MtfFieldMapping } from '../multiterm/mtf-field-mapping.js';
import { unpackMultiTermZip, uploadedDefinition } from '../multiterm/mtf-package.js';
import { EarlyIndexer } from '../search/early-indexer.js';
import { allowLongPendingLists, mergeSearchPendingLists } from '../search/postgres-search.js';
import { searchRuntimeOf, TBX_IMPORT_JOB } from '../search/search-runtime.js';
import type { SheetMapping } from '../spreadsheet/sheet-mapping.js';
import { ImportContext, sql } from './tbx-import-context.js';
import { mergeConcepts, mergeKeys, mergeTargets, type TbxMergeMode } from './tbx-import-merge.js';
import { type PlannedConcept, planEntry } from './tbx-import-plan.js';
import { prepareRelations, writeRelations } from './tbx-import-relations.js';
import { TableStatistics } from './tbx-import-statistics.js';
import { ImportStructure } from './tbx-import-structure.js';
import {
  type FileScan,
  type ImportTarget,
  importTarget,
  scanFile,
  targetDictionary,
} from './tbx-import-target.js';
import { checkIncremental } from './tbx-import-values.js';
import { ImportWorkflow } from './tbx-import-workflow.js';
import { createConcepts } from './tbx-import-writer.js';
import { mergedParts } from './tbx-mapping.js';
import { prepareFileIds, rememberFileIds } from './tbx-original-ids.js';
import { storedStatusMapping } from './tbx-settings.js';
import { effectiveMapping, type PartialStatusMapping, type StatusMapping } from './tbx-status-mapping.js';
import { readTermbaseFile } from './termbase-file.js';

/** Entries written per batch: big enough for set-based SQL to pay, small enough for bounded memory. */
const BATCH_SIZE = 500;

// The import's callers (router, REST route, CLI) take all they need from this file.
export { type TbxMergeMode, TbxMergeModes } from './tbx-import-merge.js';

export interface TbxImportOptions {
  /** Absent: a new dictionary (client administrators). */
  dictionaryId?: number;
  /** Name of a new dictionary (default: the file's title). */
  name?: string;
  merge: TbxMergeMode;
  /** Section of the new concepts (default: the dictionary's first). */
  sectionOid?: string;
  /** The file is a spreadsheet (CSV, XLSX) read by this mapping (spreadsheet/, docs/exchange.md). */
  spreadsheet?: SheetMapping;
  /** Administrative statuses -> term statuses, over the dictionary's mapping (tbx-status-mapping.ts). */
  statusMapping?: PartialStatusMapping;
  /** MultiTerm XML: where its fields go (multiterm/mtf-field-mapping.ts). */
  fieldMapping?: MtfFieldMapping;
}

/**
 * An uploaded file on disk, in a directory of its own. The import takes it over (claim) and removes it
 * when its job ends; until then whoever received the upload removes it.
 */
export class TbxUpload {
  private claimedByImport = false;
  /** Other files of the same upload by member name (MultiTerm's termbase definition), in its directory. */
  readonly companions: Record<string, string> = {};
  constructor(
    readonly path: string,
    readonly size: number,
    readonly fileName: string | null,
    private readonly directory: string,
  ) {}

  claim(): void {
    this.claimedByImport = true;
  }

  get claimed(): boolean {
    return this.claimedByImport;
  }

  async discard(): Promise<void> {
    await rm(this.directory, { recursive: true, force: true });
  }
}

/**
 * Checks the caller may import there and that the file is TBX, then imports it as a job. Refusals
 * (403/404, 400 for a malformed file with its line, 422 for a taken name) come before the job starts.
 */
export async function importTbx(
  scope: Scope,
  upload: TbxUpload,
  options: TbxImportOptions,
): Promise<AsyncOutcome> {
  let target: ImportTarget;
  let scan: FileScan;
  try {
    target = await importTarget(scope, options);
    if (!options.spreadsheet) await unpackMultiTermZip(upload);
    const definition = await uploadedDefinition(upload);
    const targets = fieldTargets(options.fieldMapping);
    scan = await scanFile(
      upload.path,
      options.spreadsheet,
      definition || targets ? { definition, targets } : undefined,
    );
  } catch (error) {
    // Removed before the refusal is answered, so nothing of a refused file outlives its request.
    await upload.discard();
    throw error;
  }
  upload.claim();
  return runAsJob(scope, TBX_IMPORT_JOB, async (em, progress) => {
    // A new dictionary is invisible to every search until the commit: its terms are indexed as the
    // import goes (search/early-indexer.ts), not by the outbox afterwards.
    const direct = target.kind === 'new' ? searchRuntimeOf(em).directIndex : null;
    const early: { indexer?: EarlyIndexer; dictionaryId?: number } = {};
    try {
      const summary = await em.transactional(async (tem) => {
        const place = await targetDictionary(scope, tem, target, scan, upload.fileName);
        const ctx = new ImportContext(scope, tem, place, options.merge);
        ctx.statusMapping = await importMapping(ctx, target, options.statusMapping);
        if (direct) {
          early.indexer = new EarlyIndexer(tem, direct, scope.log);
          early.dictionaryId = ctx.dictionaryId;
          ctx.earlyIndexer = early.indexer;
        }
        return runImport(ctx, scan, upload.path, progress);
      });
      await direct?.refresh();
      return summary;
    } catch (error) {
      // Rolled back after Elasticsearch took some of its documents: they name a dictionary that never
      // existed, so no search finds them; they are removed all the same.
      if (direct && (await early.indexer?.abandon())) await direct.forget(em.fork(), early.dictionaryId!);
      throw error;
    } finally {
      await upload.discard();
    }
  });
}

/**
 * The status mapping of the import: the request's statuses over the dictionary's. A dictionary the
 * import makes keeps the request's mapping as its own, so that its exports write the statuses back.
 */
async function importMapping(
  ctx: ImportContext,
  target: ImportTarget,
  requested: PartialStatusMapping | undefined,
): Promise<StatusMapping> {
  if (target.kind === 'new' && requested && Object.keys(requested).length > 0) {
    await sql(
      ctx.em,
      'insert into tbx_settings (dictionary_id, client_id, status_mapping) values (?, ?, ?::jsonb)',
      [ctx.dictionaryId, ctx.clientId, JSON.stringify(requested)],
    );
  }
  return effectiveMapping(await storedStatusMapping(ctx.em, ctx.dictionaryId), requested);
}

/**
 * The import inside its job's transaction: the file is read again entry by entry, each entry planned
 * and written in batches; relations, statistics and search lists once the whole file is in.
 */
async function runImport(
  ctx: ImportContext,
  scan: FileScan,
  path: string,
  progress: JobProgress,
): Promise<ImportSummary> {
  const structure = await ImportStructure.load(ctx, scan.nordic);
  const multiterm = scan.multiterm;
  if (multiterm?.definition) applyDefinition(structure, multiterm.definition, multiterm.targets);
  ctx.workflow = await ImportWorkflow.load(ctx);
  // The search GIN indexes take the import's terms in 4 MB steps; the rest is merged at the end.
  await allowLongPendingLists(ctx.em);
  await prepareRelations(ctx);
  await prepareFileIds(ctx);
  const statistics = new TableStatistics(ctx);
  await progress(0, scan.entries);
  let processed = 0;
  let pending: PlannedConcept[] = [];
  const pendingKeys = new Set<string>();
  const flush = async () => {
    await writeBatch(ctx, structure, pending);
    await statistics.refreshAsTablesGrow();
    processed += pending.length;
    pending = [];
    pendingKeys.clear();
    await progress(processed, scan.entries);
  };
  for await (const entry of readTermbaseFile(path, scan)) {
    const planned = planEntry(ctx, structure, entry);
    // An entry that would merge into one still waiting in this batch waits for that one to be written.
    const keys = mergeKeys(ctx.merge, planned);
    if (keys.some((key) => pendingKeys.has(key))) await flush();
    pending.push(planned);
    for (const key of keys) pendingKeys.add(key);
    if (pending.length >= BATCH_SIZE) await flush();
  }
  if (pending.length) await flush();
  await ctx.earlyIndexer?.finish();
  await writeRelations(ctx);
  if (structure.changed) {
    // History before a structure change cannot be undone; this import's own items stay after it.
    await sql(ctx.em, 'update dictionaries set structure_changed_at = now() where id = ?', [
      ctx.dictionaryId,
    ]);
  }
  await statistics.refreshAfterImport();
  await mergeSearchPendingLists(ctx.em);
  await progress(scan.entries, scan.entries);
  return { dictionaryId: ctx.dictionaryId, ...ctx.summary, errors: ctx.errors, errorCount: ctx.errorCount };
}

/** Writes one batch: the structure it made, then its new concepts and its merges into existing ones. */
async function writeBatch(ctx: ImportContext, structure: ImportStructure, batch: PlannedConcept[]) {
  if (batch.length === 0) return;
  await structure.flush(batch);
  const targets = await mergeTargets(ctx, batch);
  const fresh: PlannedConcept[] = [];
  const updates = new Map<number, PlannedConcept>();
  const later: PlannedConcept[] = [];
  for (const planned of batch) {
    const target = targets.get(planned);
    if (target === undefined) fresh.push(planned);
    // Two entries of one batch meeting the same concept: the second merges after the first is written.
    else if (updates.has(target)) later.push(planned);
    else updates.set(target, planned);
  }
  await checkIncremental(ctx, structure, fresh, updates);
  await createConcepts(ctx, fresh);
  await mergeConcepts(ctx, updates);
  await rememberFileIds(ctx, [...fresh, ...updates.values()]);
  // Language sections' own values: the concepts' language fields (a merge replaces the same fields).
  await writeLanguageFields(
    ctx.em,
    ctx.clientId,
    ctx.dictionaryId,
    [...fresh, ...updates.values()].flatMap((planned) =>
      planned.writtenId === undefined
        ? []
        : planned.languageFields.map((fields) => ({
            conceptId: planned.writtenId!,
            ...fields,
            fieldParts: mergedParts(fields.fieldMap, fields.fieldParts ?? {}),
          })),
    ),
  );
  await ctx.workflow?.write(ctx, [...fresh, ...updates.values()]);
  if (later.length) await writeBatch(ctx, structure, later);
}
