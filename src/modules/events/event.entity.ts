import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * An event not yet published: written in the change's transaction, moved into `events` with the
 * client's next sequence when that transaction commits (migration 20270106140000, docs/events.md).
 * Dictionary, section, concept and term are plain ids, not relations: the log outlives what it names.
 */
export const EventDraft = defineEntity({
  name: 'EventDraft',
  tableName: 'event_drafts',
  properties: {
    id: p.bigint('string').primary(),
    clientId: p.integer(),
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
export type EventDraft = InferEntity<typeof EventDraft>;
