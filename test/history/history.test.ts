/**
 * Concept and dictionary history and undo (docs/history.md), over a real socket; concepts are made and
 * changed through the concepts API, so every item here was written by the real writer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConceptBody,
  conceptWorld,
  createConcept,
  getConcept,
  patchConcept,
  putConcept,
  type Server,
  startServer,
  userOf,
  type World,
} from '../concepts/concept-helpers.js';
import { createDomain, expectError, newTenant } from '../helpers/structure.js';
import {
  conceptHistory,
  dictionaryHistory,
  fieldOids,
  type HistoryItemBody,
  itemsOf,
  sectionUsers,
  storedItems,
  tick,
  undoConcept,
  undoDictionary,
} from './history-helpers.js';

let s: Server;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

/** The concept world with the field oids this suite uses. */
const world = async () => {
  const w = await conceptWorld(s);
  return Object.assign(w, { f: fieldOids(w) });
};

const subjects = (item: HistoryItemBody) => item.changes.map((change) => `${change.kind} ${change.subject}`);

/** GET /concepts/{id} as an administrator, deleted or not. */
const readAny = (w: World, id: number) => getConcept(w.admin, id, '?include-deleted=true');

describe('history items', () => {
  it('create, update and delete each write an item: revision, action, author, changes, snapshot', async () => {
    const w = await world();
    const before = Date.now();
    const created = await createConcept(w.admin, w, {
      fieldMap: { [w.f.Definition]: 'v1' },
      terms: [{ name: 'cat', languageCode: 'eng' }],
    });
    const patched = await patchConcept(w.admin, created, {
      fieldMap: { [w.f.Definition]: 'v2' },
      terms: [
        { id: created.terms[0]!.id, name: 'cat', languageCode: 'eng' },
        { name: 'Katze', languageCode: 'deu' },
      ],
    });
    expect(patched.status, patched.text).toBe(200);
    const removed = await w.admin.delete(`/concepts/${created.id}`);
    expect(removed.status, removed.text).toBe(204);

    // A deleted concept keeps a readable history.
    const items = await itemsOf(w.admin, created.id);
    expect(items.map((item) => [item.action, item.revision])).toEqual([
      ['DELETE', 3],
      ['UPDATE', 2],
      ['CREATE', 1],
    ]);
    expect(items.map((item) => item.id)).toEqual([...items.map((item) => item.id)].sort((a, b) => b - a));
    const [deletion, update, creation] = items as [HistoryItemBody, HistoryItemBody, HistoryItemBody];
    for (const item of items) {
      expect(item).toMatchObject({
        conceptId: created.id,
        dictionaryId: w.dictionary.id,
        clientId: w.tenant.id,
        oid: null,
        restoredFromId: null,
        user: { name: 'admin', id: created.created.id },
      });
      expect(item.time).toBeGreaterThanOrEqual(before - 1000);
      expect(item.time).toBeLessThanOrEqual(Date.now() + 1000);
    }
    expect(subjects(creation)).toEqual(['ADDED CONCEPT', 'ADDED TERM']);
    expect(creation.changes[1]).toMatchObject({ termId: created.terms[0]!.id, after: { name: 'cat' } });
    const katze = patched.body.terms.find((term) => term.name === 'Katze')!;
    expect(update.changes).toEqual(
      expect.arrayContaining([
        { kind: 'CHANGED', subject: 'FIELD', fieldOid: w.f.Definition, before: ['v1'], after: ['v2'] },
        expect.objectContaining({ kind: 'ADDED', subject: 'TERM', termId: katze.id }),
      ]),
    );
    expect(update.changes).toHaveLength(2);
    expect(update.snapshot).toMatchObject({
      deleted: false,
      sectionId: w.section.id,
      fieldMap: { [w.f.Definition]: ['v2'] },
      terms: [
        { id: created.terms[0]!.id, name: 'cat', languageCode: 'eng' },
        { id: katze.id, name: 'Katze', languageCode: 'deu' },
      ],
    });
    expect(subjects(deletion)).toContain('REMOVED CONCEPT');
    expect(deletion.snapshot?.deleted).toBe(true);
  });

  it('is written in the change transaction: a refused change (400, 409) writes no item', async () => {
    const w = await world();
    const created = await createConcept(w.admin, w);
    const invalid = await putConcept(w.admin, created, { fieldMap: { [w.f.Code]: 'abc' } });
    expectError(invalid, 400);
    const stale = await putConcept(
      w.admin,
      { ...created, version: created.version - 1 },
      {
        fieldMap: { [w.f.Note]: 'x' },
      },
    );
    expectError(stale, 409);
    expect(await storedItems(s, created.id)).toBe(1);
    expect((await itemsOf(w.admin, created.id)).map((item) => item.action)).toEqual(['CREATE']);
    // A change that changes nothing writes nothing either.
    const same = await putConcept(w.admin, created);
    expect(same.status, same.text).toBe(200);
    expect(await storedItems(s, created.id)).toBe(1);
  });

  it('pages newest first; SHORT leaves the snapshot out, ID answers ids only', async () => {
    const w = await world();
    let concept = await createConcept(w.admin, w);
    for (const note of ['a', 'b', 'c', 'd']) {
      const patched = await patchConcept(w.admin, concept, { fieldMap: { [w.f.Note]: note } });
      expect(patched.status, patched.text).toBe(200);
      concept = patched.body;
    }
    const second = await conceptHistory(w.admin, concept.id, '?size=2&page=1');
    expect(second.status, second.text).toBe(200);
    expect(second.body).toMatchObject({
      totalElements: 5,
      totalPages: 3,
      size: 2,
      number: 1,
      numberOfElements: 2,
      first: false,
      last: false,
      sort: 'id,DESC',
    });
    expect(second.body.content.map((item) => item.revision)).toEqual([3, 2]);
    const last = await conceptHistory(w.admin, concept.id, '?size=2&page=2');
    expect(last.body.content.map((item) => item.revision)).toEqual([1]);
    expect(last.body.last).toBe(true);

    const short = await conceptHistory(w.admin, concept.id, '?format=SHORT&size=1');
    expect(short.body.content[0]).toMatchObject({ revision: 5, action: 'UPDATE' });
    expect(short.body.content[0]!.changes).toEqual([
      { kind: 'CHANGED', subject: 'FIELD', fieldOid: w.f.Note, before: ['c'], after: ['d'] },
    ]);
    expect(short.body.content[0]).not.toHaveProperty('snapshot');
    const full = await conceptHistory(w.admin, concept.id, '?size=1');
    expect(full.body.content[0]!.snapshot?.fieldMap).toEqual({ [w.f.Note]: ['d'] });
    const ids = await conceptHistory(w.admin, concept.id, '?format=ID');
    expect(ids.body.content.map((item) => Object.keys(item))).toEqual(Array(5).fill(['id']));
  });

  it('needs CONCEPT_VIEW_HISTORY (403); unreadable concepts, unknown ids and other tenants answer 404', async () => {
    const w = await world();
    const users = await sectionUsers(s, w, {
      viewer: { dictionary: ['DICT_READ'], concept: ['CONCEPT_VIEW_HISTORY'] },
      reader: { dictionary: ['DICT_READ'], concept: [] },
    });
    const stranger = await userOf(s, w);
    const concept = await createConcept(w.admin, w, { sectionOid: w.section2.oid });
    const [item] = await itemsOf(w.admin, concept.id);

    expect((await conceptHistory(users.viewer.api, concept.id)).status).toBe(200);
    expectError(await conceptHistory(users.reader.api, concept.id), 403);
    expectError(await conceptHistory(stranger.api, concept.id), 404);
    expectError(await conceptHistory(w.admin, 999_999_999), 404);
    expectError(await undoConcept(w.admin, 999_999_999), 404);
    expectError(await undoConcept(stranger.api, item!.id), 404);

    const other = await newTenant(s.t, s.sysadmin);
    const otherAdmin = s.api(other.admin);
    expectError(await conceptHistory(otherAdmin, concept.id), 404);
    expectError(await dictionaryHistory(otherAdmin, w.dictionary.id), 404);
    expectError(await undoConcept(otherAdmin, item!.id), 404);
    expectError(await undoDictionary(otherAdmin, item!.id), 404);
    expect(await storedItems(s, concept.id)).toBe(1);
  });
});

