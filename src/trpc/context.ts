import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { ApiRequestCounter } from '../modules/statistics/api-request-counter.js';

export type Transport = 'rest' | 'trpc' | 'graphql';

/** Per-request context of every surface. Procedures add `actor` and `scope` through the authed tier. */
export interface Context {
  transport: Transport;
  req: FastifyRequest;
  reply: FastifyReply;
  config: Config;
  em: EntityManager;
  /**
   * Set by a procedure whose REST status depends on the outcome (202 for a running job, 401 for a failed
   * login). An object, because tRPC copies the context when a tier extends it.
   */
  response: { status?: number };
  /** Counts the requests of API-login sessions in memory; written in batches. */
  apiRequests: ApiRequestCounter;
}

export interface ContextDeps {
  config: Config;
  orm: MikroORM;
  apiRequests: ApiRequestCounter;
}

/** A fresh entity-manager fork per request: identity maps never leak between callers. */
export function createContextFactory(deps: ContextDeps) {
  return (req: FastifyRequest, reply: FastifyReply, transport: Transport): Context => ({
    transport,
    req,
    reply,
    config: deps.config,
    em: deps.orm.em.fork(),
    response: {},
    apiRequests: deps.apiRequests,
  });
}
