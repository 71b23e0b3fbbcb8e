/**
 * The planner's statistics during a TBX import: ANALYZE counts the transaction's own rows, so they are
 * refreshed as the import's tables grow, and once more after a large import.
 */
import { type ImportContext, sql } from './tbx-import-context.js';

/** Imports of at least this many terms refresh the planner's statistics of the tables they filled. */
const ANALYZE_AFTER_TERMS = 50_000;
/**
 * During an import, the statistics are refreshed once it has written this many terms, then each time
 * the count doubles. ANALYZE counts the transaction's own rows; without it, the import's reads of
 * its own rows (early indexing, merge lookups) were planned for the tables as they were before it,
 * and scanned whole tables that grew with every batch (600,000 terms: 3,181 terms/s, falling).
 */
const ANALYZE_DURING_FROM_TERMS = 20_000;

export class TableStatistics {
  /** Terms written when the statistics were last refreshed during this import. */
  private analyzedAtTerms = 0;

  constructor(private readonly ctx: ImportContext) {}

  /** After each batch. */
  async refreshAsTablesGrow() {
    const terms = this.ctx.summary.terms;
    if (terms < Math.max(ANALYZE_DURING_FROM_TERMS, 2 * this.analyzedAtTerms)) return;
    await sql(this.ctx.em, 'analyze concepts, terms, concept_domains');
    this.analyzedAtTerms = terms;
  }

  /** Once the whole file is in. */
  async refreshAfterImport() {
    if (this.ctx.summary.terms >= ANALYZE_AFTER_TERMS) {
      // A bulk load leaves the planner's statistics far behind (autovacuum sees the rows only after the
      // commit): without fresh ones the next reads of this dictionary may scan whole tables.
      await sql(this.ctx.em, 'analyze concepts, terms, concept_domains, concept_history');
    }
  }
}