describe('dictionary history', () => {
  it('starts after the last structure change and is for administrators of the dictionary', async () => {
    const w = await world();
    const reader = await userOf(s, w);
    const a = await createConcept(w.admin, w, { fieldMap: { [w.f.Note]: 'one' } });
    const [aCreated] = await itemsOf(w.admin, a.id);
    const early = await dictionaryHistory(w.admin, w.dictionary.id);
    expect(early.body.content.map((item) => item.id)).toEqual([aCreated!.id]);

    await tick();
    await createDomain(w.adminRest, w.dictionary.id, 'Chemistry');
    await tick();
    const patched = await patchConcept(w.admin, a, { fieldMap: { [w.f.Note]: 'two' } });
    expect(patched.status, patched.text).toBe(200);
    const b = await createConcept(w.admin, w);

    const page = await dictionaryHistory(w.admin, w.dictionary.id, '?format=SHORT');
    expect(page.status, page.text).toBe(200);
    expect(page.body.content.map((item) => [item.conceptId, item.action])).toEqual([
      [b.id, 'CREATE'],
      [a.id, 'UPDATE'],
    ]);
    expect(page.body.totalElements).toBe(2);
    // The concept's own history still shows everything.
    expect((await itemsOf(w.admin, a.id)).length).toBe(2);

    expectError(await dictionaryHistory(reader.api, w.dictionary.id), 403);
    // What came before the structure change cannot be undone.
    const refused = await undoConcept(w.admin, aCreated!.id);
    expectError(refused, 400);
    expect(refused.body.message).toContain('structure change');
    expectError(await undoDictionary(w.admin, aCreated!.id), 400);
    expect((await getConcept(w.admin, a.id)).fieldMap).toEqual({ [w.f.Note]: ['two'] });
  });
});

