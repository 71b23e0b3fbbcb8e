/**
 * TBX under a workflow (docs/workflows.md, TBX): exports write each term's processStatus from its
 * entry's state (and stay valid against the official validators), imports set states from processStatus
 * values, and a value no state has is an error at its line.
 */
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateTbxFiles } from '../../scripts/tbx-validators.js';
import { type Server, startServer } from '../concepts/concept-helpers.js';
import type { RestClient } from '../helpers/rest.js';
import { rows, uniqueSuffix } from '../helpers/structure.js';
import { TBX_SCHEMAS_DIR } from '../tbx/tbx-sample-files.js';
import { enableWorkflow, fire, importTbxInto, state, workflowWorld } from './workflow-helpers.js';

interface Summary {
  dictionaryId: number;
  concepts: number;
  errors: { line: number; message: string }[];
}

let server: Server;
let outDir: string;

beforeAll(async () => {
  server = await startServer();
  outDir = await mkdtemp(path.join(tmpdir(), 'polyterm-workflow-tbx-'));
}, 120_000);
afterAll(async () => {
  await server?.close();
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

/** importTbxInto against this file's server. */
const importInto = (token: string, dictionaryId: number, content: string) =>
  importTbxInto<Summary>(server.base, token, dictionaryId, content);

async function exportTbx(token: string, dictionaryId: number, format: string, includeUnpublished = true) {
  const response = await fetch(
    `${server.base}/api/v4/dictionaries/export-tbx/${dictionaryId}?format=${format}&include-unpublished=${includeUnpublished}`,
    { headers: { 'x-auth-token': token } },
  );
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return text;
}

/** term text -> processStatus, from the termNotes (full formats) or notes (TBX-Basic) right after each term. */
function processStatuses(text: string): Map<string, string> {
  const found = new Map<string, string>();
  const pattern =
    /<term\b[^>]*>([^<]*)<\/term>\s*(?:<termNote type="processStatus">(\w+)<\/termNote>)?(?:(?:(?!<\/(?:termSec|tig)>)[\s\S])*?<note>processStatus: (\w+)<\/note>)?/g;
  for (const match of text.matchAll(pattern)) {
    const status = match[2] ?? match[3];
    if (status) found.set(match[1]!, status);
  }
  return found;
}

/** Fires transitions on one language entry of a concept, in order (versions counted from 0). */
async function move(caller: RestClient[], conceptId: number, languageCode: string, transitions: string[]) {
  for (const [version, transition] of transitions.entries()) {
    const fired = await fire(caller[version]!, {
      conceptId,
      languageCode,
      transition,
      version,
      ...(transition === 'reject' ? { comment: 'Not our usage' } : {}),
    });
    expect(fired.status, fired.text).toBe(200);
  }
}

const statesOf = (dictionaryId: number) =>
  rows<{ name: string; state: string }>(
    server.t,
    `select t.name, s.state from terms t join workflow_entry_states s
       on s.concept_id = t.concept_id and s.language_code = t.language_code and s.term_id = 0
      where t.dictionary_id = ? and not t.deleted order by t.name`,
    [dictionaryId],
  );

describe('TBX under the default workflow', () => {
  it('exports write the states’ processStatus, valid in every format; a re-import sets the states', async () => {
    const w = await workflowWorld(server.t, server.sysadmin);
    // include-unpublished is for reviewers (issue 37): the dictionary administrator reviews.
    const token = w.dictAdmin.rest.token!;
    const named = async () => {
      const concept = await w.concept();
      const terms = concept.terms as unknown as { name: string; languageCode: string }[];
      return {
        id: concept.id,
        eng: terms.find((term) => term.languageCode === 'eng')!.name,
        deu: terms.find((term) => term.languageCode === 'deu')!.name,
      };
    };
    const [first, second] = [await named(), await named()];
    await enableWorkflow(w, 'Default');
    await move([w.author.rest, w.dictAdmin.rest], first.id, 'deu', ['submit', 'approve']);
    await move([w.author.rest, w.dictAdmin.rest], first.id, 'eng', ['submit', 'reject']);
    await move([w.author.rest], second.id, 'eng', ['submit']);
    const expected = new Map([
      [first.deu, 'finalized'],
      [first.eng, 'unprocessed'],
      [second.eng, 'provisionallyProcessed'],
      [second.deu, 'unprocessed'],
    ]);

    const files: string[] = [];
    const exported = new Map<string, string>();
    for (const format of ['TBX', 'TBX_V2', 'TBX_V3_FULL', 'TBX_V2_FULL']) {
      const text = await exportTbx(token, w.dictionary.id, format);
      exported.set(format, text);
      expect([...processStatuses(text)].sort(), format).toEqual([...expected].sort());
      const file = path.join(outDir, `${format}.tbx`);
      writeFileSync(file, text);
      files.push(file);
    }
    // TBX-Basic has no processStatus category: a note there, a termNote in the full dialects.
    expect(exported.get('TBX_V3_FULL')).toContain('<termNote type="processStatus">finalized</termNote>');
    expect(exported.get('TBX')).not.toContain('type="processStatus"');
    // Published only (the default): the approved German term alone.
    const published = await exportTbx(token, w.dictionary.id, 'TBX_V3_FULL', false);
    expect([...processStatuses(published)]).toEqual([[first.deu, 'finalized']]);
    expect(await validateTbxFiles(files, TBX_SCHEMAS_DIR)).toEqual([]);

    // Into another dictionary with the default workflow: the TBX-Basic export's states come back.
    const other = await workflowWorld(server.t, server.sysadmin);
    await enableWorkflow(other, 'Default');
    const summary = await importInto(other.admin.token!, other.dictionary.id, exported.get('TBX')!);
    expect(summary.errors).toEqual([]);
    expect(summary.concepts).toBe(2);
    // The first state with the processStatus: unprocessed is "suggested" (not "rejected").
    expect(await statesOf(other.dictionary.id)).toEqual(
      [
        { name: first.deu, state: 'approved' },
        { name: first.eng, state: 'suggested' },
        { name: second.deu, state: 'suggested' },
        { name: second.eng, state: 'inReview' },
      ].sort((a, b) => (a.name < b.name ? -1 : 1)),
    );
  }, 180_000);

  it('an import sets states from processStatus, merges move them, and an unknown value is an error at its line', async () => {
    const w = await workflowWorld(server.t, server.sysadmin);
    await enableWorkflow(w, 'Default');
    const suffix = uniqueSuffix();
    const file = (deStatus: string) => `<?xml version="1.0" encoding="UTF-8"?>
<tbx type="TBX-Basic" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2">
 <tbxHeader><fileDesc><sourceDesc><p>test</p></sourceDesc></fileDesc></tbxHeader>
 <text><body>
  <conceptEntry id="w1-${suffix}">
   <langSec xml:lang="en"><termSec><term>pump ${suffix}</term><termNote type="processStatus">finalized</termNote></termSec></langSec>
   <langSec xml:lang="de"><termSec><term>Pumpe ${suffix}</term><termNote type="processStatus">${deStatus}</termNote></termSec></langSec>
  </conceptEntry>
  <conceptEntry id="w2-${suffix}">
   <langSec xml:lang="en"><termSec><term>valve ${suffix}</term><termNote type="processStatus">approvedish</termNote></termSec></langSec>
   <langSec xml:lang="de"><termSec><term>Ventil ${suffix}</term></termSec></langSec>
  </conceptEntry>
 </body></text>
</tbx>
`;
    const content = file('provisionallyProcessed');
    const badLine = content.split('\n').findIndex((line) => line.includes('approvedish')) + 1;
    const summary = await importInto(w.admin.token!, w.dictionary.id, content);
    expect(summary.concepts).toBe(2);
    expect(summary.errors).toEqual([
      { line: badLine, message: expect.stringContaining('processStatus "approvedish" matches no state') },
    ]);
    const expected = (deState: string) =>
      [
        { name: `Pumpe ${suffix}`, state: deState },
        { name: `pump ${suffix}`, state: 'approved' },
      ].sort((a, b) => (a.name < b.name ? -1 : 1));
    // No processStatus, or an unknown one: no state row (the initial state).
    expect(await statesOf(w.dictionary.id)).toEqual(expected('inReview'));
    // processStatus is the state under a workflow, not a field value.
    expect(
      await rows(
        server.t,
        `select 1 from fields where dictionary_id = ? and (data_category = 'PROCESS_STATUS' or lower(name) = 'processstatus')`,
        [w.dictionary.id],
      ),
    ).toEqual([]);

    // Each entry placed into a state has its transition log row and history change (import-log-26).
    const [pump] = await rows<{ concept_id: number }>(
      server.t,
      'select concept_id from terms where dictionary_id = ? and name = ?',
      [w.dictionary.id, `pump ${suffix}`],
    );
    const logged = async () => {
      const response = await w.admin.get<
        {
          languageCode: string;
          transition: string | null;
          fromState: string;
          toState: string;
          comment: string;
        }[]
      >(`/workflows/concepts/${pump!.concept_id}/transitions`);
      expect(response.status, response.text).toBe(200);
      return response.body.map((m) => [m.languageCode, m.transition, m.fromState, m.toState, m.comment]);
    };
    const imported = (state: string, status: string) =>
      `Imported into state ${state} from processStatus ${status} (TBX import)`;
    expect((await logged()).sort()).toEqual([
      ['deu', null, 'suggested', 'inReview', imported('inReview', 'provisionallyProcessed')],
      ['eng', null, 'suggested', 'approved', imported('approved', 'finalized')],
    ]);
    const history = await w.admin.get<{
      content: { changes: { subject: string; after: { comment: string } }[] }[];
    }>(`/history/concept/${pump!.concept_id}`);
    const workflowChanges = history.body.content.flatMap((item) =>
      item.changes.filter((change) => change.subject === 'WORKFLOW').map((change) => change.after.comment),
    );
    expect(workflowChanges.sort()).toEqual([
      imported('approved', 'finalized'),
      imported('inReview', 'provisionallyProcessed'),
    ]);
    // The entries of the second concept (no processStatus, or an unknown one) did not move: nothing logged.
    expect(
      await rows(server.t, 'select 1 from workflow_transitions where dictionary_id = ? and concept_id <> ?', [
        w.dictionary.id,
        pump!.concept_id,
      ]),
    ).toEqual([]);

    // The same file again with another processStatus: the merge moves the state.
    const again = await importInto(w.admin.token!, w.dictionary.id, file('finalized'));
    expect(again.errors).toHaveLength(1);
    expect(await statesOf(w.dictionary.id)).toEqual(expected('approved'));
    // Only the entry that moved is logged again (import-log-26).
    expect((await logged()).slice(2)).toEqual([
      ['deu', null, 'inReview', 'approved', imported('approved', 'finalized')],
    ]);
  }, 120_000);
  it('a merge that changes approved entries re-opens them as an API edit does, unless the file sets their processStatus', async () => {
    const w = await workflowWorld(server.t, server.sysadmin);
    await enableWorkflow(w, 'Default');
    const suffix = uniqueSuffix();
    const termSec = (name: string, status: string | null, note: string | null) =>
      `<termSec><term>${name} ${suffix}</term>${status ? `<termNote type="processStatus">${status}</termNote>` : ''}${note ? `<note>${note}</note>` : ''}</termSec>`;
    const file = (entries: [string, string, string][]) => `<?xml version="1.0" encoding="UTF-8"?>
<tbx type="TBX-Basic" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2">
 <tbxHeader><fileDesc><sourceDesc><p>test</p></sourceDesc></fileDesc></tbxHeader>
 <text><body>
${entries.map(([id, en, de]) => `  <conceptEntry id="${id}-${suffix}"><langSec xml:lang="en">${en}</langSec><langSec xml:lang="de">${de}</langSec></conceptEntry>`).join('\n')}
 </body></text>
</tbx>
`;
    // Everything approved by the first import.
    const first = await importInto(
      w.admin.token!,
      w.dictionary.id,
      file([
        ['r1', termSec('bolt', 'finalized', null), termSec('Bolzen', 'finalized', null)],
        ['r2', termSec('nut', 'finalized', null), termSec('Mutter', 'finalized', null)],
      ]),
    );
    expect(first.errors).toEqual([]);
    const approvedAll = [
      { name: `Bolzen ${suffix}`, state: 'approved' },
      { name: `Mutter ${suffix}`, state: 'approved' },
      { name: `bolt ${suffix}`, state: 'approved' },
      { name: `nut ${suffix}`, state: 'approved' },
    ];
    expect(await statesOf(w.dictionary.id)).toEqual(approvedAll);
    const conceptOf = async (name: string) =>
      (
        await rows<{ concept_id: number }>(
          server.t,
          'select concept_id from terms where dictionary_id = ? and name = ?',
          [w.dictionary.id, `${name} ${suffix}`],
        )
      )[0]!.concept_id;
    const [r1, r2] = [await conceptOf('bolt'), await conceptOf('nut')];
    const logCount = async () =>
      (await rows(server.t, 'select 1 from workflow_transitions where dictionary_id = ?', [w.dictionary.id]))
        .length;
    const logged = await logCount();

    // The same file unchanged: nothing re-opens, nothing is logged.
    await importInto(
      w.admin.token!,
      w.dictionary.id,
      file([
        ['r1', termSec('bolt', null, null), termSec('Bolzen', null, null)],
        ['r2', termSec('nut', null, null), termSec('Mutter', null, null)],
      ]),
    );
    expect(await statesOf(w.dictionary.id)).toEqual(approvedAll);
    expect(await logCount()).toBe(logged);

    // A note on the English terms: bolt (no processStatus) re-opens, nut keeps the approval its file sets;
    // the German entries, unchanged, stay approved.
    const changed = await importInto(
      w.admin.token!,
      w.dictionary.id,
      file([
        ['r1', termSec('bolt', null, 'Checked again'), termSec('Bolzen', null, null)],
        ['r2', termSec('nut', 'finalized', 'Checked again'), termSec('Mutter', null, null)],
      ]),
    );
    expect(changed.errors).toEqual([]);
    expect(await statesOf(w.dictionary.id)).toEqual(
      approvedAll.map((row) => (row.name === `bolt ${suffix}` ? { ...row, state: 'inReview' } : row)),
    );
    const reopened = 'Re-opened by a TBX import that changed it';
    const moves = await w.admin.get<
      {
        languageCode: string;
        transition: string | null;
        fromState: string;
        toState: string;
        comment: string;
      }[]
    >(`/workflows/concepts/${r1}/transitions`);
    expect(moves.status, moves.text).toBe(200);
    expect(moves.body.at(-1)).toMatchObject({
      languageCode: 'eng',
      transition: null,
      fromState: 'approved',
      toState: 'inReview',
      comment: reopened,
    });
    expect(await logCount()).toBe(logged + 1);
    // The concept's history: one item, the import's edit (the note) with the re-open as a WORKFLOW change,
    // as an API edit's item holds it (read by a reviewer: the re-opened term is unpublished now, and
    // hidden from others).
    const history = await w.dictAdmin.rest.get<{
      content: {
        action: string;
        changes: { kind: string; subject: string; before?: unknown; after?: unknown }[];
      }[];
    }>(`/history/concept/${r1}`);
    const [editItem, earlier] = history.body.content;
    expect(editItem!.changes.map((change) => [change.kind, change.subject])).toEqual([
      ['ADDED', 'TERM_FIELD'],
      ['CHANGED', 'WORKFLOW'],
    ]);
    expect(editItem!.changes[1]).toEqual({
      kind: 'CHANGED',
      subject: 'WORKFLOW',
      before: { state: 'approved' },
      after: { state: 'inReview', languageCode: 'eng', comment: reopened },
    });
    expect(earlier!.changes.some((change) => change.subject === 'TERM_FIELD')).toBe(false);
    expect(
      (
        await w.admin.get<{ content: { changes: { subject: string }[] }[] }>(`/history/concept/${r2}`)
      ).body.content[0]!.changes.map((change) => change.subject),
    ).toEqual(['TERM_FIELD']);
    // As for an API edit, a re-open mails nobody.
    expect(
      await rows(server.t, 'select 1 from workflow_notifications where dictionary_id = ?', [w.dictionary.id]),
    ).toEqual([]);
  }, 120_000);

  it('under the TERM unit each term has its own state, the first state with a processStatus wins, and the export gives them back', async () => {
    const w = await workflowWorld(server.t, server.sysadmin);
    await enableWorkflow(w, 'Per term', {
      unit: 'TERM',
      definition: {
        states: [
          state('draft', 'Draft', 'DRAFT', { processStatus: 'unprocessed' }),
          state('checked', 'Checked', 'REVIEW', { processStatus: 'provisionallyProcessed' }),
          state('final', 'Final', 'APPROVED', { processStatus: 'finalized' }),
          state('final2', 'Also final', 'APPROVED', { processStatus: 'finalized' }),
          state('noStatus', 'No status', 'RETIRED'),
        ],
        initialState: 'noStatus',
      },
    });
    const suffix = uniqueSuffix();
    const term = (name: string, status: string) =>
      `<tig><term>${name} ${suffix}</term><termNote type="processStatus">${status}</termNote></tig>`;
    const summary = await importInto(
      w.admin.token!,
      w.dictionary.id,
      `<?xml version="1.0" encoding="UTF-8"?>
<martif type="TBX" xml:lang="en"><martifHeader><fileDesc><sourceDesc><p>t</p></sourceDesc></fileDesc></martifHeader>
<text><body><termEntry id="t-${suffix}"><langSet xml:lang="en">${term('gear', 'finalized')}${term('cog', 'provisionallyProcessed')}<tig><term>sprocket ${suffix}</term></tig></langSet></termEntry></body></text></martif>
`,
    );
    expect(summary.errors).toEqual([]);
    const stored = await rows<{ name: string; state: string }>(
      server.t,
      `select t.name, s.state from terms t join workflow_entry_states s on s.term_id = t.id
        where t.dictionary_id = ? order by t.name`,
      [w.dictionary.id],
    );
    expect(stored).toEqual([
      { name: `cog ${suffix}`, state: 'checked' },
      { name: `gear ${suffix}`, state: 'final' },
    ]);
    // The initial state has no processStatus: the third term is written without one.
    const text = await exportTbx(w.admin.token!, w.dictionary.id, 'TBX_V2_FULL');
    expect([...processStatuses(text)].sort()).toEqual([
      [`cog ${suffix}`, 'provisionallyProcessed'],
      [`gear ${suffix}`, 'finalized'],
    ]);
    expect(text).toContain(`sprocket ${suffix}`);
  }, 120_000);
});
