import { Migration } from '@mikro-orm/migrations';

/**
 * Each term row keeps the stored state of its entry under its dictionary's enabled workflow
 * (`terms.workflow_state`; null: no state row, so the initial state), so that term
 * search checks a state with a comparison on the row it reads anyway instead of an index probe of
 * workflow_entry_states per candidate term (docs/workflows.md, "Figures": the probes cost the
 * PostgreSQL engine 11-19% of its throughput, the column nothing).
 *
 * The database keeps the copy right, whoever writes: statement triggers on workflow_entry_states
 * rewrite the terms of the entries a statement touched (one statement per event, whatever the number of
 * entries a bulk transition moves); a workflow switched on or given another unit recomputes its
 * dictionary (writing the copies that differ); new terms take their entry's state after their insert
 * statement; a term that changes concept, language or dictionary takes it before its update. The copy is
 * right while its dictionary's workflow is enabled; without one nothing reads it, so switching off writes
 * nothing (the next workflow switched on recomputes). The copy is derived data: rewriting it
 * must not queue search documents (the entry states' own trigger queues them) nor count as an edit, so
 * the terms' outbox trigger ignores updates made while `polyterm.term_state_sync` is on.
 */
const STATE_OF_TERM = (term: string) => `(select e.state from public.workflow_entry_states e
      where e.workflow_id = w.id and e.concept_id = ${term}.concept_id
        and e.language_code = (case w.unit when 'CONCEPT' then '' else ${term}.language_code end)
        and e.term_id = (case w.unit when 'TERM' then ${term}.id else 0 end))`;

/** The terms of the entry keys `keys` selects (workflow_id, concept_id, language_code, term_id) take their states. */
const SYNC_TERMS_OF = (keys: string) => `with k as (${keys})
          update public.terms t set workflow_state = s.state
            from (select distinct t2.id, ${STATE_OF_TERM('t2')} as state
                    from k
                    join public.workflows w on w.id = k.workflow_id and w.enabled and not w.deleted
                    join public.terms t2 on t2.concept_id = k.concept_id
                   where (w.unit = 'CONCEPT' and k.language_code = '' and k.term_id = 0)
                      or (w.unit = 'LANGUAGE' and k.term_id = 0 and t2.language_code = k.language_code)
                      or (w.unit = 'TERM' and t2.id = k.term_id)) s
           where t.id = s.id and t.workflow_state is distinct from s.state;`;

