import { Migration } from '@mikro-orm/migrations';

/**
 * Counters of login and reset-password attempts (src/modules/auth/login-throttle.ts), in the database so
 * that every instance sharing it counts alike. One row per counter, named by the SHA-256 of its kind and
 * parts (client, username as sent, address): typed usernames are not kept. Rows past `expires_at` are
 * deleted by later attempts.
 */
export class Migration20261129090000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "login_throttles" ("key_hash" varchar(64) primary key, "attempts" int not null default 0, "last_attempt_at" timestamptz null, "blocked_until" timestamptz null, "succeeded_at" timestamptz null, "expires_at" timestamptz not null);`,
    );
    this.addSql(`create index "login_throttles_expires_at_index" on "login_throttles" ("expires_at");`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "login_throttles";');
  }
}