describe('concept undo', () => {
  it('restores fields, domains, terms (same ids, deleted ones revived) and relations as a new UNDO change', async () => {
    const w = await world();
    const b = await createConcept(w.admin, w);
    const a = await createConcept(w.admin, w, {
      domainList: [w.domain.oid],
      fieldMap: { [w.f.Definition]: 'v1', [w.f.Tags]: ['a', 'b'] },
      terms: [
        { name: 'cat', languageCode: 'eng', fieldMap: { [w.f.Gender]: 'feminine' } },
        { name: 'Katze', languageCode: 'deu' },
      ],
      conceptRelations: [{ targetConceptId: b.id, type: 0, attribute: 0 }],
    });
    const [cat, katze] = a.terms as [ConceptBody['terms'][number], ConceptBody['terms'][number]];
    const changed = await putConcept(w.admin, a, {
      domainList: [],
      fieldMap: { [w.f.Definition]: 'v2' },
      terms: [{ id: cat.id, name: 'kitty', languageCode: 'eng' }],
      conceptRelations: [],
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.conceptRelations).toEqual([]);
    const [, creation] = await itemsOf(w.admin, a.id);

    const undone = await undoConcept(w.admin, creation!.id);
    expect(undone.status, undone.text).toBe(200);
    expect(undone.body).toMatchObject({
      id: a.id,
      version: 3,
      deleted: false,
      domainList: [w.domain.oid],
      fieldMap: { [w.f.Definition]: ['v1'], [w.f.Tags]: ['a', 'b'] },
    });
    expect(undone.body.terms.map((term) => [term.id, term.tid, term.name, term.fieldMap])).toEqual([
      [cat.id, cat.tid, 'cat', { [w.f.Gender]: ['feminine'] }],
      [katze.id, katze.tid, 'Katze', {}],
    ]);
    expect(undone.body.conceptRelations.map((r) => [r.sourceConceptId, r.targetConceptId, r.type])).toEqual([
      [a.id, b.id, 0],
    ]);
    expect((await getConcept(w.admin, b.id)).conceptRelations.map((r) => r.sourceConceptId)).toEqual([a.id]);

    const [latest] = await itemsOf(w.admin, a.id);
    expect(latest).toMatchObject({ action: 'UNDO', revision: 3, restoredFromId: creation!.id });
    expect(subjects(latest!)).toEqual(
      expect.arrayContaining([
        'CHANGED DOMAINS',
        'CHANGED FIELD',
        'ADDED FIELD',
        'CHANGED TERM',
        'ADDED TERM',
      ]),
    );
    expect(latest!.changes.find((c) => c.subject === 'TERM' && c.kind === 'ADDED')?.termId).toBe(katze.id);

    // Undoing to the state it already has writes nothing.
    const again = await undoConcept(w.admin, creation!.id);
    expect(again.status, again.text).toBe(200);
    expect(again.body.version).toBe(3);
    expect(await storedItems(s, a.id)).toBe(3);
  });

  it('leaves out relations to deleted concepts; they return once the other concept is back', async () => {
    const w = await world();
    const b = await createConcept(w.admin, w);
    const a = await createConcept(w.admin, w, {
      conceptRelations: [{ targetConceptId: b.id, type: 4, attribute: 11, text: 'see also' }],
    });
    const [aCreated] = await itemsOf(w.admin, a.id);
    const [bCreated] = await itemsOf(w.admin, b.id);
    expect((await w.admin.delete(`/concepts/${b.id}`)).status).toBe(204);
    expect((await getConcept(w.admin, a.id)).conceptRelations).toEqual([]);

    const patched = await patchConcept(w.admin, await getConcept(w.admin, a.id), {
      fieldMap: { [w.f.Note]: 'later' },
    });
    expect(patched.status, patched.text).toBe(200);
    const withoutB = await undoConcept(w.admin, aCreated!.id);
    expect(withoutB.status, withoutB.text).toBe(200);
    expect(withoutB.body.fieldMap).toEqual({});
    expect(withoutB.body.conceptRelations).toEqual([]);

    const restoredB = await undoConcept(w.admin, bCreated!.id);
    expect(restoredB.status, restoredB.text).toBe(200);
    const withB = await undoConcept(w.admin, aCreated!.id);
    expect(withB.status, withB.text).toBe(200);
    expect(withB.body.conceptRelations).toMatchObject([
      { sourceConceptId: a.id, targetConceptId: b.id, type: 4, attribute: 11, text: 'see also' },
    ]);
  });

  it('restores a deleted concept (RESTORE) only with CONCEPT_CREATE, its terms only with TERM_CREATE', async () => {
    const w = await world();
    const users = await sectionUsers(s, w, {
      restorer: { dictionary: ['DICT_READ', 'CONCEPT_CREATE'], concept: ['RESTORE_STATE', 'TERM_CREATE'] },
      noCreate: { dictionary: ['DICT_READ'], concept: ['CONCEPT_UPDATE', 'TERM_CREATE'] },
      noTerms: { dictionary: ['DICT_READ', 'CONCEPT_CREATE'], concept: ['RESTORE_STATE'] },
      viewer: { dictionary: ['DICT_READ'], concept: ['CONCEPT_VIEW_HISTORY'] },
    });
    const concept = await createConcept(w.admin, w, {
      sectionOid: w.section2.oid,
      terms: [
        { name: 'dog', languageCode: 'eng' },
        { name: 'Hund', languageCode: 'deu' },
      ],
    });
    expect((await w.admin.delete(`/concepts/${concept.id}`)).status).toBe(204);
    const [deletion, creation] = await itemsOf(w.admin, concept.id);
    expect(deletion!.action).toBe('DELETE');

    expectError(await undoConcept(users.viewer.api, creation!.id), 403);
    const noCreate = await undoConcept(users.noCreate.api, creation!.id);
    expectError(noCreate, 403);
    expect(noCreate.body.message).toContain('CONCEPT_CREATE');
    const noTerms = await undoConcept(users.noTerms.api, creation!.id);
    expectError(noTerms, 403);
    expect(noTerms.body.message).toContain('TERM_CREATE');
    expect((await readAny(w, concept.id)).deleted).toBe(true);
    expect(await storedItems(s, concept.id)).toBe(2);

    const restored = await undoConcept(users.restorer.api, creation!.id);
    expect(restored.status, restored.text).toBe(200);
    expect(restored.body.deleted).toBe(false);
    expect(restored.body.terms.map((term) => [term.id, term.name, term.deleted])).toEqual(
      concept.terms.map((term) => [term.id, term.name, false]),
    );
    expect((await getConcept(w.admin, concept.id)).version).toBe(3);
    const [latest] = await itemsOf(w.admin, concept.id);
    expect(latest).toMatchObject({
      action: 'RESTORE',
      revision: 3,
      restoredFromId: creation!.id,
      user: { id: users.restorer.id },
    });
    expect(subjects(latest!)).toEqual(['ADDED CONCEPT', 'ADDED TERM', 'ADDED TERM']);

    // Undoing the deletion deletes it again; the answer shows the deleted concept.
    const redeleted = await undoConcept(w.admin, deletion!.id);
    expect(redeleted.status, redeleted.text).toBe(200);
    expect(redeleted.body.deleted).toBe(true);
    expectError(await w.admin.get(`/concepts/${concept.id}`), 404);
    expect((await itemsOf(w.admin, concept.id))[0]).toMatchObject({ action: 'UNDO', revision: 4 });
  });

  it('answers 409 while another user holds the edit lock, and works once it is released', async () => {
    const w = await world();
    const editor = await userOf(s, w, ['ADMIN']);
    const concept = await createConcept(w.admin, w, { fieldMap: { [w.f.Note]: 'first' } });
    const patched = await patchConcept(w.admin, concept, { fieldMap: { [w.f.Note]: 'second' } });
    expect(patched.status, patched.text).toBe(200);
    const [, creation] = await itemsOf(w.admin, concept.id);

    const locked = await editor.api.put<boolean>(`/concepts/${concept.id}/acquire-lock`);
    expect(locked.body).toBe(true);
    const refused = await undoConcept(w.admin, creation!.id);
    expectError(refused, 409);
    expect(refused.body.message).toContain('locked');
    expect(await storedItems(s, concept.id)).toBe(2);

    // The lock holder may undo.
    const byHolder = await undoConcept(editor.api, creation!.id);
    expect(byHolder.status, byHolder.text).toBe(200);
    expect(byHolder.body.fieldMap).toEqual({ [w.f.Note]: ['first'] });
  });
});

describe('dictionary undo', () => {
  it('returns every concept changed after the item to its state there; result maps concept ids to success', async () => {
    const w = await world();
    const editor = await userOf(s, w, ['ADMIN']);
    const reader = await userOf(s, w);
    const a = await createConcept(w.admin, w, { fieldMap: { [w.f.Note]: 'a1' } });
    const locked = await createConcept(w.admin, w, { fieldMap: { [w.f.Note]: 'l1' } });
    // B relates to A: only B's item records the relation.
    const b = await createConcept(w.admin, w, {
      conceptRelations: [{ targetConceptId: a.id, type: 0, attribute: 1 }],
    });
    const [mark] = await itemsOf(w.admin, b.id);

    const aChanged = await patchConcept(w.admin, await getConcept(w.admin, a.id), {
      fieldMap: { [w.f.Note]: 'a2' },
    });
    expect(aChanged.status, aChanged.text).toBe(200);
    const lockedChanged = await patchConcept(w.admin, locked, { fieldMap: { [w.f.Note]: 'l2' } });
    expect(lockedChanged.status, lockedChanged.text).toBe(200);
    expect((await w.admin.delete(`/concepts/${b.id}`)).status).toBe(204);
    const c = await createConcept(w.admin, w);
    expect((await editor.api.put<boolean>(`/concepts/${locked.id}/acquire-lock`)).body).toBe(true);

    expectError(await undoDictionary(reader.api, mark!.id), 403);
    const undone = await undoDictionary(w.admin, mark!.id);
    expect(undone.status, undone.text).toBe(200);
    expect(undone.body.result).toEqual({
      [a.id]: true,
      [b.id]: true,
      [c.id]: true,
      [locked.id]: false,
    });

    const aNow = await getConcept(w.admin, a.id);
    expect(aNow.fieldMap).toEqual({ [w.f.Note]: ['a1'] });
    const bNow = await getConcept(w.admin, b.id);
    expect(bNow.terms.map((term) => term.id)).toEqual(b.terms.map((term) => term.id));
    // The relation B made is there again, though A's own latest item before the mark never had it.
    expect(aNow.conceptRelations.map((r) => [r.sourceConceptId, r.targetConceptId, r.attribute])).toEqual([
      [b.id, a.id, 1],
    ]);
    expectError(await w.admin.get(`/concepts/${c.id}`), 404);
    expect((await getConcept(w.admin, locked.id)).fieldMap).toEqual({ [w.f.Note]: ['l2'] });

    const [aLatest, , aFirst] = await itemsOf(w.admin, a.id);
    expect(aLatest).toMatchObject({ action: 'UNDO', restoredFromId: aFirst!.id });
    expect((await itemsOf(w.admin, b.id))[0]).toMatchObject({ action: 'RESTORE', restoredFromId: mark!.id });
    expect((await itemsOf(w.admin, c.id))[0]).toMatchObject({ action: 'UNDO' });

    // The dictionary is now as it was right after the mark: undoing to it again changes nothing.
    await w.admin.put(`/concepts/${locked.id}/release-lock`);
    const released = await editor.api.put<boolean>(`/concepts/${locked.id}/release-lock`);
    expect(released.body).toBe(true);
    const second = await undoDictionary(w.admin, mark!.id);
    expect(second.body.result).toEqual({ [a.id]: true, [b.id]: true, [c.id]: true, [locked.id]: true });
    expect((await getConcept(w.admin, locked.id)).fieldMap).toEqual({ [w.f.Note]: ['l1'] });
    expect(await storedItems(s, a.id)).toBe(3);
  });
});
