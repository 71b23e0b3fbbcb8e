import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Client } from '../client/client.entity.js';
import { Concept } from '../concept/concept.entity.js';
import { Dictionary } from '../dictionary/dictionary.entity.js';

export const CommentLevels = ['CONCEPT', 'TERM'] as const;
export type CommentLevel = (typeof CommentLevels)[number];

/** A comment on a concept or on one of its terms (`entryId` with `fieldLevel`); the concept is kept for access. */
export const Comment = defineEntity({
  name: 'Comment',
  tableName: 'comments',
  properties: {
    id: p.integer().primary(),
    oid: p.string().length(64).nullable(),
    client: () => p.manyToOne(Client).ref(),
    dictionary: () => p.manyToOne(Dictionary).ref(),
    concept: () => p.manyToOne(Concept).ref(),
    fieldLevel: p.enum([...CommentLevels]),
    entryId: p.integer(),
    text: p.text(),
    userId: p.integer().nullable(),
    /** The author's full name when writing, so the comment reads the same after the account is gone. */
    authorName: p.string().length(255).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type Comment = InferEntity<typeof Comment>;
