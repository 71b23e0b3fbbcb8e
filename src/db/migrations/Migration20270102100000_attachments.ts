import { Migration } from '@mikro-orm/migrations';

/**
 * Attachments (docs/attachments.md): the ATTACHMENT field type, whose values are attachment keys, and one
 * row per uploaded file. Rows never change (a replaced file is a new key), so history, undo and
 * dictionary copies share them; access always goes through a concept whose values name the key. The
 * dictionary is where the file was uploaded: a copy outlives it, so its deletion only clears the column.
 */
export class Migration20270102100000 extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "fields" drop constraint if exists "fields_field_type_check";');
    this.addSql(`alter table "fields" add constraint "fields_field_type_check" check ("field_type" in
      ('SINGLELINE', 'MULTILINE', 'NUMBER', 'DATE', 'PICKLIST', 'MULTISELECT', 'INCREMENTAL', 'ATTACHMENT'));`);
    this.addSql(`create table "attachments" (
      "key" uuid primary key references "storage_blobs" ("key"),
      "client_id" integer not null references "clients" ("id") on update cascade on delete cascade,
      "dictionary_id" integer null references "dictionaries" ("id") on update cascade on delete set null,
      "file_name" varchar(255) not null,
      "content_type" varchar(255) not null,
      "size" bigint not null,
      "sha256" varchar(64) not null,
      "width" integer null,
      "height" integer null,
      "thumbnail_key" uuid null references "storage_blobs" ("key"),
      "created_at" timestamptz not null default now(),
      "created_by_id" integer null references "users" ("id") on update cascade on delete set null
    );`);
    this.addSql('create index "attachments_client_id_key_index" on "attachments" ("client_id", "key");');
    this.addSql('create index "attachments_dictionary_id_index" on "attachments" ("dictionary_id");');
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "attachments";');
    this.addSql('alter table "fields" drop constraint if exists "fields_field_type_check";');
    this.addSql(`alter table "fields" add constraint "fields_field_type_check" check ("field_type" in
      ('SINGLELINE', 'MULTILINE', 'NUMBER', 'DATE', 'PICKLIST', 'MULTISELECT', 'INCREMENTAL'));`);
  }
}
