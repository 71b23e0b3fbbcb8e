import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * One change in the event log (docs/events.md). `sequence` is the client's gap-free counter in commit
 * order; the database assigns it when the row is inserted without one (the events_sequence trigger).
 * Dictionary, section, concept and term are plain ids, not relations: the log outlives what it names.
 */
export const Event = defineEntity({
  name: 'Event',
  tableName: 'events',
  properties: {
    id: p.bigint('string').primary(),
    clientId: p.integer(),
    sequence: p.bigint('string').nullable(),
    type: p.string().length(64),
    dictionaryId: p.integer().nullable(),
    sectionId: p.integer().nullable(),
    conceptId: p.integer().nullable(),
    termId: p.integer().nullable(),
    actorId: p.integer().nullable(),
    occurredAt: p.datetime().onCreate(() => new Date()),
    data: p.json<Record<string, unknown>>(),
  },
});
export type Event = InferEntity<typeof Event>;
