/**
 * TBX merges and read-only workflow states (docs/workflows.md, TBX): what an API edit refuses with 403
 * (an edit of an entry in a read-only state) an import leaves as it is, by the workflow's unit, and
 * names in the job's result; the other entries of the same file are imported. Placing an entry into a
 * read-only state by its processStatus is no edit of a read-only entry; moving one out of it is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Server, startServer } from '../concepts/concept-helpers.js';
import { rows, uniqueSuffix } from '../helpers/structure.js';
import { importTbxInto, workflowWorld } from './workflow-helpers.js';

interface Summary {
  concepts: number;
  updated: number;
  skipped: number;
  errors: { line: number; message: string }[];
}

let server: Server;

beforeAll(async () => {
  server = await startServer();
}, 120_000);
afterAll(async () => {
  await server?.close();
});

/** POST /dictionaries/import-tbx into an existing dictionary, merging by entry id; the job's summary. */
const importInto = (token: string, dictionaryId: number, content: string) =>
  importTbxInto<Summary>(server.base, token, dictionaryId, content);

/** A workflow with a read-only state that finalized places entries into. */
async function freezingWorkflow(unit: 'CONCEPT' | 'LANGUAGE' | 'TERM') {
  const w = await workflowWorld(server.t, server.sysadmin);
  const created = await w.dictAdmin.rest.post('/workflows', {
    name: `Freezing ${unit}`,
    dictionaryId: w.dictionary.id,
    unit,
    enabled: true,
    definition: {
      states: [
        { key: 'draft', name: 'Draft', category: 'DRAFT', processStatus: 'unprocessed' },
        { key: 'frozen', name: 'Frozen', category: 'APPROVED', processStatus: 'finalized', readOnly: true },
      ],
      initialState: 'draft',
    },
  });
  expect(created.status, created.text).toBe(201);
  return w;
}

const tbx = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>
<tbx type="TBX-Basic" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2">
 <tbxHeader><fileDesc><sourceDesc><p>test</p></sourceDesc></fileDesc></tbxHeader>
 <text><body>
${body}
 </body></text>
