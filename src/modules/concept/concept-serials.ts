import type { EntityManager } from '@mikro-orm/postgresql';

export interface SerialRequest {
  cid?: number;
  tid?: number;
  relationId?: number;
}

/** The first number of each allocated range (absent kinds: 0). */
export interface SerialRanges {
  cid: number;
  tid: number;
  relationId: number;
}

/**
 * Allocates serial numbers of a dictionary (concept cid, term tid, relationId) from its counter row,
 * inside the caller's transaction. The upsert takes the row lock, so concurrent writers queue on it and
 * never receive the same number; a rolled-back transaction gives its numbers back. Never max()+1.
 */
export async function allocateSerials(
  em: EntityManager,
  dictionaryId: number,
  request: SerialRequest,
): Promise<SerialRanges> {
  const cid = request.cid ?? 0;
  const tid = request.tid ?? 0;
  const relationId = request.relationId ?? 0;
  const [row] = await em.execute<{ last_cid: string; last_tid: number; last_relation_id: number }[]>(
    `insert into dictionary_counters as c (dictionary_id, last_cid, last_tid, last_relation_id)
       values (?, ?, ?, ?)
     on conflict (dictionary_id) do update set
       last_cid = c.last_cid + excluded.last_cid,
       last_tid = c.last_tid + excluded.last_tid,
       last_relation_id = c.last_relation_id + excluded.last_relation_id
     returning last_cid, last_tid, last_relation_id`,
    [dictionaryId, cid, tid, relationId],
  );
  if (!row) throw new Error(`No counter row for dictionary ${dictionaryId}`);
  return {
    cid: Number(row.last_cid) - cid + 1,
    tid: row.last_tid - tid + 1,
    relationId: row.last_relation_id - relationId + 1,
  };
}

/** A copied dictionary continues its source's counters, since its rows keep their serial numbers. */
export async function copySerialCounters(em: EntityManager, fromId: number, toId: number): Promise<void> {
  await em.execute(
    `insert into dictionary_counters (dictionary_id, last_cid, last_tid, last_relation_id)
       select ?, last_cid, last_tid, last_relation_id from dictionary_counters where dictionary_id = ?
     on conflict (dictionary_id) do update set last_cid = excluded.last_cid, last_tid = excluded.last_tid,
       last_relation_id = excluded.last_relation_id`,
    [toId, fromId],
  );
}
