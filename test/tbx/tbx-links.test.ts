/**
 * Links and repeated values (issue 37, docs/tbx.md "Links and repeated values"): ordinary text is never
 * read as a link ("Press <Enter>" stays text in every dialect), links are kept as structured parts and
 * written back as links, and several values of one category at one level come back as separate values,
 * so a TBX-Basic round trip is stable. Every export passes the official validators.
 */
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateTbxFiles } from '../../scripts/tbx-validators.js';
import { moveStoredLinks } from '../../src/db/migrations/Migration20261218090000_field_parts.js';
import type { Server } from '../concepts/concept-helpers.js';
import { rows } from '../helpers/structure.js';
import { startTbxSuite, TBX_SCHEMAS_DIR, type TbxClient } from './tbx-sample-files.js';

let server: Server;
let client: TbxClient;
let outDir: string;

beforeAll(async () => {
  ({ server, client } = await startTbxSuite());
  outDir = await mkdtemp(path.join(tmpdir(), 'tbx-links-'));
}, 120_000);
afterAll(async () => {
  await server?.close();
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

const FILE = `<?xml version="1.0" encoding="UTF-8"?>
<martif type="TBX" xml:lang="en"><martifHeader><fileDesc><sourceDesc><p>links</p></sourceDesc></fileDesc></martifHeader>
<text><body>
<termEntry id="e1">
<descrip type="definition">Press &lt;Enter&gt;</descrip>
<note>Shortcut &lt;Ctrl+S&gt;</note>
<note>first note</note>
<note>second note</note>
<xref type="externalCrossReference" target="https://example.com/a">Example</xref>
<langSet xml:lang="en"><tig><term>keyboard</term>
<termNote type="usageNote">Type &lt;Esc&gt;</termNote>
</tig></langSet>
</termEntry>
</body></text></martif>
`;

/** The text of every element `name` (of type `type`, when given), in document order. */
function texts(xml: string, name: string, type?: string): string[] {
  const typed = type ? ` type="${type}"` : '';
  const pattern = new RegExp(`<${name}${typed}(?: target="[^"]*")?>([^<]*)</${name}>`, 'g');
  return [...xml.matchAll(pattern)].map((match) => match[1]!);
}

describe('TBX links and repeated values', () => {
  it('keeps text as text, links as links and repeated values apart, in every dialect and round trip', async () => {
    const summary = await client.importNew(Buffer.from(FILE), `links ${Date.now()}`);
    expect(summary.errors).toEqual([]);
    const full = await client.export(summary.dictionaryId, 'TBX_V3_FULL');
    const basic = await client.export(summary.dictionaryId, 'TBX');

    // "Press <Enter>" is a definition, not a link to "Enter", in both dialects.
    expect(full).not.toContain('target="Enter"');
    expect(texts(full, 'descrip', 'definition')).toEqual(['Press &lt;Enter&gt;']);
    expect(basic).toContain('Press &lt;Enter&gt;');
    expect(full).not.toContain('target="Esc"');
    expect(full).toContain('Type &lt;Esc&gt;');
    // The real link stays a link, label and target.
    expect(full).toContain(
      '<xref type="externalCrossReference" target="https://example.com/a">Example</xref>',
    );
    expect(basic).toContain('target="https://example.com/a"');
    // Three notes are three notes, not one joined value; none gains a prefix.
    expect(texts(full, 'note')).toEqual(['Shortcut &lt;Ctrl+S&gt;', 'first note', 'second note']);
    // (TBX-Basic has no usageNote: a note of the term says which category it was.)
    expect(texts(basic, 'note')).toEqual([
      'Shortcut &lt;Ctrl+S&gt;',
      'first note',
      'second note',
      'usageNote: Type &lt;Esc&gt;',
    ]);

    // TBX-Basic round trip: importing the export and exporting again gives the same values.
    const again = await client.importNew(Buffer.from(basic), `links again ${Date.now()}`);
    expect(again.errors).toEqual([]);
    const basicAgain = await client.export(again.dictionaryId, 'TBX');
    expect(texts(basicAgain, 'note')).toEqual(texts(basic, 'note'));
    expect(basicAgain).toContain('Press &lt;Enter&gt;');
    expect(basicAgain).toContain('target="https://example.com/a"');

    const files = [full, basic, basicAgain].map((text, index) => {
      const file = path.join(outDir, `export-${index}.tbx`);
      writeFileSync(file, text);
      return file;
    });
    expect(await validateTbxFiles(files, TBX_SCHEMAS_DIR)).toEqual([]);
  }, 180_000);

  it('a value edited after the import is exported as edited, without the parts it had', async () => {
    const summary = await client.importNew(Buffer.from(FILE), `edited ${Date.now()}`);
    const list = await client.api<{ results: { conceptId: number }[] }>('/terms/search', {
      method: 'POST',
      body: JSON.stringify({ dictionaryIds: [summary.dictionaryId], langCode: 'eng', sectionOids: [] }),
    });
    const conceptId = list.results[0]!.conceptId;
    const concept = await client.api<{ version: number; fieldMap: Record<string, string[]> }>(
      `/concepts/${conceptId}`,
    );
    // The field holds the joined notes as one value (one value per single-valued field).
    const noteOid = Object.entries(concept.fieldMap).find(([, values]) =>
      values[0]?.includes('first note'),
    )![0];
    expect(concept.fieldMap[noteOid]).toEqual(['Shortcut <Ctrl+S>\r\n\r\nfirst note\r\n\r\nsecond note']);
    await client.api(`/concepts/${conceptId}/patch`, {
      method: 'PUT',
      body: JSON.stringify({ version: concept.version, fieldMap: { [noteOid]: ['one note'] } }),
    });
    const full = await client.export(summary.dictionaryId, 'TBX_V3_FULL');
    expect(texts(full, 'note')).toEqual(['one note']);
  }, 180_000);

  it('says truthfully what becomes of cross-references, and keeps a link without a scheme', async () => {
    const file = `<?xml version="1.0" encoding="UTF-8"?>
<martif type="TBX" xml:lang="en"><martifHeader><fileDesc><sourceDesc><p>xrefs</p></sourceDesc></fileDesc></martifHeader>
<text><body>
<termEntry id="a">
<ref type="crossReference" target="ta">own term</ref>
<xref type="externalCrossReference" target="www.example.com">Example site</xref>
<langSet xml:lang="en"><tig><term id="ta">alpha</term>
<ref type="crossReference" target="b">to b</ref>
<ref type="crossReference" target="a">to itself</ref>
</tig></langSet>
</termEntry>
<termEntry id="b">
<ref type="crossReference" target="a">back to a</ref>
<langSet xml:lang="en"><tig><term id="tb">beta</term>
<ref type="crossReference" target="a">again to a</ref>
</tig></langSet>
</termEntry>
</body></text></martif>
`;
    const summary = await client.importNew(Buffer.from(file), `xrefs ${Date.now()}`);
    const messages = summary.errors.map((error) => error.message);
    expect(messages).toEqual([
      'crossReference -> ta names its own concept (or one of its terms): not kept, as a relation joins two concepts',
      'crossReference "to itself" -> a of a term names its own concept (or one of its terms): not kept, as a relation joins two concepts',
      'crossReference "to b" -> b of a term is kept as a relation of its concept',
      'crossReference "again to a" -> a of a term is merged into the relation its concept already has with that concept',
    ]);
    const full = await client.export(summary.dictionaryId, 'TBX_V3_FULL');
    // One relation between a and b; the scheme-less link stays a link.
    expect(full.match(/<ref type="crossReference"/g)).toHaveLength(1);
    expect(full).toContain(
      '<xref type="externalCrossReference" target="www.example.com">Example site</xref>',
    );
  }, 180_000);

  it('keeps who created and changed an entry by the file, and writes them back on export', async () => {
    const file = `<?xml version="1.0" encoding="UTF-8"?>
<martif type="TBX" xml:lang="en"><martifHeader><fileDesc><sourceDesc><p>people</p></sourceDesc></fileDesc></martifHeader>
<text><body>
<termEntry id="p1">
<descrip type="definition">Translates programs.</descrip>
<transacGrp><transac type="transactionType">origination</transac><date>2019-02-03</date><transacNote type="responsibility">Ada Lovelace</transacNote></transacGrp>
<transacGrp><transac type="transactionType">modification</transac><date>2020-04-05</date><transacNote type="responsibility">Grace Hopper</transacNote></transacGrp>
<langSet xml:lang="en"><tig><term>compiler</term>
<transacGrp><transac type="transactionType">origination</transac><date>2019-02-04</date><transacNote type="responsibility">Alan Turing</transacNote></transacGrp>
</tig></langSet>
</termEntry>
</body></text></martif>
`;
    const summary = await client.importNew(Buffer.from(file), `people ${Date.now()}`);
    expect(summary.errors).toEqual([]);
    const people = (xml: string) =>
      [...xml.matchAll(/<transacNote type="responsibility">([^<]*)<\/transacNote>/g)].map((m) => m[1]);
    const full = await client.export(summary.dictionaryId, 'TBX_V2_FULL');
    // Concept: created by Ada, changed by Grace; term: created by Alan (its change, the import's time,
    // has no other person than the importing user).
    expect(people(full).slice(0, 2)).toEqual(['Ada Lovelace', 'Grace Hopper']);
    expect(people(full)[2]).toBe('Alan Turing');
    expect(full).toContain('<date>2019-02-03</date>');

    // Changed since: the modifier is the user who changed it; the creator stays.
    const list = await client.api<{ results: { conceptId: number }[] }>('/terms/search', {
      method: 'POST',
      body: JSON.stringify({ dictionaryIds: [summary.dictionaryId], langCode: 'eng', sectionOids: [] }),
    });
    const conceptId = list.results[0]!.conceptId;
    const concept = await client.api<{ version: number; fieldMap: Record<string, string[]> }>(
      `/concepts/${conceptId}`,
    );
    const [definitionOid] = Object.keys(concept.fieldMap);
    await client.api(`/concepts/${conceptId}/patch`, {
      method: 'PUT',
      body: JSON.stringify({ version: concept.version, fieldMap: { [definitionOid!]: ['edited'] } }),
    });
    const after = await client.export(summary.dictionaryId, 'TBX_V2_FULL');
    expect(people(after)[0]).toBe('Ada Lovelace');
    expect(people(after)[1]).not.toBe('Grace Hopper');
  }, 180_000);

  it('the migration moves links stored in the text by earlier imports into parts, and leaves text alone', async () => {
    const summary = await client.importNew(Buffer.from(FILE), `migrated ${Date.now()}`);
    const [field] = await rows<{ oid: string }>(
      server.t,
      `select oid from fields where dictionary_id = ? and name = 'externalCrossReference'`,
      [summary.dictionaryId],
    );
    // As an earlier import stored it: the link inside the value's text, no parts.
    await rows(
      server.t,
      `update concepts set field_map = jsonb_set(field_map, array[?], ?::jsonb), field_parts = '{}'
        where dictionary_id = ?`,
      [field!.oid, JSON.stringify(['Example <https://example.com/a>']), summary.dictionaryId],
    );
    const [before] = await rows<{ field_map: Record<string, string[]>; field_parts: object }>(
      server.t,
      'select field_map, field_parts from concepts where dictionary_id = ?',
      [summary.dictionaryId],
    );
    expect(before!.field_map[field!.oid]).toEqual(['Example <https://example.com/a>']);
    expect(before!.field_parts).toEqual({});
    await moveStoredLinks((sql, params) => rows(server.t, sql, params));
    const [concept] = await rows<{
      field_map: Record<string, string[]>;
      field_parts: Record<string, unknown>;
    }>(server.t, 'select field_map, field_parts from concepts where dictionary_id = ?', [
      summary.dictionaryId,
    ]);
    expect(concept!.field_map[field!.oid]).toEqual(['Example']);
    expect(concept!.field_parts).toEqual({
      [field!.oid]: [{ stored: 'Example', parts: [{ value: 'Example', target: 'https://example.com/a' }] }],
    });
    expect(Object.values(concept!.field_map)).toContainEqual(['Press <Enter>']);
    const full = await client.export(summary.dictionaryId, 'TBX_V3_FULL');
    expect(full).toContain(
      '<xref type="externalCrossReference" target="https://example.com/a">Example</xref>',
    );
    expect(texts(full, 'descrip', 'definition')).toEqual(['Press &lt;Enter&gt;']);
  }, 180_000);
});
