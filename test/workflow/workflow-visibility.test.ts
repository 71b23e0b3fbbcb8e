/**
 * Unpublished entries are invisible to named users without review rights, not only to guests
 * (docs/workflows.md): every concept read leaves their terms out, and a full or partial update by such a
 * user keeps those terms exactly as they were (merged back in the change's transaction); naming one by
 * id answers 404, like a term that does not exist.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemGroups } from '../access/access-helpers.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import { createScheme, grant } from '../helpers/structure.js';
import { enableWorkflow, entryOf, fire, states, workflowWorld } from './workflow-helpers.js';

let t: TestApp;
let sysadmin: RestClient;

beforeAll(async () => {
  t = await buildTestApp();
  sysadmin = await loginSysadmin(t.app);
});
afterAll(() => t.close());

interface TermBody {
  id: number;
  name: string;
  version: number;
  languageCode: string;
  fieldMap: Record<string, string[]>;
}
interface ConceptBody {
  id: number;
  version: number;
  terms: TermBody[];
}

/** Named users read and edit (terms too); the default workflow on; German approved, English suggested. */
async function world() {
  const w = await workflowWorld(t, sysadmin, {
    scheme: async (admin) => {
      const groups = await systemGroups(admin);
      const scheme = await createScheme(admin, [
        {
          ...grant(
            groups.ALL_USERS.id,
            ['DICT_READ'],
            ['CONCEPT_UPDATE', 'TERM_CREATE', 'CONCEPT_VIEW_HISTORY'],
          ),
          termPermissions: ['TERM_UPDATE', 'TERM_DELETE'] as never[],
        },
      ]);
      return scheme.id;
    },
  });
  await enableWorkflow(w, 'Default', { by: w.admin });
  const concept = await w.concept();
  for (const [transition, version] of [
    ['submit', 0],
    ['approve', 1],
  ] as const) {
    const moved = await fire(w.dictAdmin.rest, {
      conceptId: concept.id,
      languageCode: 'deu',
      transition,
      version,
    });
    expect(moved.status, moved.text).toBe(200);
  }
  expect(entryOf(await states(w.author.rest, concept.id), 'eng').state).toBe('suggested');
  const read = async (caller: RestClient, query = '') => {
    const response = await caller.get<ConceptBody>(`/concepts/${concept.id}${query}`);
    expect(response.status, response.text).toBe(200);
    return response.body;
  };
  // The client administrator reviews nothing here (no administrator bypass); the dictionary's does.
  expect(languages(await read(w.admin))).toEqual(['deu']);
  const full = await read(w.dictAdmin.rest);
  const english = full.terms.find((term) => term.languageCode === 'eng')!;
  return { ...w, conceptId: concept.id, english, read };
}

const languages = (concept: { terms?: { languageCode: string }[] }) =>
  (concept.terms ?? []).map((term) => term.languageCode).sort();

