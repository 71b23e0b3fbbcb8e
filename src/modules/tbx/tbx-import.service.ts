/**
 * TBX import (docs/tbx.md): the uploaded file is parsed once to check it (a malformed file answers 400
 * with its line and changes nothing) and to count its entries, then imported as a job in ONE
 * transaction: a failure anywhere leaves the dictionary as it was. Entries are read as a stream and
 * written in batches with set-based SQL (concepts, terms, domains, history items); cross-references are
 * collected in a temporary table and become relations once the whole file is in.
 */
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ImportSummary } from '../../shared/common.schema.js';
import type { Scope } from '../../shared/scope.js';
import { allocateSerials } from '../concept/concept-serials.js';
import { type AsyncOutcome, type JobProgress, runAsJob } from '../jobs/job-runner.js';
import { EarlyIndexer } from '../search/early-indexer.js';
import { allowLongPendingLists, mergeSearchPendingLists } from '../search/postgres-search.js';
import { searchRuntimeOf, TBX_IMPORT_JOB } from '../search/search-runtime.js';
import { ImportContext, MAX_ERRORS, sql } from './tbx-import-context.js';
import { mergeConcepts, mergeKeys, mergeTargets, type TbxMergeMode } from './tbx-import-merge.js';
import { type PlannedConcept, planEntry } from './tbx-import-plan.js';
import { ImportStructure } from './tbx-import-structure.js';
import {
  type FileScan,
  type ImportTarget,
  importTarget,
  scanFile,
  targetDictionary,
} from './tbx-import-target.js';
import { checkIncremental } from './tbx-import-values.js';
import { createConcepts } from './tbx-import-writer.js';
import { readTbx } from './tbx-reader.js';

/** Entries written per batch: big enough for set-based SQL to pay, small enough for bounded memory. */
const BATCH_SIZE = 500;
/** Imports of at least this many terms refresh the planner's statistics of the tables they filled. */
const ANALYZE_AFTER_TERMS = 50_000;
/**
 * During an import, the statistics are refreshed once it has written this many terms, then each time
 * the count doubles. ANALYZE counts the transaction's own rows; without it, the import's reads of
 * its own rows (early indexing, merge lookups) were planned for the tables as they were before it,
 * and scanned whole tables that grew with every batch (600,000 terms: 3,181 terms/s, falling).
 */
const ANALYZE_DURING_FROM_TERMS = 20_000;

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
}

/**
 * An uploaded file on disk, in a directory of its own. The import takes it over (claim) and removes it
 * when its job ends; until then whoever received the upload removes it.
 */
export class TbxUpload {
  private claimedByImport = false;
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
    scan = await scanFile(upload.path);
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
        const importer = await TbxImporter.open(scope, tem, target, scan, upload, options.merge, progress);
        if (direct) {
          early.indexer = new EarlyIndexer(tem, direct, scope.log);
          early.dictionaryId = importer.ctx.dictionaryId;
          importer.ctx.earlyIndexer = early.indexer;
        }
        return importer.run();
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

// ---------------------------------------------------------------- the import itself

class TbxImporter {
  private processed = 0;
  /** Terms written when the statistics were last refreshed during this import. */
  private analyzedAtTerms = 0;

  private constructor(
    readonly ctx: ImportContext,
    private readonly structure: ImportStructure,
    private readonly scan: FileScan,
    private readonly upload: TbxUpload,
    private readonly progress: JobProgress,
  ) {}

  /** Opens the import inside the job's transaction: the target dictionary (made now if new) and its structure. */
  static async open(
    scope: Scope,
    em: EntityManager,
    target: ImportTarget,
    scan: FileScan,
    upload: TbxUpload,
    merge: TbxMergeMode,
    progress: JobProgress,
  ): Promise<TbxImporter> {
    const place = await targetDictionary(scope, em, target, scan, upload.fileName);
    const ctx = new ImportContext(scope, em, place, merge);
    const structure = await ImportStructure.load(ctx, scan.nordic);
    const importer = new TbxImporter(ctx, structure, scan, upload, progress);
    await importer.prepare();
    return importer;
  }

