/**
 * The run every import shares (TBX, MultiTerm XML, spreadsheets, SKOS): the job and its ONE transaction,
 * early indexing into a new dictionary, and the loop that plans the source's entries and writes them in
 * batches with set-based SQL. A format gives its entries and what it writes once they are all in
 * (TBX: cross-references; SKOS: the hierarchy).
 */
import type { ImportSummary } from '../../shared/common.schema.js';
import type { Scope } from '../../shared/scope.js';
import { writeLanguageFields } from '../concept/concept-language-fields.js';
import { recordEvent } from '../events/event-log.js';
import { type AsyncOutcome, type JobProgress, runAsJob } from '../jobs/job-runner.js';
import { EarlyIndexer } from '../search/early-indexer.js';
import { allowLongPendingLists, mergeSearchPendingLists } from '../search/postgres-search.js';
import { searchRuntimeOf } from '../search/search-runtime.js';
import { type StagedLink, stageEntries } from '../staging/staging-intake.js';
import { ImportContext, sql } from './tbx-import-context.js';
import { mergeConcepts, mergeKeys, mergeTargets, type TbxMergeMode } from './tbx-import-merge.js';
import { type PlannedConcept, planEntry } from './tbx-import-plan.js';
import { prepareRelations } from './tbx-import-relations.js';
import { TableStatistics } from './tbx-import-statistics.js';
import { ImportStructure } from './tbx-import-structure.js';
import { type FileScan, type ImportTarget, targetDictionary } from './tbx-import-target.js';
import { checkIncremental } from './tbx-import-values.js';
import { ImportWorkflow } from './tbx-import-workflow.js';
import { createConcepts } from './tbx-import-writer.js';
import { mergedParts } from './tbx-mapping.js';
import type { TbxEntry } from './tbx-model.js';
import { prepareFileIds, rememberFileIds } from './tbx-original-ids.js';

/** Entries written per batch: big enough for set-based SQL to pay, small enough for bounded memory. */
const BATCH_SIZE = 500;

/** What an import reads: its entries, and what it writes once they are all in. */
export interface ImportSource<T> {
  items: AsyncIterable<T> | Iterable<T>;
  /** Entries in all, for the progress. */
  total: number;
  /** Nordic language tags (tbx-languages.ts). */
  nordic: boolean;
  /** Runs once the dictionary's structure is loaded, before the first entry (fields a file defines). */
  prepare?(structure: ImportStructure): void | Promise<void>;
  entryOf(item: T): TbxEntry;
  /** Told each entry's plan before it is written (accepting staged entries sets their workflow state). */
  adjust?(planned: PlannedConcept, item: T): void;
  /** Told each item's concept once its batch is written. */
  written?(item: T, planned: PlannedConcept): void;
  /** Links of an item to other entries that the entry model cannot hold (SKOS hierarchy), kept when staged. */
  links?(item: T): StagedLink[];
  /** Runs after the last batch, in the transaction (relations). */
  finish(ctx: ImportContext): Promise<void>;
}

export interface ImportJob<T> {
  type: string;
  target: ImportTarget;
  /** The file's header, for a new dictionary's name. */
  scan: Pick<FileScan, 'header'>;
  fileName: string | null;
  merge: TbxMergeMode;
  /** What the file is (TBX, MULTITERM, SPREADSHEET, SKOS): staged entries say where they came from. */
  format: string;
  /** Removed when the job ends. */
  upload: { discard(): Promise<void> };
  /** Called in the transaction, once the dictionary is there: the source to import. */
  open(ctx: ImportContext): Promise<ImportSource<T>>;
}

