/**
 * The term rows' copy of their entries' workflow states (`terms.workflow_state`, kept by the database's
 * triggers: Migration20261216090000), which term search and exports compare instead of probing the state
 * rows. Whatever writes, the copy must equal what the state rows say: after single and bulk transitions
 * in each unit, for terms added to an entry that has a state, for a term moved to another language, and
 * after the workflow is switched on again or another one is; switched off, nothing reads the copies.
 * Rewriting the copy queues no search documents of its own, and a term added to an approved entry is
 * listed as approved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConceptBody,
  patchConcept,
  rows,
  type Server,
  startServer,
  termInput,
} from '../concepts/concept-helpers.js';
import type { RestClient } from '../helpers/rest.js';
import type { SearchResponse } from '../search/search-helpers.js';
import { draftAndApproved, enableWorkflow, fire, transition, workflowWorld } from './workflow-helpers.js';

let server: Server;
beforeAll(async () => {
  server = await startServer();
}, 120_000);
afterAll(() => server?.close());

interface CopyRow {
  id: number;
  language_code: string;
  copy: string | null;
  truth: string | null;
}

/** Each term of the dictionary: its copy, and its entry's stored state read from the state rows. */
const copies = (dictionaryId: number) =>
  rows<CopyRow>(
    server.t,
    `select t.id, t.language_code, t.workflow_state as copy,
            (select e.state from workflows w
               join workflow_entry_states e on e.workflow_id = w.id and e.concept_id = t.concept_id
                and e.language_code = (case w.unit when 'CONCEPT' then '' else t.language_code end)
                and e.term_id = (case w.unit when 'TERM' then t.id else 0 end)
              where w.dictionary_id = t.dictionary_id and w.enabled and not w.deleted) as truth
       from terms t where t.dictionary_id = ? order by t.id`,
    [dictionaryId],
  );

/** The copies agree with the state rows; answers them by term id. */
async function expectCopiesRight(dictionaryId: number) {
  const found = await copies(dictionaryId);
  expect(found.length).toBeGreaterThan(0);
  expect(found.filter((row) => row.copy !== row.truth)).toEqual([]);
  return new Map(found.map((row) => [row.id, row.copy]));
}

const updateWorkflow = async (caller: RestClient, id: number, changes: Record<string, unknown>) => {
  const current = await caller.get<{ version: number }>(`/workflows/${id}`);
  expect(current.status, current.text).toBe(200);
  const updated = await caller.put(`/workflows/partial/${id}`, { version: current.body.version, ...changes });
  expect(updated.status, updated.text).toBe(200);
};

