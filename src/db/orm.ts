import { Migrator } from '@mikro-orm/migrations';
import { MikroORM, type Options } from '@mikro-orm/postgresql';
import { ConfigSchema } from '../config.js';
import { CommitTracker } from './call-writes.js';
import { entities } from './entities.js';
import { migrationsList } from './migrations/index.js';
import {
  boundStatements,
  type DatabaseTimeouts,
  databaseTimeouts,
  withStatementTimeout,
} from './timeouts.js';

/** The bounds of the configuration's defaults, for scripts and tests that name none. */
const DEFAULT_TIMEOUTS: DatabaseTimeouts = databaseTimeouts(ConfigSchema.parse({}));

/** ORM options shared by the server, the migration scripts and the tests. */
export function ormOptions(clientUrl: string, timeouts: DatabaseTimeouts = DEFAULT_TIMEOUTS): Options {
  return {
    clientUrl,
    entities,
    extensions: [Migrator],
    // Tells the error mapping which calls committed, and writes Idempotency-Keys with their change.
    subscribers: [new CommitTracker()],
    migrations: {
      tableName: 'mikro_orm_migrations',
      path: 'src/db/migrations',
      pathTs: 'src/db/migrations',
      // Migrations are imported explicitly so the same list works from src (tsx) and from dist (node).
      migrationsList,
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      emit: 'ts',
      silent: true,
    },
    // Requests always work on a fork; the global context is a bug.
    allowGlobalContext: false,
    forceUtcTimezone: true,
    // A query on a link row (sessions, user_clients, group_members) must not silently inherit the
    // tenant filter of the entity it points at: every query states its own tenant condition.
    autoJoinRefsForFilters: false,
    pool: poolOptions(timeouts),
    driverOptions: {
      connection: { options: sessionOptions(), connectionTimeoutMillis: timeouts.acquireMs },
    },
    debug: false,
  };
}

/**
 * A request waits at most `acquireMs` for a connection (knex answers KnexTimeoutError, a 503), and each
 * statement of the connection it gets is bounded (timeouts.ts). Opening a connection is bounded by pg's
 * connectionTimeoutMillis, as a hung server accepts TCP connections in its backlog but never answers.
 */
function poolOptions(timeouts: DatabaseTimeouts): NonNullable<Options['pool']> {
  return {
    min: 0,
    max: 10,
    acquireTimeoutMillis: timeouts.acquireMs,
    createTimeoutMillis: timeouts.acquireMs,
    afterCreate: (connection: Parameters<typeof boundStatements>[0], done: (error?: Error) => void) => {
      boundStatements(connection, timeouts.statementMs);
      done();
    },
  };
}

/**
 * Settings of every pooled session (a libpq `options` string), before PGOPTIONS so that an operator
 * can override them.
 * - random_page_cost 1.1 instead of 4: a termbase's working set sits in memory or on SSDs, where an
 *   index lookup costs about what a sequential read does. With 4, the planner joined a search's 800
 *   matching terms to their concepts by hashing all 100,000 concepts of the dictionary (50 ms) instead
 *   of looking up each (3 ms).
 * - gin_pending_list_limit 256 kB instead of 4 MB: new terms wait in the search GIN indexes' pending
 *   lists, which every substring and fuzzy search reads whole, until a writer's list outgrows this
 *   (docs/search.md, "How each engine answers"). TBX imports and dictionary copies raise it for their
 *   own transaction (allowLongPendingLists).
 * - client_connection_check_interval 1 s (PostgreSQL 14+, off by default): a running statement whose
 *   client went away (a statement timeout closes the connection, timeouts.ts) stops within a second
 *   instead of running to its end holding its locks.
 */
function sessionOptions(): string {
  return [
    '-c random_page_cost=1.1',
    '-c gin_pending_list_limit=256kB',
    '-c client_connection_check_interval=1000',
    process.env.PGOPTIONS,
  ]
    .filter(Boolean)
    .join(' ');
}

/** `overrides` serve tests (a query logger, a smaller pool); pool settings merge with ours. */
export async function openOrm(
  clientUrl: string,
  overrides: Partial<Options> = {},
  timeouts: DatabaseTimeouts = DEFAULT_TIMEOUTS,
  log?: DriverLog,
): Promise<MikroORM> {
  const options = ormOptions(clientUrl, timeouts);
  return MikroORM.init({
    ...options,
    ...overrides,
    pool: { ...options.pool, ...overrides.pool },
    // knex writes pool warnings ("Connection Error: ...") to the console unless given a logger.
    ...(log ? { driverOptions: { ...options.driverOptions, log: driverLog(log) } } : {}),
  });
}

/** Where the database driver's own warnings go (the server's logger). */
export interface DriverLog {
  warn(message: string): void;
  error(message: string): void;
  debug(message: string): void;
}

const driverLog = (log: DriverLog) => ({
  warn: (message: unknown) => log.warn(`database driver: ${String(message)}`),
  error: (message: unknown) => log.error(`database driver: ${String(message)}`),
  deprecate: (method: unknown, alternative: unknown) =>
    log.debug(`database driver: ${String(method)} is deprecated, use ${String(alternative)}`),
  debug: (message: unknown) => log.debug(`database driver: ${String(message)}`),
});

/** Migrations may build indexes over large tables: their statements are not bounded. */
export async function migrate(orm: MikroORM): Promise<string[]> {
  const done = await withStatementTimeout(0, () => orm.getMigrator().up());
  return done.map((migration) => migration.name);
}

export type { MikroORM };
