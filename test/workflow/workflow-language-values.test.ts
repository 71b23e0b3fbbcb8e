/**
 * A concept's language values (docs/concepts.md, Language fields) under a workflow (docs/workflows.md,
 * Effects): under the LANGUAGE unit they belong to their language's entry, so an API edit of a read-only
 * language's values is refused (403) and one of an approved language re-opens it; under TERM they touch
 * no entry. A TBX merge does the same: a read-only language keeps its values (reported when the file's
 * differ), changed values of an approved language re-open it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { languageOfTag } from '../../src/modules/workflow/workflow-edit.js';
import { type Server, startServer } from '../concepts/concept-helpers.js';
import type { RestClient } from '../helpers/rest.js';
import { languageInput, rows, uniqueSuffix, updateDictionary } from '../helpers/structure.js';
import { entryOf, fire, importTbxInto, states, workflowWorld } from './workflow-helpers.js';

let server: Server;
beforeAll(async () => {
  server = await startServer();
}, 120_000);
afterAll(async () => {
  await server?.close();
});

type Unit = 'CONCEPT' | 'LANGUAGE' | 'TERM';

/** Draft, approved and a read-only frozen state (TBX finalized), moved by the dictionary administrator. */
async function world(unit: Unit) {
  const w = await workflowWorld(server.t, server.sysadmin, { termField: true });
  // English gets a British variant, so language values may carry the tag eng-GB.
  const withVariant = await updateDictionary(w.admin, w.dictionary, {
    languages: w.dictionary.languages.map((language) => ({
      ...languageInput(language),
      ...(language.code === 'eng' ? { variants: [{ type: 0, code: 'GB', name: 'United Kingdom' }] } : {}),
    })),
  });
  expect(withVariant.status, withVariant.text).toBe(200);
  const created = await w.dictAdmin.rest.post('/workflows', {
    name: `Language values ${unit}`,
    dictionaryId: w.dictionary.id,
    unit,
    enabled: true,
    definition: {
      states: [
        { key: 'draft', name: 'Draft', category: 'DRAFT', processStatus: 'unprocessed' },
        { key: 'approved', name: 'Approved', category: 'APPROVED', processStatus: 'provisionallyProcessed' },
        { key: 'frozen', name: 'Frozen', category: 'APPROVED', processStatus: 'finalized', readOnly: true },
      ],
      transitions: ['approved', 'frozen'].map((to) => ({
        key: to,
        name: to,
        from: ['draft'],
        to,
        roles: ['DICTIONARY_ADMIN'],
      })),
      initialState: 'draft',
    },
  });
  expect(created.status, created.text).toBe(201);
  return { ...w, usage: w.dictionary.termFields[0]!.oid! };
}

interface ConceptRead {
  version: number;
  terms: { id: number; name: string; languageCode: string }[];
  languageFields: { languageCode: string; regionCode: string | null; fieldMap: Record<string, string[]> }[];
}

const read = async (caller: RestClient, id: number) => {
  const response = await caller.get<ConceptRead>(`/concepts/${id}?format=EDIT`);
  expect(response.status, response.text).toBe(200);
  return response.body;
};

const values = (
  languageCode: string,
  fieldMap: Record<string, string[]>,
  regionCode: string | null = null,
) => ({
  languageCode,
  regionCode,
  scriptCode: null,
  fieldMap,
});

/** Fires `transition` on the concept's entry in `languageCode` (LANGUAGE unit). */
async function move(caller: RestClient, conceptId: number, languageCode: string, transition: string) {
  const fired = await fire(caller, { conceptId, languageCode, transition, version: 0 });
  expect(fired.status, JSON.stringify(fired.body)).toBe(200);
}

interface HistoryRead {
  content: {
    changes: { subject: string; language?: string; before?: { state?: string }; after?: unknown }[];
  }[];
}

describe('languageOfTag', () => {
  it('takes the longest language code the tag is or starts with, as stored', () => {
    const codes = ['eng', 'srp', 'x-klingon', 'x-klingon-old'];
    expect(languageOfTag('eng', codes)).toBe('eng');
    expect(languageOfTag('ENG-gb', codes)).toBe('eng');
    expect(languageOfTag('srp-Latn-RS', codes)).toBe('srp');
    expect(languageOfTag('x-klingon-old-Latn', codes)).toBe('x-klingon-old');
    expect(languageOfTag('x-klingon-Latn', codes)).toBe('x-klingon');
    expect(languageOfTag('engx', codes)).toBeNull();
  });
});

