/**
 * Language values in the history of a TBX import (docs/tbx.md, Merging; docs/history.md): the import's
 * snapshots hold the concepts' language fields as an API edit's do, so a merge that changes only
 * language values is an update with a LANGUAGE_FIELD change, and an undo brings the old values back.
 * Under a workflow the re-open of an approved entry the merge changed is part of the import's item
 * (docs/workflows.md, TBX), as an API edit's is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from '../concepts/concept-helpers.js';
import { rows } from '../helpers/structure.js';
import { importTbxInto, workflowWorld } from '../workflow/workflow-helpers.js';
import { startTbxSuite, type TbxClient } from './tbx-sample-files.js';

let server: Server;
let client: TbxClient;
let token: string;

beforeAll(async () => {
  ({ server, token, client } = await startTbxSuite());
}, 120_000);
afterAll(async () => {
  await server?.close();
});

const file = (note: string) => `<?xml version="1.0"?>
<tbx type="TBX-Basic" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2">
<tbxHeader><fileDesc><sourceDesc><p>t</p></sourceDesc></fileDesc></tbxHeader>
<text><body>
<conceptEntry id="c1">
 <langSec xml:lang="en">
  <note>${note}</note>
  <termSec><term>first</term></termSec>
 </langSec>
 <langSec xml:lang="de"><termSec><term>erste</term></termSec></langSec>
</conceptEntry>
</body></text></tbx>`;

const api = <T>(path: string, init?: RequestInit) => client.api<T>(path, init);

interface Item {
  id: number;
  action: string;
  changes: {
    kind: string;
    subject: string;
    language?: string;
    fieldOid?: string;
    before?: unknown;
    after?: unknown;
  }[];
  snapshot?: { languageFields?: { languageCode: string; fieldMap: Record<string, string[]> }[] };
}

const itemsOf = async (conceptId: number, as = token) =>
  (
    await api<{ content: Item[] }>(`/history/concept/${conceptId}?size=100`, {
      headers: { 'x-auth-token': as },
    })
  ).content;

const languageFieldsOf = async (conceptId: number) =>
  (
    await api<{ languageFields: { languageCode: string; fieldMap: Record<string, string[]> }[] }>(
      `/concepts/${conceptId}`,
    )
  ).languageFields;

describe('TBX import history with language values', () => {
  it('a merge changing only language values is an update with LANGUAGE_FIELD changes; undo restores them', async () => {
    const created = await client.importNew(Buffer.from(file('Old note')), 'language history', 'NONE');
    expect(created.errors).toEqual([]);
    const { dictionaryId } = created;
    const [concept] = await rows<{ id: number }>(
      server.t,
      'select id from concepts where dictionary_id = ?',
      [dictionaryId],
    );
    const [note] = await rows<{ oid: string }>(
      server.t,
      `select oid from fields where dictionary_id = ? and name = 'note'`,
      [dictionaryId],
    );
    const conceptId = concept!.id;
    const [creation] = await itemsOf(conceptId);
    expect(creation!.action).toBe('CREATE');
    const old = [
      { languageCode: 'eng', regionCode: null, scriptCode: null, fieldMap: { [note!.oid]: ['Old note'] } },
    ];
    // The creation snapshot holds the language values the import wrote with the concept.
    expect(creation!.snapshot?.languageFields).toEqual(old);

    const merged = await importTbxInto<{ updated: number; skipped: number; errors: unknown[] }>(
      server.base,
      token,
      dictionaryId,
      file('New note'),
    );
    expect(merged.errors).toEqual([]);
    expect(merged.updated).toBe(1);
    expect(merged.skipped).toBe(0);
    const [update] = await itemsOf(conceptId);
    expect(update!.action).toBe('UPDATE');
    expect(update!.changes).toEqual([
      {
        kind: 'CHANGED',
        subject: 'LANGUAGE_FIELD',
        language: 'eng',
        fieldOid: note!.oid,
        before: ['Old note'],
        after: ['New note'],
      },
    ]);
    expect(update!.snapshot?.languageFields?.[0]?.fieldMap).toEqual({ [note!.oid]: ['New note'] });

    // The same file again changes nothing: skipped, no item.
    const again = await importTbxInto<{ updated: number; skipped: number }>(
      server.base,
      token,
      dictionaryId,
      file('New note'),
    );
    expect([again.updated, again.skipped]).toEqual([0, 1]);
    expect((await itemsOf(conceptId)).length).toBe(2);

    // Undo to the import's creation: the old language values come back (and the undo lists them).
    await api(`/history/concept-undo/?history-item-id=${creation!.id}`, { method: 'POST' });
    expect(await languageFieldsOf(conceptId)).toEqual(old);
    const [undo] = await itemsOf(conceptId);
    expect(undo!.changes).toEqual([
      expect.objectContaining({ subject: 'LANGUAGE_FIELD', before: ['New note'], after: ['Old note'] }),
    ]);
  }, 120_000);

  it('under a workflow the re-open is a WORKFLOW change of the import item that changed the language values', async () => {
    const w = await workflowWorld(server.t, server.sysadmin);
    const created = await w.dictAdmin.rest.post('/workflows', {
      name: 'Language history',
      dictionaryId: w.dictionary.id,
      unit: 'LANGUAGE',
      enabled: true,
      definition: {
        states: [
          { key: 'draft', name: 'Draft', category: 'DRAFT', processStatus: 'unprocessed' },
          {
            key: 'approved',
            name: 'Approved',
            category: 'APPROVED',
            processStatus: 'provisionallyProcessed',
          },
        ],
        transitions: [
          { key: 'approve', name: 'Approve', from: ['draft'], to: 'approved', roles: ['DICTIONARY_ADMIN'] },
        ],
        initialState: 'draft',
      },
    });
    expect(created.status, created.text).toBe(201);
    const adminToken = w.admin.token!;
    // English approved by its processStatus, with a language note.
    const approved = file('Old note').replace(
      '<term>first</term>',
      '<term>first</term><termNote type="processStatus">provisionallyProcessed</termNote>',
    );
    const first = await importTbxInto<{ errors: unknown[] }>(
      server.base,
      adminToken,
      w.dictionary.id,
      approved,
    );
    expect(first.errors).toEqual([]);
    const [concept] = await rows<{ id: number; version: number }>(
      server.t,
      'select id, version from concepts where dictionary_id = ?',
      [w.dictionary.id],
    );
    const conceptId = concept!.id;
    const itemCount = (await itemsOf(conceptId, adminToken)).length;

    // Only the English language note changes: one item with the LANGUAGE_FIELD change and the re-open.
    const merged = await importTbxInto<{ updated: number; errors: unknown[] }>(
      server.base,
      adminToken,
      w.dictionary.id,
      file('New note'),
    );
    expect(merged.errors).toEqual([]);
    expect(merged.updated).toBe(1);
    const items = await itemsOf(conceptId, adminToken);
    expect(items.length).toBe(itemCount + 1);
    expect(items[0]!.changes).toEqual([
      expect.objectContaining({
        subject: 'LANGUAGE_FIELD',
        language: 'eng',
        before: ['Old note'],
        after: ['New note'],
      }),
      {
        kind: 'CHANGED',
        subject: 'WORKFLOW',
        before: { state: 'approved' },
        after: { state: 'draft', languageCode: 'eng', comment: 'Re-opened by a TBX import that changed it' },
      },
    ]);
    const [state] = await rows<{ state: string }>(
      server.t,
      `select state from workflow_entry_states where concept_id = ? and language_code = 'eng'`,
      [conceptId],
    );
    expect(state!.state).toBe('draft');
    // One version more for the one item (the re-open writes no second one).
    const [after] = await rows<{ version: number }>(server.t, 'select version from concepts where id = ?', [
      conceptId,
    ]);
    expect(after!.version).toBe(concept!.version + 1);
    const log = await rows<{ from_state: string; to_state: string; comment: string }>(
      server.t,
      'select from_state, to_state, comment from workflow_transitions where concept_id = ? and transition is null and from_state = ?',
      [conceptId, 'approved'],
    );
    expect(log).toEqual([
      { from_state: 'approved', to_state: 'draft', comment: 'Re-opened by a TBX import that changed it' },
    ]);
  }, 120_000);
});
