import { Migration } from '@mikro-orm/migrations';

/**
 * A masked hint of each client's API key (its first characters and an ellipsis), shown to
 * administrators on every read so that keys can be told apart (docs/identity.md, "API keys"); the key
 * itself stays stored only as its hash. Keys made before this migration have no hint (null) until
 * they are generated again.
 */
export class Migration20261217100000 extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "clients" add column "api_key_hint" varchar(16) null;');
  }

  override async down(): Promise<void> {
    this.addSql('alter table "clients" drop column if exists "api_key_hint";');
  }
}
