import { Migration } from '@mikro-orm/migrations';

/**
 * Blob storage in PostgreSQL (src/modules/storage, docs/attachments.md): files as 256 KiB bytea chunks,
 * so pg_dump holds them and deleting a blob deletes its chunks. `complete` turns true when the last chunk
 * is written; incomplete blobs are swept. A client's blobs go with the client.
 */
export class Migration20270102090000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "storage_blobs" (
      "key" uuid primary key,
      "client_id" integer null references "clients" ("id") on update cascade on delete cascade,
      "size" bigint not null,
      "sha256" varchar(64) not null,
      "content_type" varchar(255) not null,
      "complete" boolean not null default false,
      "created_at" timestamptz not null default now()
    );`);
    this.addSql('create index "storage_blobs_client_id_index" on "storage_blobs" ("client_id");');
    this.addSql(
      'create index "storage_blobs_incomplete_index" on "storage_blobs" ("created_at") where not "complete";',
    );
    this.addSql(`create table "storage_blob_chunks" (
      "blob_key" uuid not null references "storage_blobs" ("key") on delete cascade,
      "n" integer not null,
      "data" bytea not null,
      primary key ("blob_key", "n")
    );`);
    // Chunks are already compressed images mostly: skip TOAST's compression attempt.
    this.addSql('alter table "storage_blob_chunks" alter column "data" set storage external;');
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "storage_blob_chunks";');
    this.addSql('drop table if exists "storage_blobs";');
  }
}
