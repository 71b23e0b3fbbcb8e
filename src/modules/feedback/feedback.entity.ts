import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { tenantFilter } from '../../db/common.properties.js';
import { Client } from '../client/client.entity.js';
import { Dictionary } from '../dictionary/dictionary.entity.js';

export const FeedbackTargets = ['DICTIONARY', 'CONCEPT', 'TERM'] as const;
export type FeedbackTarget = (typeof FeedbackTargets)[number];
export const FeedbackStatuses = ['OPEN', 'ANSWERED', 'CLOSED'] as const;
export type FeedbackStatus = (typeof FeedbackStatuses)[number];

/**
 * What a reader sent about a dictionary, a concept or a term. Concept and term are plain ids (the rows
 * may be soft-deleted later); `targetLabel` keeps what the sender saw, so the feedback still reads.
 * The sender's name and address are kept as sent: a guest account is shared and has neither.
 */
export const Feedback = defineEntity({
  name: 'Feedback',
  tableName: 'feedback',
  filters: { ...tenantFilter },
  properties: {
    id: p.integer().primary(),
    client: () => p.manyToOne(Client).ref(),
    dictionary: () => p.manyToOne(Dictionary).ref(),
    target: p.enum([...FeedbackTargets]),
    conceptId: p.integer().nullable(),
    termId: p.integer().nullable(),
    targetLabel: p.string().length(255).nullable(),
    text: p.text(),
    status: p.enum([...FeedbackStatuses]).default('OPEN'),
    senderId: p.integer().nullable(),
    senderGuest: p.boolean().default(false),
    senderName: p.string().length(255).nullable(),
    senderEmail: p.string().length(320).nullable(),
    /** The session that sent it: only that session attaches the file (guests share one account). */
    sessionId: p.integer().nullable(),
    /** The storage module's key of the attached file. */
    attachmentKey: p.string().length(255).nullable(),
    attachmentName: p.string().length(255).nullable(),
    attachmentType: p.string().length(255).nullable(),
    attachmentSize: p.bigint('number').nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    changedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
    closedAt: p.datetime().nullable(),
    closedById: p.integer().nullable(),
  },
});
export type Feedback = InferEntity<typeof Feedback>;

/** An administrator's answer to a feedback; the sender gets it by e-mail. */
export const FeedbackAnswer = defineEntity({
  name: 'FeedbackAnswer',
  tableName: 'feedback_answers',
  filters: { ...tenantFilter },
  properties: {
    id: p.integer().primary(),
    feedback: () => p.manyToOne(Feedback).ref(),
    client: () => p.manyToOne(Client).ref(),
    text: p.text(),
    authorId: p.integer().nullable(),
    authorName: p.string().length(255).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type FeedbackAnswer = InferEntity<typeof FeedbackAnswer>;
