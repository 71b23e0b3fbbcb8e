import { Migration } from '@mikro-orm/migrations';

/**
 * The event log (docs/events.md): one row per change, written in the change's own transaction.
 *
 * Writers insert `event_drafts` (no number yet): concept and term events come from a statement
 * trigger on concept_history, so every concept write (editor, REST, GraphQL, undo, workflow moves,
 * imports with their bulk inserts) has its events without a service having to remember them; other
 * changes insert drafts themselves (recordEvent). At COMMIT a deferred constraint trigger, fired once
 * per transaction through a mark row, moves the transaction's drafts into `events`, numbering them from
 * the client's counter row in `event_sequences`.
 *
 * Ordering: the counter row stays locked from that moment until the commit is done, so a later
 * transaction of the same client numbers its events only after the earlier one's are visible: a feed
 * reader that has seen sequence n never sees n + 2 while n + 1 is still to come, and a rollback leaves
 * no gap. Because the numbering happens at commit, a long transaction (an import of 100,000 terms)
 * holds the counter only for its last moment, not for its whole run: a client's writers serialise
 * just for their commits.
 */
export class Migration20270106140000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "events" (
      "id" bigserial primary key,
      "client_id" int not null references "clients" ("id") on update cascade on delete cascade,
      "sequence" bigint not null,
      "type" varchar(64) not null,
      "dictionary_id" int null,
      "section_id" int null,
      "concept_id" int null,
      "term_id" int null,
      "actor_id" int null,
      "occurred_at" timestamptz not null default now(),
      "data" jsonb not null default '{}'::jsonb
    );`);
    this.addSql(`create unique index "events_client_sequence" on "events" ("client_id", "sequence");`);
    this.addSql(
      `create index "events_client_dictionary_sequence" on "events" ("client_id", "dictionary_id", "sequence");`,
    );
    // Drafts live only inside their transaction: published (moved) at its commit, gone with a rollback.
    this.addSql(`create table "event_drafts" (
      "id" bigserial primary key,
      "xact" xid8 not null default pg_current_xact_id(),
      "client_id" int not null,
      "type" varchar(64) not null,
      "dictionary_id" int null,
      "section_id" int null,
      "concept_id" int null,
      "term_id" int null,
      "actor_id" int null,
      "occurred_at" timestamptz not null default now(),
      "data" jsonb not null default '{}'::jsonb
    );`);
    this.addSql(`create index "event_drafts_xact" on "event_drafts" ("xact", "client_id");`);
    this.addSql(`create table "event_publish_marks" ("xact" xid8 primary key);`);
    this.addSql(`create table "event_sequences" (
      "client_id" int primary key references "clients" ("id") on update cascade on delete cascade,
      "last_sequence" bigint not null default 0
    );`);

    // Locks the client's counter (until the transaction ends) and reserves `count` numbers; returns
    // the first.
    this.addSql(`create or replace function polyterm_claim_event_sequences(p_client int, p_count bigint)
      returns bigint language sql as $$
        insert into event_sequences (client_id, last_sequence) values (p_client, p_count)
        on conflict (client_id) do update set last_sequence = event_sequences.last_sequence + excluded.last_sequence
        returning last_sequence - p_count + 1
      $$;`);
    // The first drafts of a transaction leave its mark; the mark's deferred trigger publishes at commit.
    this.addSql(`create or replace function polyterm_event_drafts_mark() returns trigger language plpgsql as $$
      begin
        insert into event_publish_marks (xact) values (pg_current_xact_id()) on conflict do nothing;
        return null;
      end $$;`);
    this.addSql(
      `create trigger "event_drafts_mark" after insert on "event_drafts" for each statement execute function polyterm_event_drafts_mark();`,
    );
    this.addSql(`create or replace function polyterm_publish_events() returns trigger language plpgsql as $$
      declare
        r record;
      begin
        for r in select client_id, count(*) as n from event_drafts where xact = new.xact
                  group by client_id order by client_id loop
          with moved as (
            delete from event_drafts where xact = new.xact and client_id = r.client_id returning *
          ), claimed as materialized (
            select polyterm_claim_event_sequences(r.client_id, r.n) as first_sequence
          )
          insert into events (client_id, sequence, type, dictionary_id, section_id, concept_id, term_id, actor_id, occurred_at, data)
          select m.client_id, claimed.first_sequence + row_number() over (order by m.id) - 1, m.type, m.dictionary_id,
                 m.section_id, m.concept_id, m.term_id, m.actor_id, m.occurred_at, m.data
            from moved m cross join claimed;
        end loop;
        delete from event_publish_marks where xact = new.xact;
        return null;
      end $$;`);
    this.addSql(
      `create constraint trigger "event_publish" after insert on "event_publish_marks" deferrable initially deferred for each row execute function polyterm_publish_events();`,
    );

    // concept.<action> for every history row (workflow.transitioned for a workflow move, whose item
    // starts with its WORKFLOW change), and term.<change> for each term an update, restore or undo
    // added, changed or removed (a created concept's terms are listed in its own event). The changes
    // list names what changed (subject, field, term, language), without the values: a subscriber
    // reads those from the concept, through its own permissions.
    this.addSql(`create or replace function polyterm_concept_history_events() returns trigger language plpgsql as $$
      begin
        insert into event_drafts (client_id, type, dictionary_id, section_id, concept_id, term_id, actor_id, occurred_at, data)
        select client_id, type, dictionary_id, section_id, concept_id, term_id, actor_id, occurred_at, data
        from (
            select h.id as history_id, 0 as part, null::int as term_order, h.client_id,
              case when h.changes->0->>'subject' = 'WORKFLOW' then 'workflow.transitioned'
                else 'concept.' || case h.action when 'CREATE' then 'created' when 'UPDATE' then 'updated'
                  when 'DELETE' then 'deleted' when 'RESTORE' then 'restored' else 'undone' end end as type,
              h.dictionary_id, nullif(h.snapshot->>'sectionId', '')::int as section_id, h.concept_id,
              case when h.changes->0->>'subject' = 'WORKFLOW' then (h.changes->0->>'termId')::int end as term_id,
              h.user_id as actor_id, h.created_at as occurred_at,
              jsonb_build_object(
                'historyId', h.id, 'revision', h.revision, 'cid', h.snapshot->'cid',
                'termIds', coalesce((select jsonb_agg(t->'id') from jsonb_array_elements(h.snapshot->'terms') t), '[]'::jsonb)
              ) || case when h.action = 'CREATE' then '{}'::jsonb else jsonb_build_object(
                'changes', coalesce((select jsonb_agg(c - 'before' - 'after') from jsonb_array_elements(h.changes) c), '[]'::jsonb)
              ) end
              -- A move names its states and transition (not its comment, which only the history shows).
              || case when h.changes->0->>'subject' = 'WORKFLOW' then jsonb_strip_nulls(jsonb_build_object(
                'fromState', h.changes->0->'before'->'state', 'toState', h.changes->0->'after'->'state',
                'transition', h.changes->0->'after'->'transition', 'languageCode', h.changes->0->'after'->'languageCode'
              )) else '{}'::jsonb end as data
            from added h
            union all
            select h.id, 1, tc.term_id, h.client_id,
              case
                when tc.kinds @> array['ADDED'] and h.action in ('RESTORE', 'UNDO') then 'term.restored'
                when tc.kinds @> array['ADDED'] then 'term.created'
                when tc.kinds @> array['REMOVED'] then 'term.deleted'
                else 'term.updated' end,
              h.dictionary_id, nullif(h.snapshot->>'sectionId', '')::int, h.concept_id, tc.term_id,
              h.user_id, h.created_at,
              jsonb_build_object('historyId', h.id, 'revision', h.revision, 'action', h.action, 'changes', tc.changes)
            from added h
            cross join lateral (
              select (c->>'termId')::int as term_id,
                array_agg(c->>'kind') filter (where c->>'subject' = 'TERM') as kinds,
                jsonb_agg(c - 'before' - 'after') as changes
              from jsonb_array_elements(h.changes) c
              where c->>'subject' in ('TERM', 'TERM_FIELD') and c ? 'termId'
              group by 1
            ) tc
            where h.action <> 'CREATE'
        ) e
        order by history_id, part, term_order;
        return null;
      end $$;`);
    this.addSql(
      `create trigger "concept_history_events" after insert on "concept_history" referencing new table as added for each statement execute function polyterm_concept_history_events();`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger if exists "concept_history_events" on "concept_history";');
    this.addSql('drop function if exists polyterm_concept_history_events();');
    this.addSql('drop table if exists "event_publish_marks";');
    this.addSql('drop function if exists polyterm_publish_events();');
    this.addSql('drop table if exists "event_drafts";');
    this.addSql('drop function if exists polyterm_event_drafts_mark();');
    this.addSql('drop table if exists "events";');
    this.addSql('drop function if exists polyterm_claim_event_sequences(int, bigint);');
    this.addSql('drop table if exists "event_sequences";');
  }
}
