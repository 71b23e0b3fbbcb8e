import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Client } from '../client/client.entity.js';
import { Concept } from '../concept/concept.entity.js';
import { Dictionary } from '../dictionary/dictionary.entity.js';
import type { ConceptSnapshot, HistoryChange, HistoryProvenance } from './history.types.js';

export const HistoryActions = ['CREATE', 'UPDATE', 'DELETE', 'RESTORE', 'UNDO'] as const;
export type HistoryAction = (typeof HistoryActions)[number];

/**
 * One change of a concept: who, when, what changed, and the whole concept as the change left it.
 * `revision` is the concept version the change produced; `restoredFrom` marks an undo; `provenance`
 * keeps, on a TBX import's items, who did what according to the file.
 */
export const ConceptHistory = defineEntity({
  name: 'ConceptHistory',
  tableName: 'concept_history',
  properties: {
    id: p.integer().primary(),
    oid: p.string().length(64).nullable(),
    client: () => p.manyToOne(Client).ref(),
    dictionary: () => p.manyToOne(Dictionary).ref(),
    concept: () => p.manyToOne(Concept).ref(),
    revision: p.integer(),
    action: p.enum([...HistoryActions]),
    userId: p.integer().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    changes: p.json<HistoryChange[]>(),
    snapshot: p.json<ConceptSnapshot>(),
    restoredFromId: p.integer().nullable(),
    /** TBX import items: who created and changed the concept and its terms by the file. */
    provenance: p.json<HistoryProvenance>().nullable(),
  },
});
export type ConceptHistory = InferEntity<typeof ConceptHistory>;