describe('API edits of language values under a workflow', () => {
  it('LANGUAGE unit: a read-only language refuses PUT and PATCH of its values (403, unchanged); the other language is editable', async () => {
    const w = await world('LANGUAGE');
    const concept = await w.concept();
    const seeded = await w.admin.put(`/concepts/${concept.id}/patch`, {
      version: concept.version,
      languageFields: [
        values('eng', { [w.usage]: ['English note'] }),
        values('deu', { [w.usage]: ['Deutsch'] }),
      ],
    });
    expect(seeded.status, seeded.text).toBe(200);
    await move(w.dictAdmin.rest, concept.id, 'eng', 'frozen');
    const before = await read(w.admin, concept.id);

    // PATCH of the English values, also through a British tag of English: 403.
    for (const tag of [
      values('eng', { [w.usage]: ['changed'] }),
      values('eng', { [w.usage]: ['GB'] }, 'GB'),
    ]) {
      const patched = await w.admin.put<{ code: string; message: string }>(`/concepts/${concept.id}/patch`, {
        version: before.version,
        languageFields: [tag],
      });
      expect(patched.status, patched.text).toBe(403);
      expect(patched.body.message).toContain('read-only');
    }
    // PUT dropping the English values: 403 too.
    const put = await w.admin.put(`/concepts/${concept.id}`, {
      ...before,
      languageFields: [values('deu', { [w.usage]: ['Deutsch'] })],
    });
    expect(put.status, put.text).toBe(403);
    expect(await read(w.admin, concept.id)).toEqual(before);

    // The German language is not read-only: its values change.
    const german = await w.admin.put(`/concepts/${concept.id}/patch`, {
      version: before.version,
      languageFields: [values('deu', { [w.usage]: ['geändert'] })],
    });
    expect(german.status, german.text).toBe(200);
    const after = await read(w.admin, concept.id);
    expect(after.languageFields.find((row) => row.languageCode === 'deu')!.fieldMap[w.usage]).toEqual([
      'geändert',
    ]);
    expect(after.languageFields.find((row) => row.languageCode === 'eng')).toEqual(
      before.languageFields.find((row) => row.languageCode === 'eng'),
    );
  }, 120_000);

  it('LANGUAGE unit: a PATCH of an approved language values re-opens it in the same history item', async () => {
    const w = await world('LANGUAGE');
    const concept = await w.concept();
    await move(w.dictAdmin.rest, concept.id, 'eng', 'approved');
    await move(w.dictAdmin.rest, concept.id, 'deu', 'approved');
    const current = await read(w.admin, concept.id);
    const patched = await w.admin.put(`/concepts/${concept.id}/patch`, {
      version: current.version,
      languageFields: [values('eng', { [w.usage]: ['Approved no more'] }, 'GB')],
    });
    expect(patched.status, patched.text).toBe(200);
    const body = await states(w.admin, concept.id);
    expect(entryOf(body, 'eng').state).toBe('draft');
    expect(entryOf(body, 'deu').state).toBe('approved');

    const history = await w.admin.get<HistoryRead>(`/history/concept/${concept.id}?size=500`);
    expect(history.status, history.text).toBe(200);
    const item = history.body.content.find((entry) =>
      entry.changes.some((c) => c.subject === 'LANGUAGE_FIELD'),
    )!;
    expect(item.changes.map((change) => change.subject).sort()).toEqual(['LANGUAGE_FIELD', 'WORKFLOW']);
    const workflow = item.changes.find((change) => change.subject === 'WORKFLOW')!;
    expect(workflow.before).toEqual({ state: 'approved' });
    expect(workflow.after).toMatchObject({ state: 'draft', languageCode: 'eng' });
    expect(item.changes.find((change) => change.subject === 'LANGUAGE_FIELD')!.language).toBe('eng-GB');
  }, 120_000);

  it('TERM unit: language values belong to no term, so a read-only term does not stop their edit', async () => {
    const w = await world('TERM');
    const concept = await w.concept();
    for (const term of concept.terms) {
      const fired = await fire(w.dictAdmin.rest, {
        conceptId: concept.id,
        languageCode: term.languageCode,
        termId: term.id,
        transition: 'frozen',
        version: 0,
      });
      expect(fired.status, JSON.stringify(fired.body)).toBe(200);
    }
    const patched = await w.admin.put(`/concepts/${concept.id}/patch`, {
      version: (await read(w.admin, concept.id)).version,
      languageFields: [values('eng', { [w.usage]: ['Term unit'] })],
    });
    expect(patched.status, patched.text).toBe(200);
    expect((await states(w.admin, concept.id)).entries.map((entry) => entry.state)).toEqual([
      'frozen',
      'frozen',
    ]);
    const moves = await rows(
      server.t,
      'select 1 from workflow_transitions where concept_id = ? and transition is null',
      [concept.id],
    );
    expect(moves).toEqual([]);
  }, 120_000);
});

interface Summary {
  updated: number;
  skipped: number;
  errors: { line: number; message: string }[];
}

/** POST /dictionaries/import-tbx into an existing dictionary, merging by entry id; the job's summary. */
const importInto = (token: string, dictionaryId: number, content: string) =>
  importTbxInto<Summary>(server.base, token, dictionaryId, content);

