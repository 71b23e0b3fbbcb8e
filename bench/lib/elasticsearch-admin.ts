/**
 * What a benchmark asks Elasticsearch directly over HTTP, around our server: the searchable document
 * count, the index's size on disk, whether _delete_by_query exists, and deleting the index afterwards.
 */

export interface IndexStats {
  documents: number;
  deleted: number;
  bytes: number;
}

/** The documents searchable in the index (refreshed first). */
export async function countDocuments(esUrl: string, index: string): Promise<number> {
  await fetch(`${esUrl}/${index}/_refresh`, { method: 'POST' });
  const answer = (await (await fetch(`${esUrl}/${index}/_count`)).json()) as { count?: number };
  return answer.count ?? 0;
}

/** The primaries' document counts and store size. */
export async function indexStats(esUrl: string, index: string): Promise<IndexStats> {
  const stats = (await (await fetch(`${esUrl}/${index}/_stats/store,docs`)).json()) as {
    _all: { primaries: { store: { size_in_bytes: number }; docs: { count: number; deleted: number } } };
  };
  const primaries = stats._all.primaries;
  return {
    documents: primaries.docs.count,
    deleted: primaries.docs.deleted,
    bytes: primaries.store.size_in_bytes,
  };
}

/**
 * The integ-test distribution has no reindex module, so no _delete_by_query: there a rebuild's last
 * step (removing stale documents) fails after every document was written.
 */
export async function hasDeleteByQuery(esUrl: string, index: string): Promise<boolean> {
  const probe = await fetch(`${esUrl}/${index}/_delete_by_query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: { match_none: {} } }),
  });
  return probe.ok;
}

/** Deletes the index behind the alias `name` (or the index of that name). */
export async function deleteIndex(esUrl: string, name: string) {
  const aliases = await fetch(`${esUrl}/_alias/${name}`);
  const indices = aliases.ok ? Object.keys((await aliases.json()) as object) : [name];
  for (const concrete of indices) await fetch(`${esUrl}/${concrete}`, { method: 'DELETE' });
}
