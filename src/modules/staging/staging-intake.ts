/**
 * An import into a staging area (docs/staging.md): the import's run reads and plans every entry as it
 * would for writing, finds the concept the merge would take it into (mergeTargets, the import's own
 * rule), and keeps the entry as a PENDING staged entry instead. The dictionary is left as it is: no
 * fields, languages, domains, relations or states are made until an entry is accepted.
 */
import type { ImportSummary } from '../../shared/common.schema.js';
import type { JobProgress } from '../jobs/job-runner.js';
import { type ImportContext, sql } from '../tbx/tbx-import-context.js';
import { mergeTargets } from '../tbx/tbx-import-merge.js';
import { type PlannedConcept, planEntry } from '../tbx/tbx-import-plan.js';
import type { ImportSource } from '../tbx/tbx-import-run.js';
import { ImportStructure } from '../tbx/tbx-import-structure.js';
import { ImportWorkflow } from '../tbx/tbx-import-workflow.js';
import type { TbxEntry } from '../tbx/tbx-model.js';

const BATCH_SIZE = 500;

/** Where staged entries came from. */
export interface StagingOrigin {
  areaId: number;
  format: string | null;
  fileName: string | null;
  jobId: number | null;
}

/** What the list shows of a staged entry without opening it: a label, its languages, its terms' text. */
export function entryFacts(planned: Pick<PlannedConcept, 'terms'>) {
  const terms = planned.terms;
  const label = terms
    .slice(0, 3)
    .map((term) => `${term.languageCode}: ${term.name}`)
    .join('; ');
  return {
    label: label.length > 255 ? `${label.slice(0, 254)}…` : label,
    languages: [...new Set(terms.map((term) => term.languageCode))].sort(),
    termsText: terms.map((term) => term.name.toLowerCase()).join('\n'),
  };
}

/** A link of a staged entry to another entry by its id in the file (SKOS: the other concept's IRI). */
export interface StagedLink {
  kind: 'broader' | 'narrower' | 'related';
  target: string;
}

/** One staged entry to insert. */
export interface StagedRow {
  entry: TbxEntry;
  planned: PlannedConcept;
  target: number | null;
  comment?: string | null;
  source: 'IMPORT' | 'SUGGESTION';
  links?: StagedLink[] | null;
}

/** Inserts staged entries in one statement; answers their ids in order. */
export async function insertStaged(
  ctx: ImportContext,
  origin: StagingOrigin,
  rows: readonly StagedRow[],
): Promise<number[]> {
  if (rows.length === 0) return [];
  const records = rows.map((row, index) => ({
    ord: index,
    source: row.source,
    line: row.entry.line || null,
    entry_id: row.entry.id?.slice(0, 255) ?? null,
    target: row.target,
    comment: row.comment ?? null,
    entry: row.entry,
    links: row.links?.length ? row.links : null,
    ...(({ label, languages, termsText }) => ({ label, languages, terms_text: termsText }))(
      entryFacts(row.planned),
    ),
  }));
  const inserted = await sql<{ id: number }[]>(
    ctx.em,
    `insert into staged_entries (client_id, staging_area_id, dictionary_id, source, format, import_job_id,
       file_name, line, entry_id, target_concept_id, merge, label, languages, terms_text, comment, entry, links, created_by_id)
     select ?, ?, ?, x.source, ?, ?, ?, x.line, x.entry_id, x.target, ?, x.label,
            array(select jsonb_array_elements_text(x.languages)), x.terms_text, x.comment, x.entry, x.links, ?
       from jsonb_to_recordset(?::jsonb) as x(ord int, source text, line int, entry_id text, target int,
            label text, languages jsonb, terms_text text, comment text, entry jsonb, links jsonb)
      order by x.ord
     returning id`,
    [
      ctx.clientId,
      origin.areaId,
      ctx.dictionaryId,
      origin.format,
      origin.jobId,
      origin.fileName?.slice(0, 255) ?? null,
      ctx.merge,
      ctx.scope.actor.userId,
      JSON.stringify(records),
    ],
  );
  return inserted.map((row) => row.id);
}

/**
 * Stages a source's entries (inside the import job's transaction): planned against the dictionary's
 * structure as it is, each with the concept the merge would take it into. The summary counts the
 * staged entries as `concepts`, those with a target as `updated`, their terms as `terms`.
 */
export async function stageEntries<T>(
  ctx: ImportContext,
  source: ImportSource<T>,
  progress: JobProgress,
  origin: StagingOrigin,
): Promise<ImportSummary> {
  const structure = await ImportStructure.load(ctx, source.nordic);
  await source.prepare?.(structure);
  ctx.workflow = await ImportWorkflow.load(ctx);
  await progress(0, source.total);
  let processed = 0;
  let batch: { entry: TbxEntry; planned: PlannedConcept; links: StagedLink[] | null }[] = [];
  const flush = async () => {
    const targets = await mergeTargets(
      ctx,
      batch.map((item) => item.planned),
    );
    const rows = batch.map(({ entry, planned, links }) => ({
      entry,
      planned,
      links,
      target: targets.get(planned) ?? null,
      source: 'IMPORT' as const,
    }));
    await insertStaged(ctx, origin, rows);
    ctx.summary.concepts += rows.length;
    ctx.summary.updated += rows.filter((row) => row.target !== null).length;
    ctx.summary.terms += rows.reduce((sum, row) => sum + row.planned.terms.length, 0);
    processed += batch.length;
    batch = [];
    await progress(processed, source.total);
  };
  for await (const item of source.items) {
    const entry = source.entryOf(item);
    const planned = planEntry(ctx, structure, entry);
    if (planned.terms.length === 0) {
      ctx.error(entry.line, 'The entry has no term; not staged');
      ctx.summary.skipped++;
      continue;
    }
    batch.push({ entry, planned, links: source.links?.(item) ?? null });
    if (batch.length >= BATCH_SIZE) await flush();
  }
  if (batch.length) await flush();
  await progress(source.total, source.total);
  return { dictionaryId: ctx.dictionaryId, ...ctx.summary, errors: ctx.errors, errorCount: ctx.errorCount };
}