describe("the term rows' copy of their workflow states", { timeout: 120_000 }, () => {
  it('follows transitions, new and moved terms, and the workflow switched off, on, replaced and deleted', async () => {
    const w = await workflowWorld(server.t, server.sysadmin);
    const first = await w.concept();
    const second = await w.concept();
    const workflow = await enableWorkflow(w, 'Default');
    const [englishTerm, germanTerm] = [first.terms[0]!.id, first.terms[1]!.id];
    // Switched on: every entry is in the initial state, and no state row exists yet.
    expect([...(await expectCopiesRight(w.dictionary.id)).values()].every((copy) => copy === null)).toBe(
      true,
    );

    // A single transition of the English entry (LANGUAGE unit) reaches its terms only.
    const submitted = await fire(w.author.rest, {
      conceptId: first.id,
      languageCode: 'eng',
      transition: 'submit',
      version: 0,
    });
    expect(submitted.status, submitted.text).toBe(200);
    const approved = await fire(w.dictAdmin.rest, {
      conceptId: first.id,
      languageCode: 'eng',
      transition: 'approve',
      version: 1,
      comment: 'checked',
    });
    expect(approved.status, approved.text).toBe(200);
    let copy = await expectCopiesRight(w.dictionary.id);
    expect(copy.get(englishTerm)).toBe('approved');
    expect(copy.get(germanTerm)).toBeNull();

    // A term added to the approved English entry takes its state in its own insert statement; the
    // addition re-opens the entry (the default workflow's rule), and the copy follows that too.
    const read = await w.admin.get<ConceptBody>(`/concepts/${first.id}?format=FULL`);
    expect(read.status, read.text).toBe(200);
    const stateBefore = await rows<{ state: string }>(
      server.t,
      `select state from workflow_entry_states where concept_id = ? and language_code = 'eng'`,
      [first.id],
    );
    const added = await patchConcept(server.api(w.admin), read.body, {
      terms: [...read.body.terms.map(termInput), { name: `synonym ${Date.now()}`, languageCode: 'eng' }],
    });
    expect(added.status, added.text).toBe(200);
    // (Read in SQL: the re-opened entry is unpublished, so the answer does not show it to the author.)
    const [newTerm] = await rows<{ id: number }>(
      server.t,
      `select id from terms where concept_id = ? and name like 'synonym %'`,
      [first.id],
    );
    copy = await expectCopiesRight(w.dictionary.id);
    const stateAfter = await rows<{ state: string }>(
      server.t,
      `select state from workflow_entry_states where concept_id = ? and language_code = 'eng'`,
      [first.id],
    );
    expect(stateBefore[0]!.state).toBe('approved');
    expect(copy.get(newTerm!.id)).toBe(stateAfter[0]!.state);
    expect(copy.get(englishTerm)).toBe(stateAfter[0]!.state);

    // Any writer: a term moved to German in SQL belongs to the German entry (no state row: null).
    await rows(server.t, `update terms set language_code = 'deu' where id = ?`, [newTerm!.id]);
    copy = await expectCopiesRight(w.dictionary.id);
    expect(copy.get(newTerm!.id)).toBeNull();

    // A bulk transition writes the copies of every entry it moves, in one statement per batch.
    const bulk = await w.dictAdmin.rest.post<{ result?: { moved: number } }>('/workflows/bulk-transitions', {
      dictionaryId: w.dictionary.id,
      transition: 'submit',
      languageCode: 'deu',
      conceptIds: [first.id, second.id],
    });
    expect(bulk.status, bulk.text).toBe(200);
    expect(bulk.body.result?.moved).toBe(2);
    copy = await expectCopiesRight(w.dictionary.id);
    expect(copy.get(germanTerm)).toBe('inReview');
    expect(copy.get(newTerm!.id)).toBe('inReview');
    expect(copy.get(second.terms[1]!.id)).toBe('inReview');

    // Switched off: nothing reads the copies, so none is written (the author, who does not review, lists
    // the unpublished German entries again); on again: the same copies are right, and none is rewritten.
    const germanOf = async (caller: RestClient) => {
      const found = await caller.post<SearchResponse>('/terms/search', {
        dictionaryIds: [w.dictionary.id],
        langCode: 'deu',
        sectionOids: [],
        name: '',
      });
      expect(found.status, found.text).toBe(200);
      return found.body.total;
    };
    expect(await germanOf(w.author.rest)).toBe(0);
    const version = async () =>
      (await rows<{ xmin: string }>(server.t, 'select xmin::text from terms where id = ?', [germanTerm]))[0]!
        .xmin;
    const written = await version();
    await updateWorkflow(w.dictAdmin.rest, workflow.id, { enabled: false });
    expect(await germanOf(w.author.rest)).toBe(3);
    await updateWorkflow(w.dictAdmin.rest, workflow.id, { enabled: true });
    copy = await expectCopiesRight(w.dictionary.id);
    expect(copy.get(germanTerm)).toBe('inReview');
    expect(await version()).toBe(written);
    expect(await germanOf(w.author.rest)).toBe(0);

    // Another workflow, per concept, governs instead (a unit cannot change once entries have states):
    // the first workflow's rows no longer count.
    await updateWorkflow(w.dictAdmin.rest, workflow.id, { enabled: false });
    const perConcept = await enableWorkflow(w, 'Per concept', { unit: 'CONCEPT' });
    expect([...(await expectCopiesRight(w.dictionary.id)).values()].every((c) => c === null)).toBe(true);
    const concept = await fire(w.author.rest, { conceptId: second.id, transition: 'submit', version: 0 });
    expect(concept.status, concept.text).toBe(200);
    copy = await expectCopiesRight(w.dictionary.id);
    expect(second.terms.map((term) => copy.get(term.id))).toEqual(['inReview', 'inReview']);
    expect(copy.get(englishTerm)).toBeNull();

    // Deleted: nothing governs the dictionary, whatever the copies hold.
    const deleted = await w.dictAdmin.rest.delete(`/workflows/${perConcept.id}`);
    expect(deleted.status, deleted.text).toBe(204);
    expect(await germanOf(w.author.rest)).toBe(3);
  });

  it('keeps the TERM unit per term, and a term added to an approved concept is listed as approved', async () => {
    const w = await workflowWorld(server.t, server.sysadmin);
    const created = await w.concept();
    await enableWorkflow(w, 'Terms', {
      unit: 'TERM',
      definition: draftAndApproved(transition('approve', 'Approve', ['draft'], 'ok', ['DICTIONARY_ADMIN'])),
    });
    const [english, german] = created.terms;
    const moved = await fire(w.dictAdmin.rest, {
      conceptId: created.id,
      termId: english!.id,
      transition: 'approve',
      version: 0,
    });
    expect(moved.status, moved.text).toBe(200);
    const copy = await expectCopiesRight(w.dictionary.id);
    expect([copy.get(english!.id), copy.get(german!.id)]).toEqual(['ok', null]);

    // CONCEPT unit on another dictionary: a term added to the approved concept is found as approved,
    // and its style and state come from the row the search read.
    const v = await workflowWorld(server.t, server.sysadmin);
    const base = await v.concept();
    await enableWorkflow(v, 'Concepts', {
      unit: 'CONCEPT',
      definition: {
        ...draftAndApproved(transition('approve', 'Approve', ['draft'], 'ok', ['DICTIONARY_ADMIN'])),
        onEditOfApproved: 'KEEP',
      },
    });
    const approved = await fire(v.dictAdmin.rest, { conceptId: base.id, transition: 'approve', version: 0 });
    expect(approved.status, approved.text).toBe(200);
    const read = await v.admin.get<ConceptBody>(`/concepts/${base.id}?format=FULL`);
    const name = `zzadded${Date.now()}`;
    const added = await patchConcept(server.api(v.admin), read.body, {
      terms: [{ name, languageCode: 'eng' }],
    });
    expect(added.status, added.text).toBe(200);
    await expectCopiesRight(v.dictionary.id);
    const search = (states: string[]) =>
      v.admin.post<SearchResponse>('/terms/search', {
        dictionaryIds: [v.dictionary.id],
        langCode: 'eng',
        sectionOids: [],
        name,
        workflowStates: states,
      });
    const inApproved = await search(['ok']);
    expect(inApproved.status, inApproved.text).toBe(200);
    expect(inApproved.body.results.map((entry) => entry.name)).toEqual([name]);
    expect((await search(['draft'])).body.total).toBe(0);
  });

  it('duplicates read the states from the term rows: styled, and hidden ones left out', async () => {
    const w = await workflowWorld(server.t, server.sysadmin);
    const name = `twin${Date.now()}`;
    const ids: number[] = [];
    for (let index = 0; index < 3; index++) {
      const created = await w.admin.post<{ id: number }>('/concepts', {
        dictionaryId: w.dictionary.id,
        sectionOid: w.dictionary.sections[0]!.oid,
        terms: [{ name, languageCode: 'eng' }],
      });
      expect(created.status, created.text).toBe(201);
      ids.push(created.body.id);
    }
    await enableWorkflow(w, 'Default');
    // The first stays suggested, the second goes in review, the third is rejected (hidden).
    for (const conceptId of ids.slice(1)) {
      const submitted = await fire(w.author.rest, {
        conceptId,
        languageCode: 'eng',
        transition: 'submit',
        version: 0,
      });
      expect(submitted.status, submitted.text).toBe(200);
    }
    const rejected = await fire(w.dictAdmin.rest, {
      conceptId: ids[2],
      languageCode: 'eng',
      transition: 'reject',
      version: 1,
      comment: 'not ours',
    });
    expect(rejected.status, rejected.text).toBe(200);
    const list = await w.dictAdmin.rest.get<{ conceptId: number; style: string }[]>(
      `/terms/duplicates?term=${name}&dictionary-id=${w.dictionary.id}&lang-code=eng`,
    );
    expect(list.status, list.text).toBe(200);
    expect(list.body.map((entry) => [entry.conceptId, entry.style]).sort()).toEqual(
      [
        [ids[0], 'font-style: italic'],
        [ids[1], 'color: #8a6d00'],
      ].sort(),
    );
    // The author does not review: suggested and in review are unpublished for them.
    const forAuthor = await w.author.rest.get<unknown[]>(
      `/terms/duplicates?term=${name}&dictionary-id=${w.dictionary.id}&lang-code=eng`,
    );
    expect(forAuthor.status, forAuthor.text).toBe(200);
    expect(forAuthor.body).toEqual([]);
    const approved = await fire(w.dictAdmin.rest, {
      conceptId: ids[1],
      languageCode: 'eng',
      transition: 'approve',
      version: 1,
    });
    expect(approved.status, approved.text).toBe(200);
    const published = await w.author.rest.get<{ conceptId: number; style: string }[]>(
      `/terms/duplicates?term=${name}&dictionary-id=${w.dictionary.id}&lang-code=eng`,
    );
    expect(published.body.map((entry) => [entry.conceptId, entry.style])).toEqual([[ids[1], '']]);
  });

  it('queues no search documents of its own when a dictionary is recomputed', async () => {
    const w = await workflowWorld(server.t, server.sysadmin);
    const created = await w.concept();
    const workflow = await enableWorkflow(w, 'Default');
    const fired = await fire(w.author.rest, {
      conceptId: created.id,
      languageCode: 'eng',
      transition: 'submit',
      version: 0,
    });
    expect(fired.status, fired.text).toBe(200);
    const other = await w.dictAdmin.rest.post<{ id: number }>('/workflows', {
      name: 'Other',
      dictionaryId: w.dictionary.id,
      enabled: false,
    });
    expect(other.status, other.text).toBe(201);
    // In one transaction, so no drainer takes the rows first: switching to the other workflow queues the
    // dictionary (the workflows' own trigger) and rewrites the English term's copy, without a concept row.
    const queued = await server.t.orm.em.fork().transactional(async (em) => {
      const count = async () => {
        const [result] = await em.execute<{ concepts: string; dictionaries: string; copies: string }[]>(
          `select (select count(*) from search_outbox where concept_id = ?) as concepts,
                  (select count(*) from search_outbox where dictionary_id = ?) as dictionaries,
                  (select count(*) from terms where concept_id = ? and workflow_state is not null) as copies`,
          [created.id, w.dictionary.id, created.id],
        );
        return {
          concepts: Number(result!.concepts),
          dictionaries: Number(result!.dictionaries),
          copies: Number(result!.copies),
        };
      };
      const before = await count();
      await em.execute('update workflows set enabled = false where id = ?', [workflow.id]);
      await em.execute('update workflows set enabled = true where id = ?', [other.body.id]);
      const after = await count();
      await em.execute('update workflows set enabled = false where id = ?', [other.body.id]);
      await em.execute('update workflows set enabled = true where id = ?', [workflow.id]);
      return { before, after };
    });
    expect(queued.before.copies).toBe(1);
    expect(queued.after.copies).toBe(0);
    expect(queued.after.dictionaries - queued.before.dictionaries).toBeGreaterThanOrEqual(1);
    expect(queued.after.concepts).toBe(queued.before.concepts);
    expect((await expectCopiesRight(w.dictionary.id)).get(created.terms[0]!.id)).toBe('inReview');
  });
});
