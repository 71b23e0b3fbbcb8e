/**
 * concepts.labels (GET /concepts/labels): display labels of several concepts in one call, the first term
 * in the first of the languages asked; concepts of another tenant, deleted ones and those in sections the
 * caller cannot read are left out. And saved queries (/saved-queries): per user and client, another's
 * neither listed nor deletable, guests refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  getDictionary,
  groupWith,
  patchAtCurrentVersion,
  uniqueSuffix,
  updateDictionary,
} from '../helpers/structure.js';
import {
  conceptWorld,
  createConcept,
  type Server,
  startServer,
  userOf,
  type World,
} from './concept-helpers.js';

let s: Server;
let w: World;
let otherTenant: World;
beforeAll(async () => {
  s = await startServer();
  [w, otherTenant] = await Promise.all([conceptWorld(s), conceptWorld(s)]);
}, 120_000);
afterAll(() => s.close());

interface Label {
  id: number;
  dictionaryId: number;
  label: string | null;
  languageCode: string | null;
}

describe('concepts.labels', () => {
  it('answers each readable concept once, labelled in the first language it has, in the order asked', async () => {
    const both = await createConcept(w.admin, w, {
      terms: [
        { name: 'valve', languageCode: 'eng' },
        { name: 'Ventil', languageCode: 'deu' },
        { name: 'Absperrventil', languageCode: 'deu' },
      ],
    });
    const english = await createConcept(w.admin, w, { terms: [{ name: 'pump', languageCode: 'eng' }] });
    const deleted = await createConcept(w.admin, w, { terms: [{ name: 'gone', languageCode: 'eng' }] });
    expect((await w.admin.delete(`/concepts/${deleted.id}`)).status).toBeLessThan(300);
    const foreign = await createConcept(otherTenant.admin, otherTenant, {
      terms: [{ name: 'secret', languageCode: 'eng' }],
    });
    const ids = [english.id, both.id, deleted.id, foreign.id, 2_000_000_000, both.id].join(',');
    const answer = await w.admin.get<Label[]>(`/concepts/labels?ids=${ids}&languages=deu,eng`);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual([
      { id: english.id, dictionaryId: w.dictionary.id, label: 'pump', languageCode: 'eng' },
      { id: both.id, dictionaryId: w.dictionary.id, label: 'Ventil', languageCode: 'deu' },
    ]);
    // Without languages: the concept's first term.
    const plain = await w.admin.get<Label[]>(`/concepts/labels?ids=${both.id}`);
    expect(plain.body).toEqual([
      { id: both.id, dictionaryId: w.dictionary.id, label: 'valve', languageCode: 'eng' },
    ]);
    // The other tenant's administrator sees its own concept only.
    const theirs = await otherTenant.admin.get<Label[]>(`/concepts/labels?ids=${ids}`);
    expect(theirs.body.map((label) => label.id)).toEqual([foreign.id]);
  });

  it('leaves out concepts of sections the caller cannot read', async () => {
    const reader = await userOf(s, w);
    const readers = (await groupWith(w.adminRest, [reader.id])).id;
    const scheme = await w.admin.post<{ id: number }>('/permissionschemes', {
      name: `Readers ${uniqueSuffix()}`,
      grants: [
        {
          groupId: readers,
          dictionaryPermissions: ['DICT_READ'],
          conceptPermissions: [],
          termPermissions: [],
          languages: [],
        },
      ],
    });
    expect(scheme.status, scheme.text).toBe(201);
    const updated = await updateDictionary(w.adminRest, await getDictionary(w.adminRest, w.dictionary.id), {
      permissionSchemeId: scheme.body.id,
    });
    expect(updated.status, updated.text).toBe(200);
    const closed = await w.admin.post<{ id: number }>('/permissionschemes', {
      name: `Closed ${uniqueSuffix()}`,
      grants: [],
    });
    const patched = await patchAtCurrentVersion(w.adminRest, 'sections', w.section2.id, {
      permissionSchemeId: closed.body.id,
    });
    expect(patched.status, patched.text).toBe(200);
    const open = await createConcept(w.admin, w, { terms: [{ name: 'open', languageCode: 'eng' }] });
    const hidden = await createConcept(w.admin, w, {
      sectionOid: w.section2.oid,
      terms: [{ name: 'hidden', languageCode: 'eng' }],
    });
    const answer = await reader.api.get<Label[]>(`/concepts/labels?ids=${hidden.id},${open.id}`);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.map((label) => label.label)).toEqual(['open']);
    const stranger = await userOf(s, otherTenant);
    expect((await stranger.api.get<Label[]>(`/concepts/labels?ids=${open.id}`)).body).toEqual([]);
  });

  it('bad input is 400, no token 401', async () => {
    expect((await w.admin.get('/concepts/labels?ids=abc')).status).toBe(400);
    expect((await w.admin.get('/concepts/labels')).status).toBe(400);
    const many = Array.from({ length: 501 }, (_, index) => index + 1).join(',');
    expect((await w.admin.get(`/concepts/labels?ids=${many}`)).status).toBe(400);
    const anonymous = await fetch(`${s.base}/api/v4/concepts/labels?ids=1`);
    expect(anonymous.status).toBe(401);
  });
});

interface Saved {
  id: number;
  name: string;
  query: string;
  changedAt: number;
}

describe('saved queries', () => {
  it('are kept per user: saved, replaced by name, listed, deleted; another user sees none of them', async () => {
    const [ada, bob] = await Promise.all([userOf(s, w), userOf(s, w)]);
    const first = await ada.api.put<Saved>('/saved-queries', { name: 'Valves', query: 'q=valve&lang=eng' });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ name: 'Valves', query: 'q=valve&lang=eng' });
    const again = await ada.api.put<Saved>('/saved-queries', { name: 'valves', query: '?q=valve&fuzzy=1' });
    expect(again.body).toMatchObject({ id: first.body.id, name: 'valves', query: 'q=valve&fuzzy=1' });
    await ada.api.put<Saved>('/saved-queries', { name: 'Apples', query: 'q=apple' });
    const listed = await ada.api.get<Saved[]>('/saved-queries');
    expect(listed.body.map((saved) => saved.name)).toEqual(['Apples', 'valves']);
    expect((await bob.api.get<Saved[]>('/saved-queries')).body).toEqual([]);
    expect((await otherTenant.admin.get<Saved[]>('/saved-queries')).body).toEqual([]);
    // Another user's saved query is not theirs to delete.
    expect((await bob.api.delete(`/saved-queries/${first.body.id}`)).status).toBe(404);
    expect((await ada.api.delete(`/saved-queries/${first.body.id}`)).status).toBe(200);
    expect((await ada.api.get<Saved[]>('/saved-queries')).body.map((saved) => saved.name)).toEqual([
      'Apples',
    ]);
    expect((await ada.api.delete(`/saved-queries/${first.body.id}`)).status).toBe(404);
  });

  it('refuses an empty name or a query with spaces or markup (400)', async () => {
    const ada = await userOf(s, w);
    for (const body of [
      { name: ' ', query: 'q=a' },
      { name: 'x', query: 'q=<b>' },
      { name: 'x', query: 'q=a b' },
      { name: 'x\u0000', query: 'q=a' },
      { name: 'x', query: 'q=\u0000' },
    ]) {
      const answer = await ada.api.put('/saved-queries', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.code).toBe('BAD_REQUEST');
    }
  });
});
