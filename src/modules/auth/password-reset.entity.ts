import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { User } from '../user/user.entity.js';

/** A single-use password-reset link; only the hash of its secret is stored. */
export const PasswordReset = defineEntity({
  name: 'PasswordReset',
  tableName: 'password_resets',
  properties: {
    id: p.integer().primary(),
    tokenHash: p.string().length(64).unique(),
    user: () => p.manyToOne(User).ref(),
    createdAt: p.datetime().onCreate(() => new Date()),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
  },
});
export type PasswordReset = InferEntity<typeof PasswordReset>;
