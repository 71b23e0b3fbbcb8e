/**
 * MultiTerm's termbase definition (.xdt) and the field-mapping step (docs/exchange.md): the definition's
 * languages and fields are created, the preview proposes where each MultiTerm field goes, the import
 * follows the (edited) mapping, a zip of both files imports the same, and MultiTerm XML -> dictionary ->
 * MultiTerm XML keeps every value. The fixtures are UTF-16 with CRLF, as MultiTerm writes its files.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMtfDefinition } from '../../src/modules/multiterm/mtf-definition.js';
import type { MtfPreview } from '../../src/modules/multiterm/mtf-preview.js';
import { readMtf } from '../../src/modules/multiterm/mtf-reader.js';
import type { TbxEntry } from '../../src/modules/tbx/tbx-model.js';
import type { Server } from '../concepts/concept-helpers.js';
import { type ImportSummary, startTbxSuite, type TbxClient } from '../tbx/tbx-sample-files.js';
import { unzip, zipOf } from './zip-files.js';

const XML_URL = new URL('./fixtures/maschinenbau.xml', import.meta.url);
const XDT_URL = new URL('./fixtures/maschinenbau.xdt', import.meta.url);
const XML = readFileSync(XML_URL);
const XDT = readFileSync(XDT_URL);

let server: Server;
let token: string;
let client: TbxClient;

beforeAll(async () => {
  ({ server, token, client } = await startTbxSuite());
}, 120_000);
afterAll(async () => {
  await server?.close();
});

async function post(path: string, members: Record<string, Buffer | string>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(members)) {
    if (typeof value === 'string') form.append(name, value);
    else
      form.append(name, new Blob([new Uint8Array(value)]), name === 'file' ? 'termbase.xml' : 'termbase.xdt');
  }
  const response = await fetch(`${server.base}/api/v4${path}`, {
    method: 'POST',
    headers: { 'x-auth-token': token },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function importFile(name: string, members: Record<string, Buffer | string>): Promise<ImportSummary> {
  const { status, body } = await post(`/dictionaries/import-tbx?name=${encodeURIComponent(name)}`, members);
  expect(status, JSON.stringify(body)).toBeLessThan(300);
  if (status === 200) return body.result as ImportSummary;
  for (;;) {
    const job = await client.api<{ status: string; result: ImportSummary; message: string }>(
      `/jobs/${body.jobTaskId}`,
    );
    if (job.status === 'DONE') return job.result;
    if (job.status !== 'RUNNING') throw new Error(job.message);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface DictionaryShape {
  languages: { code: string }[];
  conceptFields: { name: string; fieldType: string; dataCategory: string }[];
  termFields: {
    name: string;
    fieldType: string;
    dataCategory: string;
    picklistItems?: { tbxName: string }[];
  }[];
}

async function entriesOf(text: string | Buffer): Promise<TbxEntry[]> {
  const entries: TbxEntry[] = [];
  for await (const entry of readMtf([text])) entries.push(entry);
  return entries;
}

/**
 * Every value and term of each entry, ids left out (the export numbers entries anew). Transactions are
 * compared apart: an entry or term the file gives no change (or no dates) gets them, as every Polyterm
 * concept and term has a creation and a change.
 */
function contentOf(entries: TbxEntry[]) {
  const values = (list: TbxEntry['values']) =>
    list
      .filter((v) => v.category !== 'originalId')
      .map((v) => `${v.category}=${v.value}${v.target ? ` -> ${v.target}` : ''}`)
      .sort();
  return entries.map((entry) => ({
    values: values(entry.values),
    languages: entry.languages
      .map((section) => ({
        lang: section.lang.toLowerCase(),
        values: values(section.values),
        terms: section.terms.map((term) => ({ term: term.term, values: values(term.values) })),
      }))
      .sort((a, b) => a.lang.localeCompare(b.lang)),
  }));
}