/** One entry with an English and a German language section; each may carry a language note and a processStatus. */
const file = (id: string, s: string, en: { note?: string; status?: string }, de: { note?: string } = {}) => {
  const section = (lang: string, name: string, note?: string, status?: string) =>
    `<langSec xml:lang="${lang}">${note ? `<note>${note}</note>` : ''}<termSec><term>${name} ${s}</term>${status ? `<termNote type="processStatus">${status}</termNote>` : ''}</termSec></langSec>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<tbx type="TBX-Basic" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2">
 <tbxHeader><fileDesc><sourceDesc><p>test</p></sourceDesc></fileDesc></tbxHeader>
 <text><body>
  <conceptEntry id="${id}">${section('en', 'bolt', en.note, en.status)}${section('de', 'Bolzen', de.note)}</conceptEntry>
 </body></text>
</tbx>
`;
};

const languageValuesOf = (dictionaryId: number) =>
  rows<{ language_code: string; fields: string }>(
    server.t,
    `select language_code, field_map::text as fields from concept_language_fields where dictionary_id = ?
      order by language_code`,
    [dictionaryId],
  );
const statesOf = (dictionaryId: number) =>
  rows<{ language_code: string; state: string }>(
    server.t,
    'select language_code, state from workflow_entry_states where dictionary_id = ? order by language_code',
    [dictionaryId],
  );

describe('TBX merges of language values under the LANGUAGE unit', () => {
  it('a read-only language keeps its values and says so (not when unchanged); the other language takes the file', async () => {
    const w = await world('LANGUAGE');
    const s = uniqueSuffix();
    const id = `lv-${s}`;
    const token = w.admin.token!;
    const first = await importInto(
      token,
      w.dictionary.id,
      file(id, s, { note: `English ${s}`, status: 'finalized' }, { note: `Deutsch ${s}` }),
    );
    expect(first.errors).toEqual([]);
    expect(await statesOf(w.dictionary.id)).toEqual([{ language_code: 'eng', state: 'frozen' }]);
    const before = await languageValuesOf(w.dictionary.id);
    expect(before.map((row) => row.language_code)).toEqual(['deu', 'eng']);

    // The same file again: nothing changes, nothing is reported.
    const same = await importInto(
      token,
      w.dictionary.id,
      file(id, s, { note: `English ${s}`, status: 'finalized' }, { note: `Deutsch ${s}` }),
    );
    expect(same.errors).toEqual([]);

    const content = file(id, s, { note: `English changed ${s}` }, { note: `Deutsch changed ${s}` });
    const summary = await importInto(token, w.dictionary.id, content);
    const line = content.split('\n').findIndex((text) => text.includes(`<conceptEntry id="${id}"`)) + 1;
    expect(summary.errors).toEqual([
      {
        line,
        message: expect.stringMatching(
          /^Language eng of concept \d+: its workflow entry is in the read-only state "Frozen" \(frozen\); its language values were not imported$/,
        ),
      },
    ]);
    const after = await languageValuesOf(w.dictionary.id);
    expect(after.find((row) => row.language_code === 'eng')).toEqual(
      before.find((row) => row.language_code === 'eng'),
    );
    expect(after.find((row) => row.language_code === 'deu')!.fields).toContain(`Deutsch changed ${s}`);
    expect(await statesOf(w.dictionary.id)).toEqual([{ language_code: 'eng', state: 'frozen' }]);
  }, 120_000);

  it('changed language values of an approved language re-open it; an unchanged re-import does not', async () => {
    const w = await world('LANGUAGE');
    const s = uniqueSuffix();
    const id = `la-${s}`;
    const token = w.admin.token!;
    // provisionallyProcessed places English into the approved state (no read-only one).
    expect(
      (
        await importInto(
          token,
          w.dictionary.id,
          file(id, s, { note: `English ${s}`, status: 'provisionallyProcessed' }),
        )
      ).errors,
    ).toEqual([]);
    expect(await statesOf(w.dictionary.id)).toEqual([{ language_code: 'eng', state: 'approved' }]);
    // Without a processStatus and with the same values: no edit, English stays approved.
    expect((await importInto(token, w.dictionary.id, file(id, s, { note: `English ${s}` }))).errors).toEqual(
      [],
    );
    expect(await statesOf(w.dictionary.id)).toEqual([{ language_code: 'eng', state: 'approved' }]);

    // Only the English language note changes (terms and concept values as stored): English re-opens.
    const summary = await importInto(token, w.dictionary.id, file(id, s, { note: `English changed ${s}` }));
    expect(summary.errors).toEqual([]);
    expect(await statesOf(w.dictionary.id)).toEqual([{ language_code: 'eng', state: 'draft' }]);
    expect((await languageValuesOf(w.dictionary.id))[0]!.fields).toContain(`English changed ${s}`);
    const log = await rows<{ language_code: string; from_state: string; to_state: string; comment: string }>(
      server.t,
      `select language_code, from_state, to_state, comment from workflow_transitions
        where dictionary_id = ? and transition is null and from_state = 'approved'`,
      [w.dictionary.id],
    );
    expect(log).toEqual([
      {
        language_code: 'eng',
        from_state: 'approved',
        to_state: 'draft',
        comment: 'Re-opened by a TBX import that changed it',
      },
    ]);
  }, 120_000);
});
