import { Migration } from '@mikro-orm/migrations';

/**
 * Event delivery by notification (docs/events.md, "Waking up"): the commit trigger that numbers a
 * transaction's events also sends `pg_notify('polyterm_events', <client id>)`, so the live streams,
 * the webhook dispatcher and the NATS publisher wake when events commit instead of polling. PostgreSQL
 * folds identical notifications of one transaction into one, and the trigger runs once per
 * transaction, so an import of 100,000 terms sends one notification per client, not one per event.
 *
 * `event_publish_targets` records when a publishing target (a NATS stream) first started, so its
 * cursors start at the log's end then, and a client whose first event comes later is published whole.
 */
const NUMBERING = `
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
            from moved m cross join claimed;`;

export class Migration20270107120000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function polyterm_publish_events() returns trigger language plpgsql as $$
      declare
        r record;
      begin${NUMBERING}
          -- Delivered at commit, after the events are visible; never for a rollback.
          perform pg_notify('polyterm_events', r.client_id::text);
        end loop;
        delete from event_publish_marks where xact = new.xact;
        return null;
      end $$;`);
    this.addSql(`create table "event_publish_targets" (
      "target" text primary key,
      "started_at" timestamptz not null default now()
    );`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "event_publish_targets";');
    this.addSql(`create or replace function polyterm_publish_events() returns trigger language plpgsql as $$
      declare
        r record;
      begin${NUMBERING}
        end loop;
        delete from event_publish_marks where xact = new.xact;
        return null;
      end $$;`);
  }
}
