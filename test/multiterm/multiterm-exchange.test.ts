/**
 * MultiTerm XML through the server (docs/exchange.md): a MultiTerm file imported by the TBX import's
 * call, the MULTITERM_XML export, and round trips: dictionary -> MultiTerm XML -> new dictionary keeps
 * every term and value the full TBX export shows, for a MultiTerm file and for Icelandic Term Bank files.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMtf } from '../../src/modules/multiterm/mtf-reader.js';
import type { TbxEntry } from '../../src/modules/tbx/tbx-model.js';
import { readTbx } from '../../src/modules/tbx/tbx-reader.js';
import type { Server } from '../concepts/concept-helpers.js';
import { ICELANDIC_TERM_BANK_DIR } from '../helpers/datasets.js';
import { startTbxSuite, type TbxClient } from '../tbx/tbx-sample-files.js';

const SAMPLE = readFileSync(new URL('./fixtures/multiterm-sample.xml', import.meta.url));

let server: Server;
let token: string;
let client: TbxClient;

beforeAll(async () => {
  ({ server, token, client } = await startTbxSuite());
}, 120_000);
afterAll(async () => {
  await server?.close();
});

async function entriesOf(reader: AsyncGenerator<TbxEntry>): Promise<TbxEntry[]> {
  const entries: TbxEntry[] = [];
  for await (const entry of reader) entries.push(entry);
  return entries;
}

/**
 * What a full TBX export says of each concept, without dates and the order of values; a cross-reference
 * names its target by position (generated ids differ between dictionaries).
 */
function contentOf(entries: TbxEntry[]) {
  const position = new Map(entries.map((entry, index) => [entry.id, `#${index}`]));
  const target = (id: string) => position.get(id) ?? id;
  const values = (list: TbxEntry['values']) =>
    list
      .filter((v) => v.category !== 'originalId')
      .map((v) => `${v.category}=${v.value}${v.target === undefined ? '' : ` -> ${target(v.target)}`}`)
      .sort();
  return entries.map((entry) => ({
    values: values(entry.values),
    languages: entry.languages.map((section) => ({
      lang: section.lang,
      values: values(section.values),
      terms: section.terms.map((term) => ({ term: term.term, values: values(term.values) })),
    })),
  }));
}

async function fullExport(dictionaryId: number) {
  return entriesOf(readTbx([await client.export(dictionaryId, 'TBX_V3_FULL')]));
}

async function multiTermExport(dictionaryId: number) {
  const response = await fetch(
    `${server.base}/api/v4/dictionaries/export-tbx/${dictionaryId}?format=MULTITERM_XML`,
    { headers: { 'x-auth-token': token } },
  );
  expect(response.status).toBe(200);
  return { response, text: await response.text() };
}

describe('MultiTerm XML import and export', () => {
  it('imports a MultiTerm file through the TBX import call: terms, statuses, fields, links, dates', async () => {
    const summary = await client.importNew(SAMPLE, 'From MultiTerm');
    expect(summary.errors).toEqual([]);
    expect(summary.concepts).toBe(2);
    expect(summary.terms).toBe(6);
    const [first, second] = await fullExport(summary.dictionaryId);
    const english = first!.languages.find((s) => s.lang.startsWith('en'))!;
    expect(english.terms.map((t) => t.term)).toEqual(['computer', 'electronic brain']);
    expect(english.terms[0]!.values).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ category: 'administrativeStatus', value: 'preferredTerm-admn-sts' }),
      ]),
    );
    expect(first!.values).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          category: 'definition',
          value: 'A device that stores and processes data <fast>.',
        }),
        expect.objectContaining({ category: 'subjectField', value: 'Information technology' }),
        expect.objectContaining({ category: 'Project', value: 'Launch 2020' }),
      ]),
    );
    // The file's author and date are kept as the concept's provenance and written back.
    expect(first!.transactions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'created', responsibility: 'Anna Jónsdóttir' }),
      ]),
    );
    // Entry 2's Clink to entry 1 became a relation, exported as a cross-reference to the first concept.
    expect(second!.values.some((v) => v.category === 'crossReference' && v.target === first!.id)).toBe(true);
    const german = second!.languages.find((s) => s.lang === 'de')!;
    expect(german.terms.map((t) => t.term)).toEqual(['Laptop', 'Klapprechner']);
  });

  it('exports MultiTerm XML (application/xml, .xml, a name kept in filename*) that imports back to the same content', async () => {
    const summary = await client.importNew(SAMPLE, 'Tölvuorð');
    const { response, text } = await multiTermExport(summary.dictionaryId);
    expect(response.headers.get('content-type')).toMatch(/^application\/xml; charset=utf-8$/i);
    expect(response.headers.get('content-disposition')).toContain(
      `filename*=UTF-8''${encodeURIComponent('Tölvuorð.xml')}`,
    );
    expect(text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<mtf>/);
    const exported = await entriesOf(readMtf([text]));
    expect(exported.map((e) => e.languages.flatMap((s) => s.terms.map((t) => t.term)))).toEqual([
      ['computer', 'electronic brain', 'tölva'],
      ['laptop', 'Laptop', 'Klapprechner'],
    ]);
    const again = await client.importNew(Buffer.from(text, 'utf8'), 'Tölvuorð again');
    expect(again.errors).toEqual([]);
    expect(contentOf(await fullExport(again.dictionaryId))).toEqual(
      contentOf(await fullExport(summary.dictionaryId)),
    );
  });

  it('round-trips Icelandic Term Bank dictionaries through MultiTerm XML without losing a term or value', async () => {
    for (const file of ['fundarordno.tbx', 'hugbunadur.tbx']) {
      const original = await client.importNew(
        readFileSync(path.join(ICELANDIC_TERM_BANK_DIR, file)),
        `ITB ${file}`,
      );
      const { text } = await multiTermExport(original.dictionaryId);
      const copy = await client.importNew(Buffer.from(text, 'utf8'), `ITB ${file} via MultiTerm`);
      expect(copy.errors, file).toEqual([]);
      expect(copy.terms, file).toBe(original.terms);
      const before = contentOf(await fullExport(original.dictionaryId));
      expect(before.length).toBeGreaterThan(10);
      expect(contentOf(await fullExport(copy.dictionaryId)), file).toEqual(before);
    }
  }, 300_000);

  it('refuses a broken MultiTerm file with its line, naming the format, before any job', async () => {
    const form = new FormData();
    form.append('file', new Blob(['<?xml version="1.0"?>\n<mtf>\n<conceptGrp>\n</mtf>']), 'broken.xml');
    const response = await fetch(`${server.base}/api/v4/dictionaries/import-tbx?name=Broken`, {
      method: 'POST',
      headers: { 'x-auth-token': token },
      body: form,
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { code: string; message: string };
    expect(body.code).toBe('BAD_REQUEST');
    expect(body.message).toMatch(/^Not a valid MultiTerm XML file: line 4: malformed XML/);
  });
});
