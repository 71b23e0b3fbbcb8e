import { Migration } from '@mikro-orm/migrations';

/**
 * Client API keys are stored as their SHA-256 (hex), as session and reset tokens are: a database dump
 * no longer holds keys that log in. Keys in use keep working (login compares hashes). The key is shown
 * once, in the answer of generate-new-api-key. `down` cannot bring the keys back: after it, generate
 * new ones.
 */
export class Migration20261201090000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`update "clients" set "api_key" = encode(sha256(convert_to("api_key", 'UTF8')), 'hex');`);
    this.addSql(`alter table "clients" rename column "api_key" to "api_key_hash";`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "clients" rename column "api_key_hash" to "api_key";`);
  }
}
