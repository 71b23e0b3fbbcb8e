/**
 * Ids that cannot be XML ids (docs/tbx.md, Ids): an id starting with a digit, or repeated in the file, is
 * kept as the oid; the export writes `concept-<id>`/`term-<id>` and the oid as `originalId` (TBX-Basic:
 * a note), and an import of the export restores the oids, resolves the cross-references to the
 * generated ids, and a merge into the same dictionary changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TbxEntry } from '../../src/modules/tbx/tbx-model.js';
import { readTbx } from '../../src/modules/tbx/tbx-reader.js';
import type { Server } from '../concepts/concept-helpers.js';
import { rows } from '../helpers/structure.js';
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

const FILE = `<?xml version="1.0"?>
<martif type="TBX" xml:lang="en"><martifHeader><fileDesc><sourceDesc><p>t</p></sourceDesc></fileDesc></martifHeader>
<text><body>
<termEntry id="1"><langSet xml:lang="en"><tig><term id="2a">digit first</term></tig></langSet></termEntry>
<termEntry id="dup"><langSet xml:lang="en"><tig><term>first dup</term></tig></langSet></termEntry>
<termEntry id="dup"><langSet xml:lang="en"><tig><term>second dup</term></tig></langSet></termEntry>
<termEntry id="ok"><ref type="crossReference" target="1">digit first</ref><langSet xml:lang="en"><tig><term id="fine">valid</term></tig></langSet></termEntry>
</body></text></martif>`;

async function readAll(xml: string): Promise<TbxEntry[]> {
  const entries: TbxEntry[] = [];
  for await (const entry of readTbx([xml])) entries.push(entry);
  return entries;
}

async function stored(dictionaryId: number) {
  const concepts = await rows<{ id: number; oid: string | null }>(
    server.t,
    'select id, oid from concepts where dictionary_id = ? and not deleted order by id',
    [dictionaryId],
  );
  const terms = await rows<{ name: string; oid: string | null }>(
    server.t,
    'select name, oid from terms where dictionary_id = ? and not deleted order by id',
    [dictionaryId],
  );
  const relations = await rows<{ source: string; target: string }>(
    server.t,
    `select s.oid as source, t.oid as target from concept_relations r
       join concepts s on s.id = r.source_concept_id join concepts t on t.id = r.target_concept_id
      where r.dictionary_id = ?`,
    [dictionaryId],
  );
  return {
    oids: concepts.map((c) => c.oid),
    terms: terms.map((t) => [t.name, t.oid]),
    relations: relations.map((r) => [r.source, r.target]),
  };
}

describe('ids that are not XML ids', () => {
  it('are written as generated ids with the original as originalId, and an import restores them', async () => {
    const first = await client.importNew(Buffer.from(FILE), 'original ids', 'NONE');
    const expected = {
      oids: ['1', 'dup', 'dup', 'ok'],
      terms: [
        ['digit first', '2a'],
        ['first dup', null],
        ['second dup', null],
        ['valid', 'fine'],
      ],
      relations: [['ok', '1']],
    };
    expect(await stored(first.dictionaryId)).toEqual(expected);

    const full = await client.export(first.dictionaryId, 'TBX_V3_FULL');
    const entries = await readAll(full);
    expect(entries.map((e) => e.id)).toEqual([
      expect.stringMatching(/^concept-\d+$/),
      expect.stringMatching(/^concept-\d+$/),
      expect.stringMatching(/^concept-\d+$/),
      'ok',
    ]);
    expect(entries[0]!.values).toContainEqual(
      expect.objectContaining({ category: 'originalId', value: '1' }),
    );
    expect(entries[0]!.languages[0]!.terms[0]).toMatchObject({ id: expect.stringMatching(/^term-\d+$/) });
    expect(entries[0]!.languages[0]!.terms[0]!.values).toContainEqual(
      expect.objectContaining({ category: 'originalId', element: 'admin', value: '2a' }),
    );
    expect(entries[3]!.values.find((v) => v.category === 'crossReference')?.target).toBe(entries[0]!.id);
    expect(entries[3]!.values.some((v) => v.category === 'originalId')).toBe(false);

    for (const format of ['TBX_V3_FULL', 'TBX_V2_FULL', 'TBX', 'TBX_V2']) {
      const xml = await client.export(first.dictionaryId, format);
      const again = await client.importNew(Buffer.from(xml), `original ids ${format}`, 'NONE');
      expect(again.errors, format).toEqual([]);
      expect(await stored(again.dictionaryId), format).toEqual(expected);
    }
    // TBX-Basic has no originalId category: a note carries it.
    expect(await client.export(first.dictionaryId, 'TBX')).toContain('<note>originalId: 1</note>');
  }, 180_000);

  it('an export imported into its own dictionary (merge by entry id) changes nothing', async () => {
    const first = await client.importNew(Buffer.from(FILE), 'original ids merge', 'NONE');
    const xml = await client.export(first.dictionaryId, 'TBX_V3_FULL');
    const response = await fetch(
      `${server.base}/api/v4/dictionaries/import-tbx?dictionary-id=${first.dictionaryId}&merge=ENTRY_ID`,
      {
        method: 'POST',
        headers: { 'x-auth-token': token },
        body: (() => {
          const form = new FormData();
          form.append('file', new Blob([xml]), 'again.tbx');
          return form;
        })(),
      },
    );
    const body = (await response.json()) as { result: { concepts: number; terms: number; updated: number } };
    expect(response.status).toBe(200);
    expect(body.result).toMatchObject({ concepts: 0, terms: 0, updated: 0 });
    expect((await stored(first.dictionaryId)).oids).toEqual(['1', 'dup', 'dup', 'ok']);
  }, 120_000);
});