export class Migration20261216090000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "terms" add column "workflow_state" varchar(64) null;`);

    // The terms' outbox trigger, as before, but silent for the state copy's own updates.
    this.addSql(`create or replace function polyterm_outbox_terms() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' then
          -- Gone rows cannot be read back: their ids go along so that their documents are removed.
          insert into search_outbox (concept_id, term_id) select concept_id, id from old_rows;
        elsif tg_op = 'UPDATE' then
          if current_setting('polyterm.term_state_sync', true) = 'on' then
            return null;
          end if;
          insert into search_outbox (concept_id)
            select concept_id from new_rows union select concept_id from old_rows;
        else
          insert into search_outbox (concept_id) select distinct concept_id from new_rows;
        end if;
        return null;
      end $$;`);

    this.addSql(`create function polyterm_entry_states_terms() returns trigger language plpgsql as $$
      begin
        perform set_config('polyterm.term_state_sync', 'on', true);
        if tg_op = 'DELETE' then
          ${SYNC_TERMS_OF('select workflow_id, concept_id, language_code, term_id from old_rows')}
        elsif tg_op = 'UPDATE' then
          -- Assignees, votes and re-validation dates leave the terms alone; a moved entry frees its old terms.
          ${SYNC_TERMS_OF(`select k.* from new_rows n join old_rows o on o.id = n.id,
                lateral (values (n.workflow_id, n.concept_id, n.language_code, n.term_id),
                                (o.workflow_id, o.concept_id, o.language_code, o.term_id))
                  as k(workflow_id, concept_id, language_code, term_id)
               where n.state is distinct from o.state or n.workflow_id <> o.workflow_id
                  or n.concept_id <> o.concept_id or n.language_code <> o.language_code or n.term_id <> o.term_id`)}
        else
          ${SYNC_TERMS_OF('select workflow_id, concept_id, language_code, term_id from new_rows')}
        end if;
        perform set_config('polyterm.term_state_sync', '', true);
        return null;
      end $$;`);
    for (const [event, transition] of [
      ['insert', 'new table as new_rows'],
      ['update', 'old table as old_rows new table as new_rows'],
      ['delete', 'old table as old_rows'],
    ] as const) {
      this.addSql(
        `create trigger "workflow_entry_states_terms_${event}" after ${event} on "workflow_entry_states" referencing ${transition} for each statement execute function polyterm_entry_states_terms();`,
      );
    }

    // A dictionary's terms, all at once, when a workflow starts to govern it (switched on, or another
    // unit): only the copies that differ are written, so switching the same workflow off and on again
    // writes nothing. Switching off or deleting writes nothing either: nothing reads a copy while its
    // dictionary has no enabled workflow, and the next one switched on recomputes.
    this.addSql(`create function polyterm_sync_dictionary_term_states(p_dictionary int) returns void language plpgsql as $$
      begin
        perform set_config('polyterm.term_state_sync', 'on', true);
        update public.terms t set workflow_state = s.state
          from (select t2.id, ${STATE_OF_TERM('t2')} as state
                  from public.terms t2
                  join public.workflows w on w.dictionary_id = t2.dictionary_id and w.enabled and not w.deleted
                 where t2.dictionary_id = p_dictionary) s
         where t.id = s.id and t.workflow_state is distinct from s.state;
        perform set_config('polyterm.term_state_sync', '', true);
      end $$;`);
    this.addSql(`create function polyterm_workflows_terms() returns trigger language plpgsql as $$
      begin
        if new.enabled and not new.deleted
           and (tg_op = 'INSERT' or not (old.enabled and not old.deleted)
                or old.dictionary_id <> new.dictionary_id or old.unit <> new.unit) then
          perform public.polyterm_sync_dictionary_term_states(new.dictionary_id);
        end if;
        return null;
      end $$;`);
    this.addSql(
      `create trigger "workflows_terms" after insert or update on "workflows" for each row execute function polyterm_workflows_terms();`,
    );

    // New terms: one statement for the insert's rows; nothing to write without an enabled workflow.
    this.addSql(`create function polyterm_terms_insert_state() returns trigger language plpgsql as $$
      begin
        perform set_config('polyterm.term_state_sync', 'on', true);
        update public.terms t set workflow_state = s.state
          from (select n.id, ${STATE_OF_TERM('n')} as state
                  from new_rows n
                  join public.workflows w on w.dictionary_id = n.dictionary_id and w.enabled and not w.deleted) s
         where t.id = s.id and s.state is not null;
        perform set_config('polyterm.term_state_sync', '', true);
        return null;
      end $$;`);
    this.addSql(
      `create trigger "terms_workflow_state_insert" after insert on "terms" referencing new table as new_rows for each statement execute function polyterm_terms_insert_state();`,
    );
    // A term moved to another concept, language or dictionary belongs to another entry.
    this.addSql(`create function polyterm_terms_moved_state() returns trigger language plpgsql as $$
      begin
        new.workflow_state := (select ${STATE_OF_TERM('new')} from public.workflows w
                                where w.dictionary_id = new.dictionary_id and w.enabled and not w.deleted);
        return new;
      end $$;`);
    this.addSql(
      `create trigger "terms_workflow_state_moved" before update of "concept_id", "language_code", "dictionary_id" on "terms" for each row
         when (old.concept_id is distinct from new.concept_id or old.language_code is distinct from new.language_code
               or old.dictionary_id is distinct from new.dictionary_id)
         execute function polyterm_terms_moved_state();`,
    );

    // Terms of the dictionaries governed now.
    this.addSql(
      `select polyterm_sync_dictionary_term_states("dictionary_id") from "workflows" where "enabled" and not "deleted";`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger if exists "terms_workflow_state_moved" on "terms";');
    this.addSql('drop function if exists polyterm_terms_moved_state();');
    this.addSql('drop trigger if exists "terms_workflow_state_insert" on "terms";');
    this.addSql('drop function if exists polyterm_terms_insert_state();');
    this.addSql('drop trigger if exists "workflows_terms" on "workflows";');
    this.addSql('drop function if exists polyterm_workflows_terms();');
    this.addSql('drop function if exists polyterm_sync_dictionary_term_states(int);');
    for (const event of ['insert', 'update', 'delete']) {
      this.addSql(
        `drop trigger if exists "workflow_entry_states_terms_${event}" on "workflow_entry_states";`,
      );
    }
    this.addSql('drop function if exists polyterm_entry_states_terms();');
    this.addSql(`alter table "terms" drop column if exists "workflow_state";`);
  }
}