describe('concept reads of users without review rights', () => {
  it('leave unpublished terms out in every format, in display concepts, GraphQL and history', async () => {
    const w = await world();
    for (const format of ['', '?format=FULL', '?format=EDIT', '?format=SHORT']) {
      expect(languages(await w.read(w.author.rest, format))).toEqual(['deu']);
    }
    // The reviewer (dictionary administrator: approve leaves inReview) sees both.
    expect(languages(await w.read(w.dictAdmin.rest))).toEqual(['deu', 'eng']);

    const display = await w.author.rest.get<{ languageCodes: string[]; concept: ConceptBody | null }>(
      `/display-concepts/${w.conceptId}?load-concept=true`,
    );
    expect(display.status, display.text).toBe(200);
    expect(display.body.languageCodes).toEqual(['deu']);
    expect(languages(display.body.concept!)).toEqual(['deu']);
    const edit = await w.author.rest.put<{ termsPerLanguage: { id: number | null }[][] }>(
      `/display-concepts/edit/${w.conceptId}`,
      {},
    );
    expect(edit.status, edit.text).toBe(200);
    const edited = edit.body.termsPerLanguage.flat().map((term) => term.id);
    expect(edited.length).toBeGreaterThan(0);
    expect(edited).not.toContain(w.english.id);
    expect((await w.author.rest.get(`/display-concepts/${w.conceptId}?term-id=${w.english.id}`)).status).toBe(
      404,
    );
    expect((await w.author.rest.post(`/display-concepts/copy-term/${w.english.id}`, {})).status).toBe(404);

    // By term: the hidden term is not found; the visible one finds the concept.
    expect((await w.author.rest.get(`/concepts/?term-id=${w.english.id}`)).status).toBe(404);
    expect((await w.dictAdmin.rest.get(`/concepts/?term-id=${w.english.id}`)).status).toBe(200);

    const graphql = async (caller: RestClient) => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/graphql',
        headers: { 'content-type': 'application/json', 'x-auth-token': caller.token ?? '' },
        payload: JSON.stringify({
          query:
            'query ($id: Int!) { concept(id: $id) { terms { languageCode } history(first: 5) { changes } } }',
          variables: { id: w.conceptId },
        }),
      });
      const body = response.json() as {
        data: {
          concept: { terms: { languageCode: string }[]; history: { changes: { termId?: number }[] }[] };
        };
      };
      expect(body.data, response.body).toBeTruthy();
      return body.data.concept;
    };
    const byTerm = async (caller: RestClient) => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/graphql',
        headers: { 'content-type': 'application/json', 'x-auth-token': caller.token ?? '' },
        payload: JSON.stringify({
          query: 'query ($id: Int!) { conceptByTerm(termId: $id) { id } }',
          variables: { id: w.english.id },
        }),
      });
      return response.json() as {
        data: { conceptByTerm: { id: number } | null } | null;
        errors?: { extensions: { code: string } }[];
      };
    };
    expect((await byTerm(w.author.rest)).errors?.[0]?.extensions.code).toBe('NOT_FOUND');
    expect((await byTerm(w.dictAdmin.rest)).data?.conceptByTerm).toEqual({ id: w.conceptId });
    const seen = await graphql(w.author.rest);
    expect(languages(seen)).toEqual(['deu']);
    expect(seen.history.flatMap((item) => item.changes).some((c) => c.termId === w.english.id)).toBe(false);
    expect(languages(await graphql(w.dictAdmin.rest))).toEqual(['deu', 'eng']);

    const history = async (caller: RestClient) => {
      const response = await caller.get<{
        content: { changes: { termId?: number }[]; snapshot: { terms: { id: number }[] } }[];
      }>(`/history/concept/${w.conceptId}`);
      expect(response.status, response.text).toBe(200);
      return response.body.content;
    };
    const mentions = (items: Awaited<ReturnType<typeof history>>) =>
      items.some(
        (item) =>
          item.changes.some((change) => change.termId === w.english.id) ||
          item.snapshot.terms.some((term) => term.id === w.english.id),
      );
    expect(mentions(await history(w.author.rest))).toBe(false);
    expect(mentions(await history(w.dictAdmin.rest))).toBe(true);
  });
});

