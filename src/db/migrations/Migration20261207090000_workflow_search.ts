import { Migration } from '@mikro-orm/migrations';

/**
 * Workflow states in term search (docs/workflows.md, "Term lists"): the Elasticsearch documents carry
 * each term's entry state, so a change of state reaches the index through the outbox like any other
 * change, in the writer's transaction and set-based (one statement trigger per event, whatever the
 * number of entries a bulk transition or an import moves). Switching a workflow on or off, another unit,
 * another initial state, or moving or deleting an enabled workflow queues a dictionary row: the drainer
 * then writes the dictionary's documents again from PostgreSQL, in batches (search-outbox.ts). The
 * states' flags (hidden, unpublished) are read from the definition at search time: no document holds them.
 * Dictionaries governed before this migration are queued once, so their documents get their states.
 *
 * PostgreSQL search probes an entry's state per listed term: the entry key with the state included
 * lets it read the index only (bench:search, docs/workflows.md "Figures").
 */
export class Migration20261207090000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index "workflow_entry_states_search_index" on "workflow_entry_states" ("workflow_id", "concept_id", "language_code", "term_id") include ("state");`,
    );
    this.addSql(`create function polyterm_outbox_workflow_states() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' then
          insert into search_outbox (concept_id) select distinct concept_id from old_rows;
        elsif tg_op = 'UPDATE' then
          -- Assignees, votes' versions and re-validation dates are not in the documents.
          insert into search_outbox (concept_id)
            select distinct n.concept_id from new_rows n join old_rows o on o.id = n.id
             where n.state is distinct from o.state or n.concept_id <> o.concept_id;
        else
          insert into search_outbox (concept_id) select distinct concept_id from new_rows;
        end if;
        return null;
      end $$;`);
    for (const [event, transition] of [
      ['insert', 'new table as new_rows'],
      ['update', 'old table as old_rows new table as new_rows'],
      ['delete', 'old table as old_rows'],
    ] as const) {
      this.addSql(
        `create trigger "workflow_entry_states_search_outbox_${event}" after ${event} on "workflow_entry_states" referencing ${transition} for each statement execute function polyterm_outbox_workflow_states();`,
      );
    }
    this.addSql(`create function polyterm_outbox_workflows() returns trigger language plpgsql as $$
      begin
        if tg_op in ('UPDATE', 'DELETE') and old.enabled and not old.deleted then
          if tg_op = 'DELETE' or not (new.enabled and not new.deleted)
             or old.dictionary_id <> new.dictionary_id or old.unit <> new.unit
             or old.definition->>'initialState' is distinct from new.definition->>'initialState' then
            insert into search_outbox (dictionary_id) values (old.dictionary_id);
          end if;
        end if;
        if tg_op in ('INSERT', 'UPDATE') and new.enabled and not new.deleted then
          if tg_op = 'INSERT' or not (old.enabled and not old.deleted) or old.dictionary_id <> new.dictionary_id then
            insert into search_outbox (dictionary_id) values (new.dictionary_id);
          end if;
        end if;
        return null;
      end $$;`);
    this.addSql(
      `create trigger "workflows_search_outbox" after insert or update or delete on "workflows" for each row execute function polyterm_outbox_workflows();`,
    );
    this.addSql(
      `insert into "search_outbox" ("dictionary_id") select distinct "dictionary_id" from "workflows" where "enabled" and not "deleted";`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists "workflow_entry_states_search_index";');
    this.addSql('drop trigger if exists "workflows_search_outbox" on "workflows";');
    this.addSql('drop function if exists polyterm_outbox_workflows();');
    for (const event of ['insert', 'update', 'delete']) {
      this.addSql(
        `drop trigger if exists "workflow_entry_states_search_outbox_${event}" on "workflow_entry_states";`,
      );
    }
    this.addSql('drop function if exists polyterm_outbox_workflow_states();');
  }
}
