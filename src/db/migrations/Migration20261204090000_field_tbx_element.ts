import { Migration } from '@mikro-orm/migrations';

/**
 * The TBX element (descrip, admin, termNote) a field's values came in, for fields a TBX import made for
 * categories TBX does not define: the full export writes them back in the same element instead of
 * guessing one by level (docs/tbx.md, Dialects). Null for every other field.
 */
export class Migration20261204090000 extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "fields" add column "tbx_element" varchar(16) null;');
  }

  override async down(): Promise<void> {
    this.addSql('alter table "fields" drop column if exists "tbx_element";');
  }
}