describe('updates by users without review rights', () => {
  it('keep the terms they were not shown: a full update of what they read leaves them unchanged', async () => {
    const w = await world();
    const before = await w.read(w.dictAdmin.rest);
    const seen = await w.read(w.author.rest);
    const german = seen.terms[0]!;
    const put = await w.author.rest.put<ConceptBody>(`/concepts/${w.conceptId}`, {
      ...seen,
      terms: [{ ...german, name: `${german.name} neu` }],
    });
    expect(put.status, put.text).toBe(200);
    // The edit re-opened the approved German entry (inReview: unpublished), so the author sees neither.
    expect(languages(put.body)).toEqual([]);
    const after = await w.read(w.dictAdmin.rest);
    expect(after.terms.find((term) => term.id === w.english.id)).toEqual(
      before.terms.find((term) => term.id === w.english.id),
    );
    expect(after.terms.find((term) => term.languageCode === 'deu')!.name).toBe(`${german.name} neu`);

    // Removing every term they see (full and partial update) still keeps the hidden one.
    const emptied = await w.author.rest.put<ConceptBody>(`/concepts/${w.conceptId}`, {
      ...(await w.read(w.author.rest)),
      terms: [],
    });
    expect(emptied.status, emptied.text).toBe(200);
    const patched = await w.author.rest.put<ConceptBody>(`/concepts/${w.conceptId}/patch`, {
      version: emptied.body.version,
      terms: [{ name: 'neuer Begriff', languageCode: 'deu' }],
    });
    expect(patched.status, patched.text).toBe(200);
    const last = await w.read(w.dictAdmin.rest);
    expect(last.terms.map((term) => term.id)).toContain(w.english.id);
    expect(last.terms.find((term) => term.id === w.english.id)!.name).toBe(w.english.name);
  });

  it('cannot edit or delete a hidden term by guessing its id: 404, nothing written', async () => {
    const w = await world();
    const seen = await w.read(w.author.rest);
    const guessed = { ...w.english, name: 'overwritten' };
    for (const [path, body] of [
      [`/concepts/${w.conceptId}`, { ...seen, terms: [...seen.terms, guessed] }],
      [`/concepts/${w.conceptId}/patch`, { version: seen.version, terms: [...seen.terms, guessed] }],
    ] as const) {
      const response = await w.author.rest.put<{ code: string }>(path, body);
      expect(response.status, response.text).toBe(404);
      expect(response.body.code).toBe('NOT_FOUND');
    }
    const after = await w.read(w.dictAdmin.rest);
    expect(after.version).toBe(seen.version);
    expect(after.terms.find((term) => term.id === w.english.id)!.name).toBe(w.english.name);

    // A reviewer edits the English term as usual.
    const reviewer = await w.read(w.dictAdmin.rest);
    const edited = await w.dictAdmin.rest.put<ConceptBody>(`/concepts/${w.conceptId}`, {
      ...reviewer,
      terms: reviewer.terms.map((term) => (term.id === w.english.id ? { ...term, name: 'reviewed' } : term)),
    });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body.terms.find((term) => term.id === w.english.id)!.name).toBe('reviewed');
  });

  it('an undo by such a user leaves the terms it was not shown as they are now', async () => {
    const w = await world();
    // A reviewer renames the hidden English term twice: the first item's snapshot holds "first".
    const rename = async (name: string) => {
      const current = await w.read(w.dictAdmin.rest);
      const put = await w.dictAdmin.rest.put<ConceptBody>(`/concepts/${w.conceptId}`, {
        ...current,
        terms: current.terms.map((term) => (term.id === w.english.id ? { ...term, name } : term)),
      });
      expect(put.status, put.text).toBe(200);
    };
    await rename('first');
    const items = await w.dictAdmin.rest.get<{ content: { id: number }[] }>(
      `/history/concept/${w.conceptId}`,
    );
    expect(items.status, items.text).toBe(200);
    const firstItem = items.body.content[0]!.id;
    await rename('second');
    // The author undoes back to that item: what it sees returns, the English term stays "second".
    const undo = await w.author.rest.post(`/history/concept-undo/?history-item-id=${firstItem}`);
    expect(undo.status, undo.text).toBe(200);
    const after = await w.read(w.dictAdmin.rest);
    expect(after.terms.find((term) => term.id === w.english.id)!.name).toBe('second');
    // The same undo by the reviewer restores the English term too.
    const byReviewer = await w.dictAdmin.rest.post(`/history/concept-undo/?history-item-id=${firstItem}`);
    expect(byReviewer.status, byReviewer.text).toBe(200);
    expect((await w.read(w.dictAdmin.rest)).terms.find((term) => term.id === w.english.id)!.name).toBe(
      'first',
    );
  });
});

describe('a creation by a user without review rights', () => {
  it('answers the terms the user sent, though later reads leave the unpublished entry out', async () => {
    const w = await workflowWorld(t, sysadmin, {
      scheme: async (admin) => {
        const groups = await systemGroups(admin);
        const scheme = await createScheme(admin, [
          grant(groups.ALL_USERS.id, ['DICT_READ', 'CONCEPT_CREATE'], ['CONCEPT_UPDATE', 'TERM_CREATE']),
        ]);
        return scheme.id;
      },
    });
    await enableWorkflow(w, 'Default', { by: w.admin });
    const created = await w.author.rest.post<ConceptBody>('/concepts', {
      dictionaryId: w.dictionary.id,
      sectionOid: w.dictionary.sections[0]!.oid,
      terms: [
        { name: 'own term', languageCode: 'eng' },
        { name: 'eigener Begriff', languageCode: 'deu' },
      ],
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.terms.map((term) => term.name).sort()).toEqual(['eigener Begriff', 'own term']);
    // The new entries are unpublished: a later read by the same user follows the rule, a reviewer's not.
    const later = await w.author.rest.get<ConceptBody>(`/concepts/${created.body.id}`);
    expect(later.status).toBe(200);
    expect(languages(later.body)).toEqual([]);
    expect(languages((await w.dictAdmin.rest.get<ConceptBody>(`/concepts/${created.body.id}`)).body)).toEqual(
      ['deu', 'eng'],
    );
  });
});
