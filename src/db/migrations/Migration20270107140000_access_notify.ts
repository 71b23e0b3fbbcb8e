import { Migration } from '@mikro-orm/migrations';

/**
 * Every write that can change what a session may do or see notifies `polyterm_access`, from a
 * statement-level trigger, so no code path can forget it: servers keep sessions and search contexts in
 * memory (src/modules/access/access-cache.ts) and drop them on the notification, which PostgreSQL
 * delivers to every server on the database at the writer's commit, and never for a rollback. The payload
 * is the table's name. Sessions and users notify only for the columns authentication reads: the touch of
 * `last_used_at` and the API request counter write on every few requests and change no right.
 */
const TABLES_ALL_WRITES = [
  'groups',
  'group_members',
  'permission_schemes',
  'sections',
  'dictionaries',
  'workflows',
  'languages',
  'user_search_settings',
  'stemming_settings',
  'stemming_languages',
  'clients',
];

const SESSION_COLUMNS = [
  'token_hash',
  'user_id',
  'client_id',
  'guest',
  'api_login',
  'timeout_seconds',
  'expires_at',
  'ended_at',
];
const USER_COLUMNS = ['username', 'full_name', 'client_id', 'roles', 'active', 'deleted', 'exp_date'];

const quoted = (names: string[]) => names.map((name) => `"${name}"`).join(', ');

export class Migration20270107140000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create function polyterm_notify_access() returns trigger language plpgsql as $$
      begin
        perform pg_notify('polyterm_access', tg_table_name);
        return null;
      end $$;`);
    for (const table of TABLES_ALL_WRITES) {
      this.addSql(`create trigger "${table}_notify_access"
        after insert or update or delete or truncate on "${table}"
        for each statement execute function polyterm_notify_access();`);
    }
    this.addSql(`create trigger "sessions_notify_access"
      after update of ${quoted(SESSION_COLUMNS)} or delete or truncate on "sessions"
      for each statement execute function polyterm_notify_access();`);
    this.addSql(`create trigger "users_notify_access"
      after update of ${quoted(USER_COLUMNS)} or delete or truncate on "users"
      for each statement execute function polyterm_notify_access();`);
  }

  override async down(): Promise<void> {
    for (const table of [...TABLES_ALL_WRITES, 'sessions', 'users']) {
      this.addSql(`drop trigger if exists "${table}_notify_access" on "${table}";`);
    }
    this.addSql('drop function if exists polyterm_notify_access();');
  }
}
