/**
 * Both engines brought to rest after a load, as they are between imports, before any query is timed:
 * the Elasticsearch index merged into one segment, the PostgreSQL tables vacuumed.
 */
import type pg from 'pg';
import { indexStats } from './elasticsearch-admin.js';
import { mb, seconds } from './report.js';

/**
 * Merges the index into one segment before any query runs: a rebuild leaves every replaced document
 * awaiting merge, and Elasticsearch merging in the background would slow both our engine and the direct
 * queries by a varying amount (up to 40% between runs before this step). An index at rest is merged.
 */
export async function forceMerge(esUrl: string, index: string) {
  const started = Date.now();
  const answer = await fetch(`${esUrl}/${index}/_forcemerge?max_num_segments=1&wait_for_completion=false`, {
    method: 'POST',
  });
  const { task } = (await answer.json()) as { task: string };
  for (;;) {
    const status = (await (await fetch(`${esUrl}/_tasks/${task}`)).json()) as { completed?: boolean };
    if (status.completed) break;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  const stats = await indexStats(esUrl, index);
  console.log(
    `force merge: ${seconds(Date.now() - started)}; ${stats.documents} documents (+${stats.deleted} deleted), ${mb(stats.bytes)} on disk, ${(stats.bytes / stats.documents).toFixed(0)} bytes/doc`,
  );
}

/**
 * PostgreSQL's counterpart of the merge: VACUUM (ANALYZE) of the searched tables, as autovacuum does to
 * a database at rest after a large import. It sets the visibility map (index-only counts) and merges
 * the GIN indexes' pending lists. The development machine's PostgreSQL runs with autovacuum off, where
 * a loaded database would otherwise never get it.
 */
export async function vacuum(db: pg.Client) {
  const started = Date.now();
  const { rows } = await db.query<{ autovacuum: string }>('show autovacuum');
  await db.query('vacuum (analyze) terms, concepts, concept_domains');
  console.log(`vacuum (analyze): ${seconds(Date.now() - started)} (autovacuum ${rows[0]?.autovacuum})`);
}
