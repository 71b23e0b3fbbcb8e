/**
 * The MultiTerm XML reader and writer alone (docs/exchange.md): structure, localised field names, links,
 * encodings, refusals, and a write -> read round trip.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isMultiTermXml, readMtf } from '../../src/modules/multiterm/mtf-reader.js';
import { writeMtf } from '../../src/modules/multiterm/mtf-writer.js';
import type { TbxEntry } from '../../src/modules/tbx/tbx-model.js';
import { TbxFormatError } from '../../src/modules/tbx/tbx-reader.js';

const SAMPLE = readFileSync(new URL('./fixtures/multiterm-sample.xml', import.meta.url), 'utf8');

async function readAll(source: Iterable<string | Uint8Array>): Promise<TbxEntry[]> {
  const entries: TbxEntry[] = [];
  for await (const entry of readMtf(source)) entries.push(entry);
  return entries;
}

const stripLines = (entries: unknown) =>
  JSON.parse(JSON.stringify(entries, (key, value) => (key === 'line' ? undefined : value)));

/** UTF-16 little-endian with a BOM, as MultiTerm writes its exports. */
function utf16le(text: string): Uint8Array {
  return new Uint8Array(
    Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text.replace('UTF-8', 'UTF-16'), 'utf16le')]),
  );
}

describe('MultiTerm XML reader', () => {
  it('reads entries, indexes, terms, localised field names, links and dates', async () => {
    const [first, second] = await readAll([SAMPLE]);
    expect(first!.id).toBe('1');
    expect(first!.transactions).toEqual([
      { kind: 'created', date: new Date('2019-03-02T10:12:00Z'), responsibility: 'Anna Jónsdóttir' },
      { kind: 'changed', date: new Date('2021-11-20T08:00:00Z'), responsibility: 'Jean Dupont' },
    ]);
    const values = first!.values.map(({ category, value, target }) => ({ category, value, target }));
    expect(values).toEqual([
      { category: 'processStatus', value: 'finalized', target: undefined },
      { category: 'definition', value: 'A device that stores and processes data <fast>.', target: undefined },
      // A nested descripGrp about the definition; German "Quelle" is MultiTerm's Source.
      { category: 'source', value: 'Glossary', target: 'https://example.org/glossary' },
      { category: 'subjectField', value: 'Information technology', target: undefined },
      // A field of the termbase's own keeps its name.
      { category: 'Project', value: 'Launch 2020', target: undefined },
    ]);
    expect(first!.languages.map((section) => section.lang)).toEqual(['EN-US', 'is']);
    const [computer, brain] = first!.languages[0]!.terms;
    expect(computer!.term).toBe('computer');
    expect(computer!.transactions).toHaveLength(1);
    expect(computer!.values.map((v) => [v.category, v.value])).toEqual([
      ['administrativeStatus', 'preferredTerm-admn-sts'],
      ['context', 'The computer was switched off.'],
    ]);
    expect(brain!.values.map((v) => [v.category, v.value])).toEqual([
      ['administrativeStatus', 'deprecatedTerm-admn-sts'],
    ]);
    const icelandic = first!.languages[1]!;
    expect(icelandic.values.map((v) => [v.category, v.value])).toEqual([['note', 'Nýyrði frá 1965.']]);
    expect(icelandic.terms[0]!.values.map((v) => [v.category, v.value])).toEqual([
      ['administrativeStatus', 'preferredTerm-admn-sts'],
      ['grammaticalGender', 'kvk'],
    ]);
    // Text around a Clink stays a note; the link becomes a cross-reference to entry 1.
    expect(second!.values.map(({ category, value, target }) => ({ category, value, target }))).toEqual([
      { category: 'note', value: 'See also computer', target: undefined },
      { category: 'crossReference', value: 'computer', target: '1' },
    ]);
    expect(second!.languages.map((section) => [section.lang, section.terms.map((t) => t.term)])).toEqual([
      ['en_us', ['laptop']],
      ['DE', ['Laptop', 'Klapprechner']],
    ]);
  });

  it('reads UTF-16 with a byte order mark as UTF-8, in chunks of any size', async () => {
    const bytes = utf16le(SAMPLE);
    const chunks: Uint8Array[] = [];
    for (let at = 0; at < bytes.length; at += 97) chunks.push(bytes.subarray(at, at + 97));
    expect(stripLines(await readAll(chunks))).toEqual(stripLines(await readAll([SAMPLE])));
    expect(isMultiTermXml(bytes.subarray(0, 1000))).toBe(true);
    expect(isMultiTermXml(new TextEncoder().encode(SAMPLE.slice(0, 400)))).toBe(true);
    expect(isMultiTermXml(new TextEncoder().encode('<?xml version="1.0"?>\n<martif type="TBX">'))).toBe(
      false,
    );
  });

  it('refuses a file that is no MultiTerm XML, with its line', async () => {
    await expect(readAll(['<?xml version="1.0"?>\n<martif/>'])).rejects.toThrow(/not <mtf>/);
    const broken = readAll(['<mtf>\n<conceptGrp>\n<concept>1</concept>\n</mtf>']);
    await expect(broken).rejects.toBeInstanceOf(TbxFormatError);
    await expect(broken).rejects.toMatchObject({ line: 4 });
    await expect(readAll(['<!DOCTYPE mtf [<!ENTITY x "y">]><mtf/>'])).rejects.toThrow(/internal subset/);
    await expect(
      readAll(['<mtf><conceptGrp><descrip type="Note">&x;</descrip></conceptGrp></mtf>']),
    ).rejects.toThrow(/malformed XML/);
  });
});

describe('MultiTerm XML writer', () => {
  it('writes what the reader reads back: terms, values, links, dates, status and ids', async () => {
    const original = await readAll([SAMPLE]);
    const report = new Map<string, number>();
    const withoutTerms: TbxEntry = { id: 'c9', values: [], transactions: [], languages: [], line: 1 };
    let xml = '';
    for await (const chunk of writeMtf([...original, withoutTerms], { report, chunkChars: 100 }))
      xml += chunk;
    expect(xml).toContain('<language type="English (United States)" lang="EN-US"/>');
    expect(xml).toContain('<descrip type="Status">preferred</descrip>');
    expect(xml).toContain('<system type="status">approved</system>');
    expect(xml).toContain('&lt;fast&gt;');
    expect(report.get('not written: concepts without terms (a MultiTerm entry needs one)')).toBe(1);
    const again = await readAll([xml]);
    expect(again).toHaveLength(2);
    for (const [index, entry] of again.entries()) {
      const before = original[index]!;
      // The entry's own id travels as originalId (MultiTerm numbers entries itself).
      expect(entry.values.find((v) => v.category === 'originalId')?.value).toBe(before.id);
      const rest = entry.values.filter((v) => v.category !== 'originalId');
      expect(rest.map(({ category, value, target }) => ({ category, value, target }))).toEqual(
        before.values.map(({ category, value, target }) => ({ category, value, target })),
      );
      expect(entry.transactions).toEqual(before.transactions);
      // Tags are written in MultiTerm's way: `en_us` as EN-US.
      expect(entry.languages.map((s) => s.lang)).toEqual(
        before.languages.map((s) => s.lang.toUpperCase().replace('_', '-')),
      );
      expect(stripLines(entry.languages.map((s) => s.terms))).toEqual(
        stripLines(before.languages.map((s) => s.terms)),
      );
    }
  });
});
