import { Migration } from '@mikro-orm/migrations';

/** Applied licences; the newest one is in force. */
export class Migration20261121064900 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "licenses" ("id" serial primary key, "text" text not null, "licensee" varchar(255) not null, "issued_at" timestamptz not null, "expires_at" timestamptz not null, "available_user_slots" int null, "applied_at" timestamptz not null, "applied_by_id" int null references "users" ("id") on delete set null);`,
    );
    this.addSql(`create index "licenses_applied_at_index" on "licenses" ("applied_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "licenses" cascade;`);
  }
}
