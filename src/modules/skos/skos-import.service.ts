/**
 * SKOS import (docs/exchange.md): the file is read whole first (a file that is no RDF, or holds no
 * skos:Concept, answers 400 and changes nothing), then imported as a job in ONE transaction with the
 * TBX import's machinery: each concept planned as an entry (skos-entries.ts) and written in batches with
 * set-based SQL; the hierarchy once every concept is in. The terms are indexed by the search outbox
 * after the commit.
 */
import type { ImportSummary } from '../../shared/common.schema.js';
import { AppError } from '../../shared/errors.js';
import type { Scope } from '../../shared/scope.js';
import { writeLanguageFields } from '../concept/concept-language-fields.js';
import { type AsyncOutcome, type JobProgress, runAsJob } from '../jobs/job-runner.js';
import { allowLongPendingLists, mergeSearchPendingLists } from '../search/postgres-search.js';
import type { TbxMergeMode, TbxUpload } from '../tbx/tbx-import.service.js';
import { ImportContext, sql } from '../tbx/tbx-import-context.js';
import { mergeConcepts, mergeKeys, mergeTargets } from '../tbx/tbx-import-merge.js';
import { type PlannedConcept, planEntry } from '../tbx/tbx-import-plan.js';
import { prepareRelations } from '../tbx/tbx-import-relations.js';
import { TableStatistics } from '../tbx/tbx-import-statistics.js';
import { ImportStructure } from '../tbx/tbx-import-structure.js';
import { type ImportTarget, importTarget, targetDictionary } from '../tbx/tbx-import-target.js';
import { checkIncremental } from '../tbx/tbx-import-values.js';
import { ImportWorkflow } from '../tbx/tbx-import-workflow.js';
import { createConcepts } from '../tbx/tbx-import-writer.js';
import { mergedParts } from '../tbx/tbx-mapping.js';
import { prepareFileIds, rememberFileIds } from '../tbx/tbx-original-ids.js';
import { entryOf } from './skos-entries.js';
import { BROADER, RELATED, type RelationPair, writeSkosRelations } from './skos-import-relations.js';
import { detectFormat, readSkos, SkosFormatError, type SkosVocabulary } from './skos-reader.js';
import type { SkosFormat } from './skos-writers.js';

export const SKOS_IMPORT_JOB = 'dictionaries.import-skos';
/** Concepts written per batch, as in the TBX import. */
const BATCH_SIZE = 500;

export interface SkosImportOptions {
  /** Absent: from the file name, else from the file's first characters. */
  format?: SkosFormat;
  /** Absent: a new dictionary (client administrators). */
  dictionaryId?: number;
  /** Name of a new dictionary (default: the scheme's title, else the file name). */
  name?: string;
  merge: TbxMergeMode;
  sectionOid?: string;
  /** The status of skos:hiddenLabel terms. */
  hidden: 'FORBIDDEN' | 'DEPRECATED';
}

/**
 * Checks the caller may import there and that the file is SKOS, then imports it as a job. Refusals
 * (403/404, 400 for a file that is no RDF or has no concept, 422 for a taken name) come before the job.
 */
export async function importSkos(
  scope: Scope,
  upload: TbxUpload,
  options: SkosImportOptions,
): Promise<AsyncOutcome> {
  let target: ImportTarget;
  let vocabulary: SkosVocabulary;
  try {
    target = await importTarget(scope, options);
    const format = options.format ?? (await detectFormat(upload.path, upload.fileName));
    vocabulary = await readSkos(upload.path, format);
  } catch (error) {
    await upload.discard();
    if (error instanceof SkosFormatError) throw new AppError('BAD_REQUEST', error.message);
    throw error;
  }
  // The vocabulary is in memory: the file is not needed any more.
  await upload.discard();
  upload.claim();
  const scan = {
    header: { dialect: 'TBX_V3_DCA' as const, sourceLang: null, title: vocabulary.title },
    entries: vocabulary.concepts.length,
    terms: vocabulary.concepts.reduce((sum, c) => sum + c.labels.length, 0),
    nordic: false,
  };
  return runAsJob(scope, SKOS_IMPORT_JOB, (em, progress) =>
    em.transactional(async (tem) => {
      const place = await targetDictionary(scope, tem, target, scan, upload.fileName ?? 'SKOS import');
      const ctx = new ImportContext(scope, tem, place, options.merge);
      return runImport(ctx, vocabulary, options, progress);
    }),
  );
}

