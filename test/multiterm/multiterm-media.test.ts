/**
 * MultiTerm multimedia fields (docs/exchange.md): a MultiTerm export (a zip of the XML, its .xdt and the
 * image files, UTF-16 as MultiTerm writes) imports into a dictionary whose multimedia fields are ATTACHMENT
 * fields holding the files; its MultiTerm export with files is a package whose .xdt declares the field
 * Multimedia and whose files are the same bytes; that package imports back to the same files again.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMtfDefinition } from '../../src/modules/multiterm/mtf-definition.js';
import type { Server } from '../concepts/concept-helpers.js';
import { rows } from '../helpers/structure.js';
import { type ImportSummary, startTbxSuite, type TbxClient } from '../tbx/tbx-sample-files.js';
import { unzip, zipOf } from './zip-files.js';

let server: Server;
let token: string;
let client: TbxClient;

beforeAll(async () => {
  ({ server, token, client } = await startTbxSuite());
}, 120_000);
afterAll(async () => {
  await server?.close();
});

const utf16 = (text: string) =>
  Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text.replaceAll('\n', '\r\n'), 'utf16le')]);
const png = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

const DEFINITION = `<?xml version="1.0" encoding="UTF-16"?>
<TermbaseDefinition>
  <Name>Werkzeuge</Name>
  <Languages><ItemsList>
    <Item><Name>German</Name><Locale>DE</Locale></Item>
    <Item><Name>English</Name><Locale>EN-GB</Locale></Item>
  </ItemsList></Languages>
  <Fields><ItemsList>
    <Item><Name>Definition</Name><Type>Text</Type></Item>
    <Item><Name>Abbildung</Name><Type>Multimedia</Type></Item>
    <Item><Name>Aussprache</Name><Type>Multimedia</Type></Item>
  </ItemsList></Fields>
  <EntryStructure><ConceptGrp>
    <Fields><Field><Name>Abbildung</Name></Field><Field><Name>Definition</Name></Field></Fields>
    <LanguageGrp><TermGrp>
      <Fields><Field><Name>Aussprache</Name></Field></Fields>
    </TermGrp></LanguageGrp>
  </ConceptGrp></EntryStructure>
</TermbaseDefinition>
`;

/**
 * Three ways a multimedia value names its file: an absolute path of the exporting machine (found by
 * the file's name), a path relative to the XML, and MTF's Glink; and one naming a file not in the zip.
 */
const XML = `<?xml version="1.0" encoding="UTF-16"?>
<mtf>
  <conceptGrp>
    <concept>1</concept>
    <descripGrp><descrip type="Abbildung"><xref Ulink="C:\\Users\\anna\\Export\\media_Werkzeuge\\zahnrad.png" type="Multimedia">zahnrad.png</xref></descrip></descripGrp>
    <descripGrp><descrip type="Definition">Ein Rad mit Zähnen</descrip></descripGrp>
    <languageGrp><language type="German" lang="DE"/>
      <termGrp><term>Zahnrad</term>
        <descripGrp><descrip type="Aussprache"><xref Ulink="media_Werkzeuge/zahnrad%20de.png" type="Multimedia">zahnrad de.png</xref></descrip></descripGrp>
      </termGrp>
    </languageGrp>
    <languageGrp><language type="English" lang="EN-GB"/><termGrp><term>gear</term></termGrp></languageGrp>
  </conceptGrp>
  <conceptGrp>
    <concept>2</concept>
    <descripGrp><descrip type="Abbildung" Glink="media_Werkzeuge/schraube.png">schraube.png</descrip></descripGrp>
    <languageGrp><language type="German" lang="DE"/><termGrp><term>Schraube</term></termGrp></languageGrp>
  </conceptGrp>
  <conceptGrp>
    <concept>3</concept>
    <descripGrp><descrip type="Abbildung"><xref Ulink="media_Werkzeuge/fehlt.png" type="Multimedia">fehlt.png</xref></descrip></descripGrp>
    <languageGrp><language type="German" lang="DE"/><termGrp><term>Mutter</term></termGrp></languageGrp>
  </conceptGrp>
</mtf>
`;