/** Runs an import as a job in one transaction; refusals are the caller's, before this is called. */
export function runImportJob<T>(scope: Scope, job: ImportJob<T>): Promise<AsyncOutcome> {
  return runAsJob(scope, job.type, async (em, progress, jobId) => {
    // A new dictionary is invisible to every search until the commit: its terms are indexed as the
    // import goes (search/early-indexer.ts), not by the outbox afterwards.
    const direct = job.target.kind === 'new' ? searchRuntimeOf(em).directIndex : null;
    const early: { indexer?: EarlyIndexer; dictionaryId?: number } = {};
    try {
      const summary = await em.transactional(async (tem) => {
        const place = await targetDictionary(scope, tem, job.target, job.scan, job.fileName);
        const ctx = new ImportContext(scope, tem, place, job.merge);
        if (direct) {
          early.indexer = new EarlyIndexer(tem, direct, scope.log);
          early.dictionaryId = ctx.dictionaryId;
          ctx.earlyIndexer = early.indexer;
        }
        const source = await job.open(ctx);
        // Into a staging area: the entries wait for review there; the dictionary is left as it is.
        const stagingAreaId = job.target.kind === 'existing' ? job.target.stagingAreaId : undefined;
        const summary =
          stagingAreaId !== undefined
            ? await stageEntries(ctx, source, progress, {
                areaId: stagingAreaId,
                format: job.format,
                fileName: job.fileName,
                jobId,
              })
            : await importEntries(ctx, source, progress);
        const { errors: _errors, ...counts } = summary;
        recordEvent(tem, {
          clientId: scope.actor.clientId,
          type: 'import.finished',
          actorId: scope.actor.userId,
          dictionaryId: ctx.dictionaryId,
          data: {
            jobType: job.type,
            fileName: job.fileName,
            ...(stagingAreaId !== undefined ? { stagingAreaId } : {}),
            ...counts,
          },
        });
        return summary;
      });
      await direct?.refresh();
      return summary;
    } catch (error) {
      // Rolled back after Elasticsearch took some of its documents: they name a dictionary that never
      // existed, so no search finds them; they are removed all the same.
      if (direct && (await early.indexer?.abandon())) await direct.forget(em.fork(), early.dictionaryId!);
      throw error;
    } finally {
      await job.upload.discard();
    }
  });
}

/**
 * The import inside its job's transaction: each entry planned and written in batches; the source's
 * own end (relations), statistics and search lists once all are in.
 */
export async function importEntries<T>(
  ctx: ImportContext,
  source: ImportSource<T>,
  progress: JobProgress,
): Promise<ImportSummary> {
  const structure = await ImportStructure.load(ctx, source.nordic);
  await source.prepare?.(structure);
  ctx.workflow = await ImportWorkflow.load(ctx);
  // The search GIN indexes take the import's terms in 4 MB steps; the rest is merged at the end.
  await allowLongPendingLists(ctx.em);
  await prepareRelations(ctx);
  await prepareFileIds(ctx);
  const statistics = new TableStatistics(ctx);
  await progress(0, source.total);
  let processed = 0;
  let pending: { item: T; planned: PlannedConcept }[] = [];
  const pendingKeys = new Set<string>();
  const flush = async () => {
    await writeBatch(
      ctx,
      structure,
      pending.map((p) => p.planned),
    );
    if (source.written) for (const { item, planned } of pending) source.written(item, planned);
    await statistics.refreshAsTablesGrow();
    processed += pending.length;
    pending = [];
    pendingKeys.clear();
    await progress(processed, source.total);
  };
  for await (const item of source.items) {
    const planned = planEntry(ctx, structure, source.entryOf(item));
    source.adjust?.(planned, item);
    // An entry that would merge into one still waiting in this batch waits for that one to be written.
    const keys = mergeKeys(ctx.merge, planned);
    if (keys.some((key) => pendingKeys.has(key))) await flush();
    pending.push({ item, planned });
    for (const key of keys) pendingKeys.add(key);
    if (pending.length >= BATCH_SIZE) await flush();
  }
  if (pending.length) await flush();
  await ctx.earlyIndexer?.finish();
  await source.finish(ctx);
  if (structure.changed) {
    // History before a structure change cannot be undone; this import's own items stay after it.
    await sql(ctx.em, 'update dictionaries set structure_changed_at = now() where id = ?', [
      ctx.dictionaryId,
    ]);
  }
  await statistics.refreshAfterImport();
  await mergeSearchPendingLists(ctx.em);
  await progress(source.total, source.total);
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
