import { Migration } from '@mikro-orm/migrations';

/**
 * The event log (docs/events.md): one row per change, written in the change's own transaction.
 *
 * Ordering: `sequence` counts a client's events without gaps, in commit order. A client's counter
 * row in `event_sequences` is locked by the first event a transaction writes and stays locked until
 * it commits or rolls back, so a later writer of the same client numbers its events only after the
 * earlier one is visible: a feed reader that has seen sequence n never sees n + 2 before n + 1. The
 * price is that a client's writers serialise from their first event to their commit, which is why
 * events are written last: concept events by the statement trigger on concept_history (at flush, just
 * before commit), other events by the ORM at the same flush.
 *
 * Concept events come from the history rows, so every concept write (editor, REST, GraphQL, undo,
 * imports with their bulk inserts) has its events without a service having to remember them; a
 * statement trigger with a transition table turns a bulk insert of history rows into one insert of
 * events, one lock of the counter per client.
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
    this.addSql(`create table "event_sequences" (
      "client_id" int primary key references "clients" ("id") on update cascade on delete cascade,
      "last_sequence" bigint not null default 0
    );`);

    // Locks the client's counter (until the transaction ends) and reserves `count` numbers; returns
    // the first. A rolled-back transaction gives its numbers back with the counter's update.
    this.addSql(`create or replace function polyterm_claim_event_sequences(p_client int, p_count bigint)
      returns bigint language sql as $$
        insert into event_sequences (client_id, last_sequence) values (p_client, p_count)
        on conflict (client_id) do update set last_sequence = event_sequences.last_sequence + excluded.last_sequence
        returning last_sequence - p_count + 1
      $$;`);
    // Events inserted without a sequence (the ORM's) take the next one.
    this.addSql(`create or replace function polyterm_events_sequence() returns trigger language plpgsql as $$
      begin
        new.sequence := polyterm_claim_event_sequences(new.client_id, 1);
        return new;
      end $$;`);
    this.addSql(
      `create trigger "events_sequence" before insert on "events" for each row when (new.sequence is null) execute function polyterm_events_sequence();`,
    );

    // concept.<action> for every history row, and term.<change> for each term an update, restore or
    // undo added, changed or removed (a created concept's terms are listed in its own event). The
    // changes list names what changed (subject, field, term, language), without the values: a
    // subscriber reads those from the concept, through its own permissions.
    this.addSql(`create or replace function polyterm_concept_history_events() returns trigger language plpgsql as $$
      declare
        r record;
      begin
        for r in select client_id, count(*) as n from added group by client_id order by client_id loop
          with e as materialized (
            select h.id as history_id, 0 as part, null::int as term_order, h.client_id,
              'concept.' || case h.action when 'CREATE' then 'created' when 'UPDATE' then 'updated'
                when 'DELETE' then 'deleted' when 'RESTORE' then 'restored' else 'undone' end as type,
              h.dictionary_id, nullif(h.snapshot->>'sectionId', '')::int as section_id, h.concept_id,
              null::int as term_id, h.user_id as actor_id, h.created_at as occurred_at,
              jsonb_build_object(
                'historyId', h.id, 'revision', h.revision, 'cid', h.snapshot->'cid',
                'termIds', coalesce((select jsonb_agg(t->'id') from jsonb_array_elements(h.snapshot->'terms') t), '[]'::jsonb)
              ) || case when h.action = 'CREATE' then '{}'::jsonb else jsonb_build_object(
                'changes', coalesce((select jsonb_agg(c - 'before' - 'after') from jsonb_array_elements(h.changes) c), '[]'::jsonb)
              ) end as data
            from added h where h.client_id = r.client_id
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
            where h.client_id = r.client_id and h.action <> 'CREATE'
          ),
          claimed as materialized (
            select polyterm_claim_event_sequences(r.client_id, (select count(*) from e)) as first_sequence
          )
          insert into events (client_id, sequence, type, dictionary_id, section_id, concept_id, term_id, actor_id, occurred_at, data)
          select e.client_id, claimed.first_sequence + row_number() over (order by e.history_id, e.part, e.term_order) - 1,
            e.type, e.dictionary_id, e.section_id, e.concept_id, e.term_id, e.actor_id, e.occurred_at, e.data
          from e cross join claimed;
        end loop;
        return null;
      end $$;`);
    this.addSql(
      `create trigger "concept_history_events" after insert on "concept_history" referencing new table as added for each statement execute function polyterm_concept_history_events();`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger if exists "concept_history_events" on "concept_history";');
    this.addSql('drop function if exists polyterm_concept_history_events();');
    this.addSql('drop table if exists "events";');
    this.addSql('drop function if exists polyterm_events_sequence();');
    this.addSql('drop function if exists polyterm_claim_event_sequences(int, bigint);');
    this.addSql('drop table if exists "event_sequences";');
  }
}
