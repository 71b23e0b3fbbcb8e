import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config.js';
import { lowerOf } from '../../db/sql.js';
import { notFound } from '../../shared/errors.js';
import { PROCESS_START, VERSION } from '../../version.js';
import { Client } from '../client/client.entity.js';
import { automaticGuestSession } from '../guest/guest.service.js';
import type { Features } from './features.schema.js';

/**
 * The public feature switches; with a client login name, that client must exist. When the client offers
 * automatic guest login, a guest session is opened and its token sent as GUEST_TOKEN.
 */
export async function systemFeatures(
  em: EntityManager,
  config: Config,
  clientLogin?: string,
  ipAddress: string | null = null,
): Promise<Features> {
  if (clientLogin !== undefined) {
    const client = await em.findOne(Client, {
      [lowerOf('login_name')]: clientLogin.toLowerCase(),
      active: true,
    });
    if (!client) throw notFound('Client', clientLogin);
  }
  const guest = await automaticGuestSession(em, config, clientLogin, ipAddress);
  return {
    DEVELOPMENT: config.DEVELOPMENT,
    SESSION_TIMEOUT: config.SESSION_TIMEOUT,
    MULTIPLE_CLIENT: config.MULTI_TENANT,
    GUEST_AUTO_DISABLED: guest === null,
    MULTIVALUED_SEPARATOR: config.MULTIVALUED_SEPARATOR,
    ALWAYS_WILDCARD: config.ALWAYS_WILDCARD,
    MAX_FILE_SIZE: config.MAX_FILE_SIZE,
    FEEDBACK_MAX_FILE_SIZE: config.FEEDBACK_MAX_FILE_SIZE,
    VERSION,
    BUILD_DATETIME: config.BUILD_DATETIME ?? PROCESS_START,
    ...(guest ? { GUEST_TOKEN: { token: guest.token, expirationTime: guest.expiresAt.getTime() } } : {}),
  };
}

/** The client named by a referer of the form `{BASE_URL}/client/{clientLogin}`, if any. */
export function clientFromReferer(config: Config, referer: string | undefined): string | undefined {
  if (!config.BASE_URL || !referer) return undefined;
  const base = config.BASE_URL.replace(/\/$/, '');
  if (!referer.startsWith(`${base}/client/`)) return undefined;
  const login = referer.slice(base.length + '/client/'.length).split(/[/?#]/)[0];
  return login && /^[A-Za-z0-9]+$/.test(login) ? login : undefined;
}
