/**
 * The event log (docs/events.md): what changed, written in the change's own transaction, numbered per
 * client without gaps in commit order, and read back in that order. Concept and term events are written
 * by the concept_history trigger (migration 20270106140000); everything else calls recordEvent.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { boundRows } from '../../shared/sql.js';
import { EventDraft } from './event.entity.js';
import type { EventRecord, EventType } from './event-types.js';

export * from './event-types.js';

export interface EventInput {
  clientId: number;
  type: EventType;
  actorId: number | null;
  dictionaryId?: number | null;
  sectionId?: number | null;
  conceptId?: number | null;
  termId?: number | null;
  /** Ids and the names of changed fields; never values a reader of the event might not be allowed. */
  data?: Record<string, unknown>;
}

/**
 * Adds an event to the unit of work of `em` (the write transaction's manager): its draft is inserted
 * at the next flush, and published with the client's next sequence when the transaction commits.
 */
export function recordEvent(em: EntityManager, input: EventInput): void {
  em.create(EventDraft, {
    clientId: input.clientId,
    type: input.type,
    dictionaryId: input.dictionaryId ?? null,
    sectionId: input.sectionId ?? null,
    conceptId: input.conceptId ?? null,
    termId: input.termId ?? null,
    actorId: input.actorId,
    data: input.data ?? {},
  });
}

/** Many events in one statement (bulk operations), at once in the transaction of `em`, in the order given. */
export async function recordEvents(em: EntityManager, inputs: readonly EventInput[]): Promise<void> {
  if (inputs.length === 0) return;
  const rows = inputs.map((input) => ({
    client_id: input.clientId,
    type: input.type,
    dictionary_id: input.dictionaryId ?? null,
    section_id: input.sectionId ?? null,
    concept_id: input.conceptId ?? null,
    term_id: input.termId ?? null,
    actor_id: input.actorId,
    data: input.data ?? {},
  }));
  await boundRows(em, {
    text: `insert into event_drafts (client_id, type, dictionary_id, section_id, concept_id, term_id, actor_id, data)
           select e.client_id, e.type, e.dictionary_id, e.section_id, e.concept_id, e.term_id, e.actor_id,
                  coalesce(e.data, '{}'::jsonb)
             from rows from (jsonb_to_recordset(?::jsonb) as (client_id int, type text, dictionary_id int,
                  section_id int, concept_id int, term_id int, actor_id int, data jsonb)) with ordinality
                  as e(client_id, type, dictionary_id, section_id, concept_id, term_id, actor_id, data, ord)
            order by e.ord
           returning id`,
    params: [JSON.stringify(rows)],
  });
}

export interface EventFilter {
  /** Types, or families as `concept.*`. */
  types?: readonly string[];
  dictionaryIds?: readonly number[];
  /** Only up to this sequence. */
  upTo?: number;
}

interface EventRow {
  sequence: string;
  type: EventType;
  client_id: number;
  dictionary_id: number | null;
  section_id: number | null;
  concept_id: number | null;
  term_id: number | null;
  actor_id: number | null;
  occurred_at: Date | string;
  data: Record<string, unknown>;
}

const recordOf = (row: EventRow): EventRecord => ({
  sequence: Number(row.sequence),
  type: row.type,
  clientId: row.client_id,
  dictionaryId: row.dictionary_id,
  sectionId: row.section_id,
  conceptId: row.concept_id,
  termId: row.term_id,
  actorId: row.actor_id,
  occurredAt: new Date(row.occurred_at).toISOString(),
  data: row.data,
});

/**
 * A client's events after `afterSequence`, in sequence order, at most `limit`, optionally only some
 * types and dictionaries. Every committed event below the last one returned is among what was read:
 * the counter's lock makes sequences visible in order (docs/events.md, Ordering).
 */
export async function readEvents(
  em: EntityManager,
  clientId: number,
  afterSequence: number,
  limit: number,
  filter: EventFilter = {},
): Promise<EventRecord[]> {
  const conditions = ['client_id = ?', 'sequence > ?'];
  const params: unknown[] = [clientId, afterSequence];
  if (filter.types?.length) {
    // `concept.*` names a family: every type that starts with `concept.`.
    const exact = filter.types.filter((type) => !type.endsWith('.*'));
    const families = filter.types
      .filter((type) => type.endsWith('.*'))
      .map((type) => `${type.slice(0, -1)}%`);
    conditions.push('(type = any(?::text[]) or type like any(?::text[]))');
    params.push(exact, families);
  }
  if (filter.upTo !== undefined) {
    conditions.push('sequence <= ?');
    params.push(filter.upTo);
  }
  if (filter.dictionaryIds?.length) {
    conditions.push('dictionary_id = any(?::int[])');
    params.push([...filter.dictionaryIds]);
  }
  const rows = await boundRows<EventRow>(em, {
    text: `select sequence, type, client_id, dictionary_id, section_id, concept_id, term_id, actor_id, occurred_at, data
             from events where ${conditions.join(' and ')} order by sequence limit ${Math.max(1, Math.floor(limit))}`,
    params,
  });
  return rows.map(recordOf);
}

/**
 * The client's last committed sequence (0 before its first event). Every event up to it is committed
 * and readable once this returns: the counter moves in the transaction that publishes them.
 */
export async function lastSequence(em: EntityManager, clientId: number): Promise<number> {
  const [row] = await boundRows<{ last: string | null }>(em, {
    text: 'select last_sequence as last from event_sequences where client_id = ?',
    params: [clientId],
  });
  return Number(row?.last ?? 0);
}

export { actorOfUser, filterVisibleEvents, scopeOfActor } from './event-visibility.js';