  private async prepare() {
    // The search GIN indexes take the import's terms in 4 MB steps; run() merges the rest at the end.
    await allowLongPendingLists(this.ctx.em);
    // Cross-references wait here for the end of the file; the history items of this import are listed
    // so that relations made at the end appear in their snapshots.
    await sql(
      this.ctx.em,
      'create temporary table tbx_xrefs (n serial, source_concept_id int not null, target text not null, text text, line int not null, target_id int) on commit drop',
    );
    await sql(
      this.ctx.em,
      'create temporary table tbx_history (concept_id int not null, history_id int not null, action text not null) on commit drop',
    );
  }

  async run(): Promise<ImportSummary> {
    await this.progress(0, this.scan.entries);
    let pending: PlannedConcept[] = [];
    const pendingKeys = new Set<string>();
    const flush = async () => {
      await this.writeBatch(pending);
      await this.refreshStatisticsAsTablesGrow();
      this.processed += pending.length;
      pending = [];
      pendingKeys.clear();
      await this.progress(this.processed, this.scan.entries);
    };
    for await (const entry of readTbx(createReadStream(this.upload.path))) {
      const planned = planEntry(this.ctx, this.structure, entry);
      // An entry that would merge into one still waiting in this batch waits for that one to be written.
      const keys = mergeKeys(this.ctx.merge, planned);
      if (keys.some((key) => pendingKeys.has(key))) await flush();
      pending.push(planned);
      for (const key of keys) pendingKeys.add(key);
      if (pending.length >= BATCH_SIZE) await flush();
    }
    if (pending.length) await flush();
    await this.ctx.earlyIndexer?.finish();
    await this.writeRelations();
    if (this.structure.changed) {
      // History before a structure change cannot be undone; this import's own items stay after it.
      await sql(this.ctx.em, 'update dictionaries set structure_changed_at = now() where id = ?', [
        this.ctx.dictionaryId,
      ]);
    }
    if (this.ctx.summary.terms >= ANALYZE_AFTER_TERMS) {
      // A bulk load leaves the planner's statistics far behind (autovacuum sees the rows only after the
      // commit): without fresh ones the next reads of this dictionary may scan whole tables.
      await sql(this.ctx.em, 'analyze concepts, terms, concept_domains, concept_history');
    }
    await mergeSearchPendingLists(this.ctx.em);
    await this.progress(this.scan.entries, this.scan.entries);
    return {
      dictionaryId: this.ctx.dictionaryId,
      ...this.ctx.summary,
      errors: this.ctx.errors,
      errorCount: this.ctx.errorCount,
    };
  }

  private async refreshStatisticsAsTablesGrow() {
    const terms = this.ctx.summary.terms;
    if (terms < Math.max(ANALYZE_DURING_FROM_TERMS, 2 * this.analyzedAtTerms)) return;
    await sql(this.ctx.em, 'analyze concepts, terms, concept_domains');
    this.analyzedAtTerms = terms;
  }

  // ------------------------------------------------------------ batches

  private async writeBatch(batch: PlannedConcept[]): Promise<void> {
    if (batch.length === 0) return;
    await this.structure.flush(batch);
    const targets = await mergeTargets(this.ctx, batch);
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
    await checkIncremental(this.ctx, this.structure, fresh, updates);
    await createConcepts(this.ctx, fresh);
    await mergeConcepts(this.ctx, updates);
    if (later.length) await this.writeBatch(later);
  }

  // ------------------------------------------------------------ relations, once the whole file is in

