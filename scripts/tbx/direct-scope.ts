/**
 * The database mode's connection: the ORM on the given URL, checked to be at this checkout's migrations,
 * and the Scope the server would build for a request of the acting user. The user is taken by name, with
 * no password (whoever holds the database URL owns the data anyway), but otherwise as a login takes it:
 * a session is opened (client limits on concurrent users apply) and resolved by the server's own
 * authenticate(), so roles, the acting client and every permission check are the server's.
 */
import type { Config } from '../../src/config.js';
import { migrationsList } from '../../src/db/migrations/index.js';
import { type MikroORM, openOrm } from '../../src/db/orm.js';
import { lowerOf } from '../../src/db/sql.js';
import { authenticate, loginClientName, logout } from '../../src/modules/auth/auth.service.js';
import { Session } from '../../src/modules/auth/session.entity.js';
import { openSession } from '../../src/modules/auth/session-limits.js';
import { hashSecret } from '../../src/modules/auth/tokens.js';
import { Client } from '../../src/modules/client/client.entity.js';
import { isGuestType, User } from '../../src/modules/user/user.entity.js';
import type { Scope } from '../../src/shared/scope.js';
import { cliLogger } from './cli-logger.js';
import { CliError } from './output.js';

/** Opens the ORM and refuses a database whose migrations differ from this checkout's. */
export async function openDatabase(url: string): Promise<MikroORM> {
  let orm: MikroORM;
  try {
    orm = await openOrm(url);
    await orm.em.getConnection().execute('select 1');
  } catch (error) {
    throw new CliError(`Cannot connect to the database: ${(error as Error).message}`);
  }
  try {
    await assertMigrated(orm);
    return orm;
  } catch (error) {
    await orm.close(true);
    throw error;
  }
}

/**
 * The server migrates at its start; this tool does not, since it may be of another version than the
 * server using the database, and a migration under a running server is the operator's decision.
 */
async function assertMigrated(orm: MikroORM): Promise<void> {
  const [table] = await orm.em
    .getConnection()
    .execute<{ name: string | null }[]>(`select to_regclass('mikro_orm_migrations')::text as name`);
  if (!table?.name) {
    throw new CliError(
      'The database has no Polyterm tables: start the server once, or run npm run db:migrate',
    );
  }
  const executed = new Set((await orm.getMigrator().getExecutedMigrations()).map((row) => row.name));
  const pending = migrationsList.filter((migration) => !executed.has(migration.name));
  if (pending.length) {
    throw new CliError(
      `The database lacks ${pending.length} migration(s) of this version (${pending.map((m) => m.name).join(', ')}): ` +
        'start the server of this version, or run npm run db:migrate, first',
    );
  }
  const known = new Set(migrationsList.map((migration) => migration.name));
  const unknown = [...executed].filter((name) => !known.has(name));
  if (unknown.length) {
    throw new CliError(
      `The database has migrations this version does not know (${unknown.join(', ')}): use the tool of the server's version`,
    );
  }
}

export interface ActingSession {
  scope: Scope;
  /** Ends the session opened for the user. */
  end(): Promise<void>;
}

/** The Scope of a request by `username` of `clientLogin` (the default client unless MULTI_TENANT). */
export async function actAs(
  orm: MikroORM,
  config: Config,
  username: string,
  clientLogin: string | undefined,
): Promise<ActingSession> {
  const em = orm.em.fork();
  const clientName = loginClientName(config, clientLogin);
  const client = await em.findOne(Client, { [lowerOf('login_name')]: clientName.toLowerCase() });
  if (!client) throw new CliError(`No client "${clientName}"`);
  const user = await em.findOne(
    User,
    { client, [lowerOf('username')]: username.toLowerCase() },
    { filters: { tenant: false } },
  );
  if (!user) throw new CliError(`No user "${username}" in client "${client.loginName}"`);
  if (isGuestType(user.type)) throw new CliError(`"${username}" is a guest account; name a user`);
  const opened = await openSession(em, config, {
    user,
    clientId: client.id,
    guest: false,
    apiLogin: false,
    language: user.language ?? 'eng',
    ipAddress: null,
  });
  const actor = await authenticate(em, opened.token);
  if (!actor) {
    // The session of an account that may not log in is refused by authenticate(): end it at once.
    await em.nativeUpdate(Session, { tokenHash: hashSecret(opened.token) }, { endedAt: new Date() });
    throw new CliError(
      `User "${username}" may not log in (inactive, deleted or past its expiry date, or the client is inactive)`,
    );
  }
  const scopeEm = orm.em.fork();
  scopeEm.setFilterParams('tenant', { clientId: actor.clientId });
  return {
    scope: { em: scopeEm, actor, config, log: cliLogger(config.LOG_LEVEL) },
    end: () => logout(orm.em.fork(), actor.sessionId),
  };
}
