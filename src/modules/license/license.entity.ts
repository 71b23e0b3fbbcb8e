import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/** One applied licence; the newest row is the licence in force. The signed text is kept as applied. */
export const License = defineEntity({
  name: 'License',
  tableName: 'licenses',
  properties: {
    id: p.integer().primary(),
    text: p.text(),
    licensee: p.string().length(255),
    issuedAt: p.datetime(),
    expiresAt: p.datetime(),
    availableUserSlots: p.integer().nullable(),
    appliedAt: p.datetime().onCreate(() => new Date()),
    appliedById: p.integer().nullable(),
  },
});
export type License = InferEntity<typeof License>;