/** The import inside its job's transaction: concepts in batches, then the hierarchy and statistics. */
async function runImport(
  ctx: ImportContext,
  vocabulary: SkosVocabulary,
  options: SkosImportOptions,
  progress: JobProgress,
): Promise<ImportSummary> {
  const structure = await ImportStructure.load(ctx, false);
  ctx.workflow = await ImportWorkflow.load(ctx);
  await allowLongPendingLists(ctx.em);
  await prepareRelations(ctx);
  await prepareFileIds(ctx);
  const statistics = new TableStatistics(ctx);
  const total = vocabulary.concepts.length;
  await progress(0, total);
  // The concept each IRI of the file became, for the hierarchy.
  const written = new Map<string, PlannedConcept>();
  let processed = 0;
  let pending: { iri: string; planned: PlannedConcept }[] = [];
  const pendingKeys = new Set<string>();
  const flush = async () => {
    await writeBatch(
      ctx,
      structure,
      pending.map((p) => p.planned),
    );
    for (const { iri, planned } of pending) written.set(iri, planned);
    await statistics.refreshAsTablesGrow();
    processed += pending.length;
    pending = [];
    pendingKeys.clear();
    await progress(processed, total);
  };
  const warn = (message: string) => ctx.error(0, message);
  for (const concept of vocabulary.concepts) {
    const planned = planEntry(ctx, structure, entryOf(concept, options, warn));
    const keys = mergeKeys(ctx.merge, planned);
    if (keys.some((key) => pendingKeys.has(key))) await flush();
    pending.push({ iri: concept.iri, planned });
    for (const key of keys) pendingKeys.add(key);
    if (pending.length >= BATCH_SIZE) await flush();
  }
  if (pending.length) await flush();
  await writeSkosRelations(ctx, await hierarchy(ctx, vocabulary, written));
  if (structure.changed) {
    await sql(ctx.em, 'update dictionaries set structure_changed_at = now() where id = ?', [
      ctx.dictionaryId,
    ]);
  }
  await statistics.refreshAfterImport();
  await mergeSearchPendingLists(ctx.em);
  await progress(total, total);
  return { dictionaryId: ctx.dictionaryId, ...ctx.summary, errors: ctx.errors, errorCount: ctx.errorCount };
}

/**
 * The relation pairs of the file: broader (and the inverse of narrower) first, then related, between
 * concepts of the file or concepts the dictionary already holds under that IRI.
 */
async function hierarchy(
  ctx: ImportContext,
  vocabulary: SkosVocabulary,
  written: Map<string, PlannedConcept>,
): Promise<RelationPair[]> {
  const wanted = new Set<string>();
  for (const concept of vocabulary.concepts) {
    for (const iri of [...concept.broader, ...concept.narrower, ...concept.related]) {
      if (!written.has(iri)) wanted.add(iri);
    }
  }
  const existing = new Map<string, number>();
  if (wanted.size) {
    const rows = await sql<{ id: number; oid: string }[]>(
      ctx.em,
      `select id, oid from concepts where client_id = ? and dictionary_id = ? and not deleted and oid = any(?::text[])`,
      [ctx.clientId, ctx.dictionaryId, [...wanted]],
    );
    for (const row of rows) existing.set(row.oid, row.id);
  }
  const idOf = (iri: string) => written.get(iri)?.writtenId ?? existing.get(iri);
  const broader: RelationPair[] = [];
  const related: RelationPair[] = [];
  for (const concept of vocabulary.concepts) {
    const self = idOf(concept.iri);
    if (self === undefined) continue;
    const link = (kind: string, iri: string, pair: (other: number) => RelationPair, list: RelationPair[]) => {
      const other = idOf(iri);
      if (other === undefined)
        ctx.error(0, `${concept.iri}: skos:${kind} ${iri} is no concept of the file or the dictionary`);
      else list.push(pair(other));
    };
    for (const iri of concept.broader)
      link('broader', iri, (other) => ({ source: self, target: other, ...BROADER }), broader);
    for (const iri of concept.narrower)
      link('narrower', iri, (other) => ({ source: other, target: self, ...BROADER }), broader);
    for (const iri of concept.related)
      link('related', iri, (other) => ({ source: self, target: other, ...RELATED }), related);
  }
  return [...broader, ...related];
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
    else if (updates.has(target)) later.push(planned);
    else updates.set(target, planned);
  }
  await checkIncremental(ctx, structure, fresh, updates);
  await createConcepts(ctx, fresh);
  await mergeConcepts(ctx, updates);
  await rememberFileIds(ctx, [...fresh, ...updates.values()]);
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
