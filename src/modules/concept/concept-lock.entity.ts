import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Client } from '../client/client.entity.js';
import { Concept } from './concept.entity.js';

/**
 * An edit lock on a concept. It lives in PostgreSQL so that every server instance sees it; it ends when
 * released, when `expiresAt` passes, or when its session ends (the row goes with the session).
 */
export const ConceptLock = defineEntity({
  name: 'ConceptLock',
  tableName: 'concept_locks',
  properties: {
    concept: () => p.manyToOne(Concept).primary().ref(),
    client: () => p.manyToOne(Client).ref(),
    userId: p.integer(),
    sessionId: p.integer(),
    acquiredAt: p.datetime(),
    expiresAt: p.datetime(),
  },
});
export type ConceptLock = InferEntity<typeof ConceptLock>;
