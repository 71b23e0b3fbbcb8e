import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Client } from '../client/client.entity.js';
import { User } from '../user/user.entity.js';

export const GuestLoginMethods = ['NORMAL', 'GUEST_AUTOLOGIN', 'GUEST_CLIENT_AUTOLOGIN'] as const;
export type GuestLoginMethod = (typeof GuestLoginMethods)[number];

/** Guest access of one client; the guest account itself is a user of a guest type. */
export const GuestSettings = defineEntity({
  name: 'GuestSettings',
  tableName: 'guest_settings',
  properties: {
    client: () => p.oneToOne(Client).primary().owner().ref(),
    version: p.integer().version(),
    enabled: p.boolean().default(false),
    loginMethod: p.enum([...GuestLoginMethods]).default('NORMAL'),
    user: () => p.manyToOne(User).ref().nullable(),
    enableQuickFilters: p.boolean().default(false),
    enableSearchModes: p.boolean().default(false),
    enableCommenting: p.boolean().default(false),
    /** Guests may send feedback (docs/feedback.md). */
    enableFeedback: p.boolean().default(false),
  },
});
export type GuestSettings = InferEntity<typeof GuestSettings>;
