import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Client } from '../client/client.entity.js';
import { User } from '../user/user.entity.js';

/**
 * A login session. Only hashes of the token and of the JSESSIONID value are stored, so a copy of the
 * database does not hand out live sessions.
 */
export const Session = defineEntity({
  name: 'Session',
  tableName: 'sessions',
  properties: {
    id: p.integer().primary(),
    tokenHash: p.string().length(64).unique(),
    cookieHash: p.string().length(64),
    /** Last 4 symbols of the cookie session id, shown in the online-users list. */
    partId: p.string().length(4),
    user: () => p.manyToOne(User).ref(),
    /** The client the session acts in; switch-client moves it. */
    client: () => p.manyToOne(Client).ref(),
    language: p.string().length(16).default('eng'),
    ipAddress: p.string().length(64).nullable(),
    apiLogin: p.boolean().default(false),
    apiRequests: p.integer().default(0),
    /** A guest session counts against the client's maxGuests instead of its named users. */
    guest: p.boolean().default(false),
    /** Validity length in seconds, from the user's groups or SESSION_TIMEOUT; extend-session reuses it. */
    timeoutSeconds: p.integer().default(1800),
    createdAt: p.datetime().onCreate(() => new Date()),
    lastUsedAt: p.datetime().onCreate(() => new Date()),
    expiresAt: p.datetime().index(),
    endedAt: p.datetime().nullable(),
  },
});
export type Session = InferEntity<typeof Session>;