async function importZip(name: string, zip: Buffer): Promise<ImportSummary> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(zip)]), 'Werkzeuge.zip');
  const response = await fetch(
    `${server.base}/api/v4/dictionaries/import-tbx?name=${encodeURIComponent(name)}`,
    {
      method: 'POST',
      headers: { 'x-auth-token': token },
      body: form,
    },
  );
  const body = (await response.json()) as { result?: ImportSummary; jobTaskId?: number };
  expect(response.status, JSON.stringify(body)).toBeLessThan(300);
  if (response.status === 200) return body.result!;
  for (;;) {
    const job = await client.api<{ status: string; result: ImportSummary; message: string }>(
      `/jobs/${body.jobTaskId}`,
    );
    if (job.status === 'DONE') return job.result;
    if (job.status !== 'RUNNING') throw new Error(job.message);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface AttachmentBody {
  fileName: string;
  url: string;
  termId: number | null;
}

/** Each concept's files (by its first German term): field name, file name and bytes. */
async function filesOf(dictionaryId: number) {
  const dictionary = await client.api<{
    conceptFields: { oid: string; name: string; fieldType: string }[];
    termFields: { oid: string; name: string; fieldType: string }[];
  }>(`/dictionaries/${dictionaryId}`);
  const concepts = await rows<{ id: number; term: string; field_map: Record<string, string[]> }>(
    server.t,
    `select c.id, c.field_map, (select t.name from terms t where t.concept_id = c.id and t.language_code = 'deu' and not t.deleted order by t.id limit 1) as term
       from concepts c where c.dictionary_id = ? and not c.deleted order by c.id`,
    [dictionaryId],
  );
  const found: Record<string, { file: string; bytes: Buffer; term: boolean }[]> = {};
  for (const concept of concepts) {
    const list = await client.api<AttachmentBody[]>(`/concepts/${concept.id}/attachments`);
    found[concept.term] = [];
    for (const attachment of list) {
      const response = await fetch(`${server.base}${attachment.url}`, { headers: { 'x-auth-token': token } });
      expect(response.status).toBe(200);
      found[concept.term]!.push({
        file: attachment.fileName,
        bytes: Buffer.from(await response.arrayBuffer()),
        term: attachment.termId !== null,
      });
    }
  }
  return { dictionary, files: found };
}

describe('MultiTerm multimedia fields', () => {
  it('imports a MultiTerm export with images, and exports them back with the same bytes', {
    timeout: 180_000,
  }, async () => {
    const images = {
      gear: await png(30, 20, '#2a7'),
      gearSound: await png(10, 10, '#a72'),
      screw: await png(20, 30, '#27a'),
    };
    const original = await zipOf({
      'Werkzeuge.xml': utf16(XML),
      'Werkzeuge.xdt': utf16(DEFINITION),
      'media_Werkzeuge/zahnrad.png': images.gear,
      'media_Werkzeuge/zahnrad de.png': images.gearSound,
      'media_Werkzeuge/schraube.png': images.screw,
      // A file no value names is not stored.
      'media_Werkzeuge/liesmich.txt': 'Bilder der Werkzeuge',
    });
    const summary = await importZip(`Werkzeuge ${Date.now()}`, original);
    expect(summary.concepts).toBe(3);
    // The value naming a file the zip lacks is reported and left out, with its line.
    expect(summary.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/^Abbildung: the file media_Werkzeuge\/fehlt\.png is not in the package/),
    ]);

    const stored = await rows<{ n: number }>(
      server.t,
      'select count(*)::int as n from attachments where dictionary_id = ?',
      [summary.dictionaryId],
    );
    expect(stored[0]!.n).toBe(3);
    const imported = await filesOf(summary.dictionaryId);
    expect(imported.dictionary.conceptFields.find((f) => f.name === 'Abbildung')?.fieldType).toBe(
      'ATTACHMENT',
    );
    expect(imported.dictionary.termFields.find((f) => f.name === 'Aussprache')?.fieldType).toBe('ATTACHMENT');
    const view = (files: typeof imported.files) =>
      Object.fromEntries(
        Object.entries(files).map(([term, list]) => [
          term,
          list.map((f) => `${f.file}|${f.term ? 'term' : 'concept'}|${f.bytes.toString('base64')}`).sort(),
        ]),
      );
    const b64 = (bytes: Buffer) => bytes.toString('base64');
    expect(view(imported.files)).toEqual({
      Zahnrad: [
        `zahnrad de.png|term|${b64(images.gearSound)}`,
        `zahnrad.png|concept|${b64(images.gear)}`,
      ].sort(),
      Schraube: [`schraube.png|concept|${b64(images.screw)}`],
      Mutter: [],
    });

    // Exported as a MultiTerm package: the XML links each file, the .xdt says Multimedia, the files are in.
    const response = await fetch(
      `${server.base}/api/v4/dictionaries/export-tbx/${summary.dictionaryId}?format=MULTITERM_XML&with-files=true`,
      { headers: { 'x-auth-token': token } },
    );
    expect(response.status).toBe(200);
    const exported = Buffer.from(await response.arrayBuffer());
    const files = await unzip(exported);
    const names = [...files.keys()];
    const xml = files.get(names.find((n) => n.endsWith('.xml'))!)!.toString('utf8');
    const media = names.filter((n) => !/\.(xml|xdt)$/.test(n));
    expect(media.map((n) => n.split('/').at(-1)).sort()).toEqual([
      'schraube.png',
      'zahnrad de.png',
      'zahnrad.png',
    ]);
    for (const [name, bytes] of [
      ['zahnrad.png', images.gear],
      ['zahnrad de.png', images.gearSound],
      ['schraube.png', images.screw],
    ] as const) {
      const path = media.find((n) => n.endsWith(`/${name}`))!;
      expect(files.get(path)!.equals(bytes), name).toBe(true);
      expect(xml).toContain(`<xref Ulink="${path}" type="Multimedia">${name}</xref>`);
    }
    expect(xml).toMatch(/<descrip type="Abbildung"><xref /);
    expect(xml).toMatch(/<termGrp>\s*<term>Zahnrad<\/term>[\s\S]*?<descrip type="Aussprache"><xref /);
    const dir = mkdtempSync(join(tmpdir(), 'xdt-media-'));
    writeFileSync(join(dir, 'out.xdt'), files.get(names.find((n) => n.endsWith('.xdt'))!)!);
    const definition = await readMtfDefinition(join(dir, 'out.xdt'));
    rmSync(dir, { recursive: true, force: true });
    const byName = new Map(definition.fields.map((f) => [f.name, f]));
    expect(byName.get('Abbildung')).toMatchObject({ type: 'MULTIMEDIA', levels: ['CONCEPT'] });
    expect(byName.get('Aussprache')).toMatchObject({ type: 'MULTIMEDIA', levels: ['TERM'] });

    // And that package imports back to the same files.
    const again = await importZip(`Werkzeuge again ${Date.now()}`, exported);
    expect(again.errors).toEqual([]);
    expect(view((await filesOf(again.dictionaryId)).files)).toEqual(view(imported.files));
  });

  it('leaves a multimedia value out with a report when the XML comes without its files', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(utf16(XML))]), 'Werkzeuge.xml');
    form.append('definition', new Blob([new Uint8Array(utf16(DEFINITION))]), 'Werkzeuge.xdt');
    const response = await fetch(`${server.base}/api/v4/dictionaries/import-tbx?name=Werkzeuge%20bare`, {
      method: 'POST',
      headers: { 'x-auth-token': token },
      body: form,
    });
    const body = (await response.json()) as { result: ImportSummary };
    expect(response.status).toBe(200);
    expect(body.result.concepts).toBe(3);
    expect(body.result.errors).toHaveLength(4);
    expect(body.result.errors.every((e) => /is not in the package/.test(e.message) && e.line > 0)).toBe(true);
  });
});
