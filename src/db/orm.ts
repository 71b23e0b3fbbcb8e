import { Migrator } from '@mikro-orm/migrations';
import { MikroORM, type Options } from '@mikro-orm/postgresql';
import { entities } from './entities.js';
import { migrationsList } from './migrations/index.js';

/** ORM options shared by the server, the migration scripts and the tests. */
export function ormOptions(clientUrl: string): Options {
  return {
    clientUrl,
    entities,
    extensions: [Migrator],
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
    pool: { min: 0, max: 10 },
    driverOptions: { connection: { options: sessionOptions() } },
    debug: false,
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
 */
function sessionOptions(): string {
  return ['-c random_page_cost=1.1', '-c gin_pending_list_limit=256kB', process.env.PGOPTIONS]
    .filter(Boolean)
    .join(' ');
}

/** `overrides` serve tests (a query logger, say). */
export async function openOrm(clientUrl: string, overrides: Partial<Options> = {}): Promise<MikroORM> {
  return MikroORM.init({ ...ormOptions(clientUrl), ...overrides });
}

export async function migrate(orm: MikroORM): Promise<string[]> {
  const done = await orm.getMigrator().up();
  return done.map((migration) => migration.name);
}

export type { MikroORM };