</tbx>
`;

/** A termSec with an optional processStatus and note. */
const termSec = (name: string, status: string | null, note: string | null) =>
  `<termSec><term>${name}</term>${status ? `<termNote type="processStatus">${status}</termNote>` : ''}${note ? `<note>${note}</note>` : ''}</termSec>`;

/** The line of the conceptEntry with an id, 1-based. */
const lineOf = (content: string, id: string) =>
  content.split('\n').findIndex((line) => line.includes(`<conceptEntry id="${id}"`)) + 1;

/** Terms with their stored values (as text) and the entry states of the dictionary. */
const termsOf = (dictionaryId: number) =>
  rows<{ name: string; fields: string }>(
    server.t,
    `select name, field_map::text as fields from terms where dictionary_id = ? and not deleted order by name`,
    [dictionaryId],
  );
const statesOf = (dictionaryId: number) =>
  rows<{ language_code: string; term_id: number; state: string }>(
    server.t,
    `select language_code, term_id, state from workflow_entry_states where dictionary_id = ?
      order by concept_id, language_code, term_id`,
    [dictionaryId],
  );

describe('TBX merges leave entries in read-only states as they are', () => {
  it('LANGUAGE unit: a read-only language keeps its terms and state, the other language and the concept values change', async () => {
    const w = await freezingWorkflow('LANGUAGE');
    const s = uniqueSuffix();
    const id = `ro-${s}`;
    // Placing the English entry into the read-only state by its processStatus is no edit of it.
    const first = await importInto(
      w.admin.token!,
      w.dictionary.id,
      tbx(
        `  <conceptEntry id="${id}"><langSec xml:lang="en">${termSec(`bolt ${s}`, 'finalized', null)}</langSec><langSec xml:lang="de">${termSec(`Bolzen ${s}`, null, null)}</langSec></conceptEntry>`,
      ),
    );
    expect(first.errors).toEqual([]);
    const placed = await statesOf(w.dictionary.id);
    expect(placed).toEqual([{ language_code: 'eng', term_id: 0, state: 'frozen' }]);
    const before = await termsOf(w.dictionary.id);

    // The same file again, unchanged: nothing to report.
    const same = await importInto(
      w.admin.token!,
      w.dictionary.id,
      tbx(
        `  <conceptEntry id="${id}"><langSec xml:lang="en">${termSec(`bolt ${s}`, 'finalized', null)}</langSec><langSec xml:lang="de">${termSec(`Bolzen ${s}`, null, null)}</langSec></conceptEntry>`,
      ),
    );
    expect(same.errors).toEqual([]);

    // Now a note on both terms, a new English term, a concept note, and processStatus unprocessed on
    // English (out of the read-only state): only the German note and the concept note come in.
    const content = tbx(
      `  <conceptEntry id="${id}"><note>Concept note ${s}</note><langSec xml:lang="en">${termSec(`bolt ${s}`, 'unprocessed', `Bolt note ${s}`)}${termSec(`screw ${s}`, null, null)}</langSec><langSec xml:lang="de">${termSec(`Bolzen ${s}`, null, `Bolzen note ${s}`)}</langSec></conceptEntry>`,
    );
    const summary = await importInto(w.admin.token!, w.dictionary.id, content);
    const line = lineOf(content, id);
    const frozen = 'its workflow entry is in the read-only state "Frozen" (frozen)';
    expect(summary.errors).toEqual([
      {
        line,
        message: expect.stringMatching(
          new RegExp(
            `^Term "bolt ${s}" \\(eng\\) of concept \\d+: ${frozen.replace(/[()]/g, '\\$&')}; its changes were not imported$`,
          ),
        ),
      },
      { line, message: expect.stringContaining(`Term "screw ${s}" (eng) of concept`) },
      { line, message: expect.stringContaining(`Term "bolt ${s}" (eng) of concept`) },
    ]);
    expect(summary.errors[1]!.message).toContain(`${frozen}; the term was not added`);
    expect(summary.errors[2]!.message).toContain(
      `${frozen}; its processStatus (state "draft") was not applied`,
    );
    expect(summary.updated).toBe(1);

    const after = await termsOf(w.dictionary.id);
    // The English term is exactly as it was, no term was added; the German one has its note.
    expect(after.map((term) => term.name)).toEqual(before.map((term) => term.name));
    expect(after.find((term) => term.name === `bolt ${s}`)).toEqual(
      before.find((term) => term.name === `bolt ${s}`),
    );
    expect(after.find((term) => term.name === `Bolzen ${s}`)!.fields).toContain(`Bolzen note ${s}`);
    const [concept] = await rows<{ fields: string }>(
      server.t,
      'select field_map::text as fields from concepts where dictionary_id = ?',
      [w.dictionary.id],
    );
    expect(concept!.fields).toContain(`Concept note ${s}`);
    // The read-only entry is still frozen; nothing moved it or logged a move of it.
    expect(await statesOf(w.dictionary.id)).toEqual(placed);
    expect(
      await rows(
        server.t,
        `select 1 from workflow_transitions where dictionary_id = ? and to_state <> 'frozen'`,
        [w.dictionary.id],
      ),
    ).toEqual([]);

    // The same split as an API edit: the English term's is refused (403), the German one's is not.
    const conceptId = (
      await rows<{ id: number }>(server.t, 'select id from concepts where dictionary_id = ?', [
        w.dictionary.id,
      ])
    )[0]!.id;
    const rename = async (languageCode: string) => {
      const current = await w.admin.get<{
        version: number;
        terms: { id: number; name: string; languageCode: string }[];
      }>(`/concepts/${conceptId}`);
      return w.admin.put(`/concepts/${conceptId}/patch`, {
        version: current.body.version,
        terms: current.body.terms.map((term) => ({
          id: term.id,
          languageCode: term.languageCode,
          name: term.languageCode === languageCode ? `${term.name} renamed` : term.name,
        })),
      });
    };
    expect((await rename('eng')).status).toBe(403);
    const german = await rename('deu');
    expect(german.status, german.text).toBe(200);
  }, 120_000);

  it('TERM unit: only the read-only term is kept, its sibling in the same language changes', async () => {
    const w = await freezingWorkflow('TERM');
    const s = uniqueSuffix();
    const id = `rt-${s}`;
    const file = (note: string | null) =>
      tbx(
        `  <conceptEntry id="${id}"><langSec xml:lang="en">${termSec(`gear ${s}`, note ? null : 'finalized', note)}${termSec(`cog ${s}`, null, note)}</langSec></conceptEntry>`,
      );
    expect((await importInto(w.admin.token!, w.dictionary.id, file(null))).errors).toEqual([]);
    const before = await termsOf(w.dictionary.id);
    const content = file(`Checked ${s}`);
    const summary = await importInto(w.admin.token!, w.dictionary.id, content);
    expect(summary.errors).toEqual([
      {
        line: lineOf(content, id),
        message: expect.stringContaining(`Term "gear ${s}" (eng) of concept`),
      },
    ]);
    expect(summary.errors[0]!.message).toContain(
      'read-only state "Frozen" (frozen); its changes were not imported',
    );
    const after = await termsOf(w.dictionary.id);
    expect(after.find((term) => term.name === `gear ${s}`)).toEqual(
      before.find((term) => term.name === `gear ${s}`),
    );
    expect(after.find((term) => term.name === `cog ${s}`)!.fields).toContain(`Checked ${s}`);
    expect((await statesOf(w.dictionary.id)).map((row) => row.state)).toEqual(['frozen']);
  }, 120_000);

  it('CONCEPT unit: a read-only concept is skipped as a whole, another concept of the file is merged', async () => {
    const w = await freezingWorkflow('CONCEPT');
    const s = uniqueSuffix();
    const file = (note: string | null) =>
      tbx(
        [
          `  <conceptEntry id="frozen-${s}">${note ? `<note>${note}</note>` : ''}<langSec xml:lang="en">${termSec(`axle ${s}`, note ? null : 'finalized', note)}</langSec></conceptEntry>`,
          `  <conceptEntry id="open-${s}">${note ? `<note>${note}</note>` : ''}<langSec xml:lang="en">${termSec(`wheel ${s}`, null, note)}</langSec></conceptEntry>`,
        ].join('\n'),
      );
    expect((await importInto(w.admin.token!, w.dictionary.id, file(null))).errors).toEqual([]);
    const concepts = () =>
      rows<{ fields: string; version: number }>(
        server.t,
        `select c.field_map::text as fields, c.version from concepts c join terms t on t.concept_id = c.id
          where t.dictionary_id = ? order by t.name`,
        [w.dictionary.id],
      );
    // Unchanged (processStatus too): a read-only concept meets nothing to refuse.
    const same = await importInto(w.admin.token!, w.dictionary.id, file(null));
    expect([same.errors, same.skipped]).toEqual([[], 2]);
    const [axleBefore] = await concepts();
    const termsBefore = await termsOf(w.dictionary.id);
    const content = file(`Note ${s}`);
    const summary = await importInto(w.admin.token!, w.dictionary.id, content);
    expect(summary.errors).toEqual([
      {
        line: lineOf(content, `frozen-${s}`),
        message: expect.stringMatching(
          /^Concept \d+: its workflow entry is in the read-only state "Frozen" \(frozen\); entry skipped$/,
        ),
      },
    ]);
    expect([summary.updated, summary.skipped]).toEqual([1, 1]);
    const [axle, wheel] = await concepts();
    expect(axle).toEqual(axleBefore);
    expect(wheel!.fields).toContain(`Note ${s}`);
    const termsAfter = await termsOf(w.dictionary.id);
    expect(termsAfter[0]).toEqual(termsBefore[0]);
    expect(termsAfter[1]!.fields).toContain(`Note ${s}`);
  }, 120_000);
});