  /**
   * Each crossReference names an entry (or a term) of the file or of the dictionary: it becomes one
   * ASSOCIATIVE relation (both directions of a pair count once; existing relations are not doubled).
   * Snapshots of this import's history items then show the relations.
   */
  private async writeRelations() {
    const [pending] = await sql<{ n: number }[]>(this.ctx.em, 'select count(*)::int as n from tbx_xrefs');
    if (!pending?.n) return;
    const scope = [this.ctx.clientId, this.ctx.dictionaryId];
    await sql(
      this.ctx.em,
      `update tbx_xrefs x set target_id = (select c.id from concepts c where c.client_id = ? and c.dictionary_id = ?
         and c.oid = x.target and not c.deleted order by c.id desc limit 1)`,
      scope,
    );
    await sql(
      this.ctx.em,
      `update tbx_xrefs x set target_id = (select t.concept_id from terms t where t.client_id = ? and t.dictionary_id = ?
         and t.oid = x.target and not t.deleted order by t.id desc limit 1) where x.target_id is null`,
      scope,
    );
    await sql(
      this.ctx.em,
      `update tbx_xrefs x set target_id = c.id from concepts c
        where x.target_id is null and x.target ~ '^concept-[0-9]{1,9}$' and c.id = substring(x.target from 9)::int
          and c.dictionary_id = ? and c.oid is null and not c.deleted`,
      [this.ctx.dictionaryId],
    );
    const unresolved = await sql<{ line: number; target: string }[]>(
      this.ctx.em,
      `select line, target from tbx_xrefs where target_id is null order by n limit ${MAX_ERRORS}`,
    );
    const [missing] = await sql<{ n: number }[]>(
      this.ctx.em,
      'select count(*)::int as n from tbx_xrefs where target_id is null',
    );
    for (const row of unresolved) {
      this.ctx.error(
        row.line,
        `crossReference target "${row.target}" is no entry or term of the file or the dictionary`,
      );
    }
    this.ctx.errorCount += (missing?.n ?? 0) - unresolved.length;

    await sql(
      this.ctx.em,
      `create temporary table tbx_relations on commit drop as
       select row_number() over (order by s.n)::int as k, s.source_concept_id, s.target_id, s.text from (
         select distinct on (least(x.source_concept_id, x.target_id), greatest(x.source_concept_id, x.target_id)) x.*
           from tbx_xrefs x
          where x.target_id is not null and x.target_id <> x.source_concept_id
            and not exists (select 1 from concept_relations r
                  where (r.source_concept_id = x.source_concept_id and r.target_concept_id = x.target_id)
                     or (r.source_concept_id = x.target_id and r.target_concept_id = x.source_concept_id))
          order by least(x.source_concept_id, x.target_id), greatest(x.source_concept_id, x.target_id), x.n) s`,
    );
    const [count] = await sql<{ n: number }[]>(this.ctx.em, 'select count(*)::int as n from tbx_relations');
    if (!count?.n) return;
    const serials = await allocateSerials(this.ctx.em, this.ctx.dictionaryId, { relationId: count.n });
    await sql(
      this.ctx.em,
      `create temporary table tbx_new_relations on commit drop as
       with written as (
         insert into concept_relations (client_id, dictionary_id, source_concept_id, target_concept_id, type, attribute, text, relation_id, created_at, created_by_id)
         select ?, ?, r.source_concept_id, r.target_id, 4, 11, r.text, ? + r.k - 1, now(), ?
           from tbx_relations r
         returning id, relation_id, source_concept_id, target_concept_id, type, attribute, text)
       select * from written`,
      [this.ctx.clientId, this.ctx.dictionaryId, serials.relationId, this.ctx.scope.actor.userId],
    );
    const relationJson = `jsonb_build_object('id', r.id, 'relationId', r.relation_id, 'sourceConceptId', r.source_concept_id,
      'targetConceptId', r.target_concept_id, 'type', r.type, 'attribute', r.attribute, 'text', r.text)`;
    await sql(
      this.ctx.em,
      `update concept_history h set
         snapshot = jsonb_set(h.snapshot, '{relations}', (
           select coalesce(jsonb_agg(${relationJson} order by r.relation_id), '[]'::jsonb) from concept_relations r
            where r.source_concept_id = t.concept_id or r.target_concept_id = t.concept_id)),
         changes = case when t.action = 'UPDATE' then h.changes || (
           select coalesce(jsonb_agg(jsonb_build_object('kind', 'ADDED', 'subject', 'RELATION', 'relationId', r.relation_id,
             'after', ${relationJson}) order by r.relation_id), '[]'::jsonb) from tbx_new_relations r
            where r.source_concept_id = t.concept_id or r.target_concept_id = t.concept_id) else h.changes end
       from tbx_history t
       where h.id = t.history_id and exists (select 1 from tbx_new_relations n
         where n.source_concept_id = t.concept_id or n.target_concept_id = t.concept_id)`,
    );
  }
}