describe('MultiTerm termbase definition and field mapping', () => {
  it('reads the definition: indexes with locales, fields with types, picklists and levels', async () => {
    const definition = await readMtfDefinition(XDT_URL.pathname);
    expect(definition.name).toBe('Maschinenbau');
    expect(definition.languages.map((l) => l.locale)).toEqual(['EN-GB', 'DE', 'FR']);
    const byName = new Map(definition.fields.map((f) => [f.name, f]));
    expect(byName.get('Definition')).toMatchObject({ type: 'TEXT', levels: ['CONCEPT', 'LANGUAGE'] });
    expect(byName.get('Genus')).toMatchObject({
      type: 'PICKLIST',
      picklist: ['m', 'f', 'n'],
      levels: ['TERM'],
    });
    expect(byName.get('Geprüft am')).toMatchObject({ type: 'DATE', levels: ['TERM'] });
  });

  it('previews the fields with levels, samples and a proposed mapping', async () => {
    const { status, body } = await post('/dictionaries/import-multiterm/preview', {
      file: XML,
      definition: XDT,
    });
    expect(status).toBe(200);
    const preview = body as unknown as MtfPreview;
    expect(preview).toMatchObject({ definition: true, name: 'Maschinenbau', entries: 2 });
    expect(preview.languages).toEqual([
      { lang: 'EN-GB', name: 'English', terms: 3 },
      { lang: 'DE', name: 'German', terms: 3 },
      { lang: 'FR', name: 'French', terms: 0 },
    ]);
    const register = preview.fields.find((f) => f.name === 'Register')!;
    expect(register).toMatchObject({ type: 'PICKLIST', levels: ['TERM'], values: 2 });
    expect(register.samples).toEqual(['technical', 'regional']);
    expect(Object.fromEntries(preview.mapping.map((m) => [m.name, m.field]))).toEqual({
      Definition: 'definition',
      Fachgebiet: 'subjectField',
      Kunde: 'Kunde',
      Genus: 'grammaticalGender',
      Usage: 'administrativeStatus',
      Register: 'Register',
      Quelle: 'source',
      'Geprüft am': 'Geprüft am',
    });
  });

  it('imports by the definition and an edited mapping: languages and picklists made first, a field left out', async () => {
    const mapping = [
      { name: 'Kunde', field: null },
      { name: 'Register', field: 'Stil' },
    ];
    const summary = await importFile('Maschinenbau', {
      file: XML,
      definition: XDT,
      'field-mapping': JSON.stringify(mapping),
    });
    expect(summary.errors).toEqual([]);
    expect(summary).toMatchObject({ concepts: 2, terms: 6 });
    const dictionary = await client.api<DictionaryShape>(`/dictionaries/${summary.dictionaryId}`);
    // French has no term in the file: the definition made it.
    expect(dictionary.languages.map((l) => l.code).sort()).toEqual(['deu', 'eng', 'fra']);
    const stil = dictionary.termFields.find((f) => f.name === 'Stil')!;
    expect(stil.fieldType).toBe('PICKLIST');
    expect(dictionary.conceptFields.some((f) => f.name === 'Kunde')).toBe(false);
    expect(dictionary.termFields.some((f) => f.name === 'Register')).toBe(false);
    const exported = await entriesOf(await client.export(summary.dictionaryId, 'MULTITERM_XML'));
    const german = exported[0]!.languages.find((s) => s.lang.toLowerCase().startsWith('de'))!;
    expect(german.terms[1]!.values).toEqual(
      expect.arrayContaining([expect.objectContaining({ category: 'Stil', value: 'regional' })]),
    );
    expect(exported[0]!.values.some((v) => v.category === 'Kunde')).toBe(false);
  });

  it('imports a zip of the XML and its definition as the two files', async () => {
    const file = await zipOf({
      'Maschinenbau/Maschinenbau.xml': XML,
      'Maschinenbau/Maschinenbau.xdt': XDT,
    });
    const summary = await importFile('Maschinenbau (zip)', { file });
    expect(summary).toMatchObject({ concepts: 2, terms: 6, errors: [] });
    const dictionary = await client.api<DictionaryShape>(`/dictionaries/${summary.dictionaryId}`);
    expect(dictionary.languages).toHaveLength(3);
    expect(dictionary.termFields.find((f) => f.name === 'Register')?.fieldType).toBe('PICKLIST');
  });

  it('round-trips MultiTerm XML -> dictionary -> MultiTerm XML keeping every value, term and date', async () => {
    const summary = await importFile('Maschinenbau round trip', { file: XML, definition: XDT });
    expect(summary.errors).toEqual([]);
    const text = await client.export(summary.dictionaryId, 'MULTITERM_XML');
    const [original, exported] = [await entriesOf(XML), await entriesOf(text)];
    expect(contentOf(exported)).toEqual(contentOf(original));
    const termsOf = (entries: TbxEntry[]) => entries.flatMap((e) => e.languages.flatMap((s) => s.terms));
    const exportedTerms = new Map(termsOf(exported).map((term) => [term.term, term]));
    original.forEach((entry, index) => {
      expect(exported[index]!.transactions).toEqual(expect.arrayContaining(entry.transactions));
    });
    for (const term of termsOf(original)) {
      expect(exportedTerms.get(term.term)!.transactions, term.term).toEqual(
        expect.arrayContaining(term.transactions),
      );
    }
  });

  it('exports a package of the XML and its .xdt that imports back to the same fields, languages and values', async () => {
    const summary = await importFile('Maschinenbau package', { file: XML, definition: XDT });
    const response = await fetch(
      `${server.base}/api/v4/dictionaries/export-tbx/${summary.dictionaryId}?format=MULTITERM_XML&with-files=true`,
      { headers: { 'x-auth-token': token } },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toContain('Maschinenbau%20package.zip');
    const zip = Buffer.from(await response.arrayBuffer());
    const files = await unzip(zip);
    expect([...files.keys()]).toEqual(['Maschinenbau package.xml', 'Maschinenbau package.xdt']);
    // The written definition, read by the import's reader: indexes, types, picklists and levels.
    const dir = mkdtempSync(join(tmpdir(), 'xdt-'));
    writeFileSync(join(dir, 'out.xdt'), files.get('Maschinenbau package.xdt')!);
    const definition = await readMtfDefinition(join(dir, 'out.xdt'));
    rmSync(dir, { recursive: true, force: true });
    expect(definition.name).toBe('Maschinenbau package');
    expect(definition.languages.map((l) => l.locale).sort()).toEqual(['DE', 'EN-GB', 'FR']);
    const byName = new Map(definition.fields.map((f) => [f.name, f]));
    expect(byName.get('Register')).toMatchObject({ type: 'PICKLIST', levels: ['TERM'] });
    expect(byName.get('Register')!.picklist.sort()).toEqual(['colloquial', 'regional', 'technical']);
    expect(byName.get('Status')).toMatchObject({ type: 'PICKLIST', levels: ['TERM'] });
    expect(byName.get('Kunde')).toMatchObject({ type: 'TEXT', levels: ['CONCEPT'] });
    expect(byName.get('Definition')!.levels.sort()).toEqual(['CONCEPT', 'LANGUAGE']);

    // Imported as the zip it is: the same structure and every value again.
    const copy = await importFile('Maschinenbau package copy', { file: zip });
    expect(copy.errors).toEqual([]);
    const shapeOf = async (id: number) => {
      const d = await client.api<DictionaryShape>(`/dictionaries/${id}`);
      const fields = (list: DictionaryShape['termFields']) =>
        list
          .map(
            (f) =>
              `${f.name}|${f.fieldType}|${f.dataCategory}|${(f.picklistItems ?? []).map((i) => i.tbxName).sort()}`,
          )
          .sort();
      return {
        languages: d.languages.map((l) => l.code).sort(),
        conceptFields: fields(d.conceptFields),
        termFields: fields(d.termFields),
      };
    };
    expect(await shapeOf(copy.dictionaryId)).toEqual(await shapeOf(summary.dictionaryId));
    const [before, after] = [
      await entriesOf(await client.export(summary.dictionaryId, 'MULTITERM_XML')),
      await entriesOf(await client.export(copy.dictionaryId, 'MULTITERM_XML')),
    ];
    expect(contentOf(after)).toEqual(contentOf(before));
    expect(contentOf(before)).toEqual(contentOf(await entriesOf(XML)));
  });

  it('refuses a definition with a file that is not MultiTerm XML, and an unreadable definition', async () => {
    const tbx = Buffer.from(
      '<?xml version="1.0"?><tbx type="TBX-Basic" style="dca" xml:lang="en"><text><body/></text></tbx>',
    );
    const withTbx = await post('/dictionaries/import-tbx?name=Wrong', { file: tbx, definition: XDT });
    expect(withTbx.status).toBe(400);
    expect(withTbx.body.message).toMatch(/MultiTerm XML only/);
    const broken = await post('/dictionaries/import-multiterm/preview', {
      file: XML,
      definition: Buffer.from('<TermbaseDefinition><Languages>'),
    });
    expect(broken.status).toBe(400);
    expect(broken.body.message).toMatch(/^Not a valid termbase definition \(\.xdt\)/);
    const xlsx = await zipOf({ '[Content_Types].xml': '<Types/>', 'xl/workbook.xml': '<workbook/>' });
    const office = await post('/dictionaries/import-tbx?name=Office', { file: xlsx });
    expect(office.status).toBe(400);
    expect(office.body.message).toMatch(/as a spreadsheet/);
  });
});
