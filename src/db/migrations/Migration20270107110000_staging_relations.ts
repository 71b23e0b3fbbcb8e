import { Migration } from '@mikro-orm/migrations';

/**
 * Relations between staged entries (docs/staging.md, "Relations between staged entries"), additive: a
 * staged SKOS entry keeps its skos:broader/narrower/related links (`links`; the import's entry model has
 * no place for them), and a link from an accepted entry to one still PENDING in the same area waits in
 * `staging_pending_relations` until that entry is accepted (the relation is made) or rejected (dropped).
 * Also: a staged entry's final decision is unique (the invariant of StagingDecision, staging.entity.ts).
 */
export class Migration20270107110000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "staged_entries" add column if not exists "links" jsonb null;`);
    this.addSql(`create table if not exists "staging_pending_relations" (
      "id" serial primary key,
      "client_id" int not null references "clients" ("id") on update cascade on delete cascade,
      "staging_area_id" int not null references "staging_areas" ("id") on update cascade on delete cascade,
      "source_entry_id" int not null references "staged_entries" ("id") on update cascade on delete cascade,
      "source_concept_id" int not null references "concepts" ("id") on update cascade on delete cascade,
      "target_entry_id" varchar(255) not null,
      "kind" text not null check ("kind" in ('crossReference', 'broader', 'narrower', 'related')),
      "text" text null,
      "created_at" timestamptz not null default now()
    );`);
    this.addSql(
      `create index if not exists "staging_pending_relations_target_index" on "staging_pending_relations" ("staging_area_id", "target_entry_id");`,
    );
    // One final decision per staged entry (StagingDecision's invariant, staging.entity.ts), held by the database too.
    this.addSql(
      `create unique index if not exists "staging_decisions_final_unique" on "staging_decisions" ("staged_entry_id") where "decision" in ('ACCEPTED', 'REJECTED');`,
    );
    // Accepting looks the area's PENDING entries up by the id their file gave them.
    this.addSql(
      `create index if not exists "staged_entries_entry_id_index" on "staged_entries" ("staging_area_id", "entry_id") where "status" = 'PENDING';`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists "staged_entries_entry_id_index";');
    this.addSql('drop index if exists "staging_decisions_final_unique";');
    this.addSql('drop table if exists "staging_pending_relations";');
    this.addSql('alter table "staged_entries" drop column if exists "links";');
  }
}
