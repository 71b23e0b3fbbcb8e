/**
 * Nothing of another tool's file is lost without a word (docs/tbx.md, Round trip): for every sample
 * file, each value it holds — per level (concept, language, term, term component), with its category
 * and its link — is found in the full-dialect export (v3 and v2) at the same level, or is listed in
 * the import's errors. Prints the counts per file.
 */
import { createReadStream, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TbxEntry, TbxTerm, TbxValue } from '../../src/modules/tbx/tbx-model.js';
import { readTbx } from '../../src/modules/tbx/tbx-reader.js';
import { type Server, startServer } from '../concepts/concept-helpers.js';
import { newTenant } from '../helpers/structure.js';
import { type ImportSummary, SAMPLE_FILES, TbxClient } from './tbx-sample-files.js';

let server: Server;
let client: TbxClient;

beforeAll(async () => {
  server = await startServer();
  const tenant = await newTenant(server.t, server.sysadmin);
  client = new TbxClient(server, tenant.admin.token!);
}, 120_000);
afterAll(async () => {
  await server?.close();
});

async function readAll(source: AsyncIterable<Buffer | string> | Iterable<string>): Promise<TbxEntry[]> {
  const entries: TbxEntry[] = [];
  for await (const entry of readTbx(source)) entries.push(entry);
  return entries;
}

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();
const sameCategory = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
/** The parts an import may have joined one field's values into (MULTILINE: blank line; SINGLELINE: `; `). */
const partsOf = (text: string) => [text, ...text.split(/\r?\n\r?\n|; /)].map(squash);
const isCrossReference = (category: string) =>
  ['crossreference', 'crossref'].includes(category.toLowerCase().replace(/[^a-z]/g, ''));

interface Counts {
  values: number;
  found: number;
  reported: number;
  missing: string[];
}

/** Compares one file's entries with those of its export, entry by entry (merge=NONE keeps the order). */
class ValueCheck {
  readonly counts: Counts = { values: 0, found: 0, reported: 0, missing: [] };
  /** Original entry id (and term ids) -> index of the entry. */
  private readonly indexOfId = new Map<string, number>();

  constructor(
    private readonly original: TbxEntry[],
    private readonly exported: TbxEntry[],
    private readonly errors: ImportSummary['errors'],
  ) {
    original.forEach((entry, index) => {
      if (entry.id) this.indexOfId.set(entry.id, index);
      for (const section of entry.languages) {
        for (const term of section.terms)
          if (term.id && !this.indexOfId.has(term.id)) this.indexOfId.set(term.id, index);
      }
    });
  }

  run(): Counts {
    this.original.forEach((entry, index) => {
      this.entry(entry, index);
    });
    return this.counts;
  }

  private entry(entry: TbxEntry, index: number) {
    const out = this.exported[index];
    const lines = [entry.line];
    for (const value of entry.values) {
      this.check(value, lines, `entry ${entry.id ?? index}`, () =>
        out ? this.inEntry(value, out, index) : false,
      );
    }
    const used = new Set<TbxTerm>();
    for (const section of entry.languages) {
      const matched = section.terms.map((term) => {
        const found = out?.languages
          .flatMap((s) => s.terms.map((t) => ({ t, s })))
          .find(({ t }) => !used.has(t) && squash(t.term) === squash(term.term));
        if (found) used.add(found.t);
        return found;
      });
      for (const value of section.values) {
        // A language's value is the concept's language field: on the langSec of its terms, never on a term.
        this.check(value, lines, `language ${section.lang} of entry ${entry.id ?? index}`, () => {
          const sections = new Set(matched.flatMap((m) => (m ? [m.s] : [])));
          return [...sections].some((s) => s.values.some((v) => this.same(value, v)));
        });
      }
      section.terms.forEach((term, position) => {
        const termLines = [term.line, entry.line];
        const match = matched[position];
        this.counts.values++;
        if (match) this.counts.found++;
        else if (this.reportedAt(termLines, term.term)) this.counts.reported++;
        else this.counts.missing.push(`line ${term.line}: term "${term.term}"`);
        for (const value of term.values) {
          this.check(value, termLines, `term "${term.term}"`, () => {
            if (value.component !== undefined) return false;
            return !!match && match.t.values.some((v) => this.same(value, v));
          });
        }
      });
    }
  }

  private check(value: TbxValue, lines: number[], where: string, found: () => boolean) {
    this.counts.values++;
    if (found()) this.counts.found++;
    else if (this.reportedAt([value.line ?? 0, ...lines], value.value, value.category))
      this.counts.reported++;
    else
      this.counts.missing.push(
        `line ${value.line}: ${where}: ${value.category}=${JSON.stringify(value.value)}${value.target ? ` -> ${value.target}` : ''}`,
      );
  }

  /** An error at one of the lines that names the value or its category. */
  private reportedAt(lines: number[], text: string, category?: string): boolean {
    const needles = [squash(text).slice(0, 40), category]
      .filter((n): n is string => !!n)
      .map((n) => n.toLowerCase());
    return this.errors.some(
      (error) =>
        lines.includes(error.line) && needles.some((needle) => error.message.toLowerCase().includes(needle)),
    );
  }

  /** Concept-level values, subject fields (domains) and cross-references (relations) included. */
  private inEntry(value: TbxValue, out: TbxEntry, index: number): boolean {
    if (sameCategory(value.category, 'subjectField')) {
      return out.values.some(
        (v) => v.category === 'subjectField' && sameCategory(squash(v.value), squash(value.value)),
      );
    }
    if (isCrossReference(value.category) || (value.category === 'crossReference' && !value.target)) {
      const target = (value.target ?? value.value).trim().replace(/^#/, '');
      const other = this.indexOfId.get(target);
      if (other === undefined) return false;
      const otherOut = this.exported[other];
      const links = (from: TbxEntry | undefined, to: TbxEntry | undefined) =>
        !!from && !!to && from.values.some((v) => v.category === 'crossReference' && v.target === to.id);
      return links(out, otherOut) || links(otherOut, out) || other === index;
    }
    return out.values.some((v) => this.same(value, v));
  }

  private same(original: TbxValue, exported: TbxValue): boolean {
    const category = original.category.trim() || 'note';
    if (!sameCategory(category, exported.category.trim() || 'note')) return false;
    if (original.target !== undefined) {
      const label = squash(original.value);
      return (
        exported.target === original.target &&
        (label === '' || label === original.target || squash(exported.value) === label)
      );
    }
    return partsOf(exported.value).includes(squash(original.value));
  }
}

const HAND_WRITTEN = `<?xml version="1.0"?>
<martif type="TBX" xml:lang="en"><martifHeader><fileDesc><sourceDesc><p>TermWeb</p></sourceDesc></fileDesc></martifHeader>
<text><body>
<termEntry id="e1">
<xref type="externalCrossReference" target="https://a.example/">first</xref>
<xref type="externalCrossReference" target="https://b.example/">second</xref>
<ref type="cross-reference" target="e2">other</ref>
<descripGrp><descrip type="definition">d</descrip><transacGrp><transac type="transactionType">origination</transac><date>1999-01-01</date></transacGrp></descripGrp>
<transacGrp><transac type="transactionType">origination</transac><date>20010507T10:57:25Z</date></transacGrp>
<langSet xml:lang="en"><admin type="source">language source</admin>
<tig><term>one</term><admin type="source">term source</admin><descrip type="surface">S</descrip><admin type="origin">O</admin><termNote type="MSD">NN</termNote></tig>
<ntig><termGrp><term>two words</term><termCompList type="lemma"><termCompGrp><termComp>two</termComp><termNote type="partOfSpeech">numeral</termNote></termCompGrp></termCompList></termGrp></ntig>
</langSet></termEntry>
<termEntry id="e2"><langSet xml:lang="en"><tig><term>other</term></tig></langSet></termEntry>
</body></text></martif>`;

describe('the losses the issue names', () => {
  it('keeps language-level values at the language beside term values, several links, cross-reference spellings and compact dates; reports the rest with its line', async () => {
    const summary = await client.importNew(Buffer.from(HAND_WRITTEN), 'hand-written losses', 'NONE');
    expect(summary.errors).toEqual([
      { line: 8, message: expect.stringContaining('of a value (in a group) is not kept') },
      {
        line: 12,
        message: expect.stringContaining('partOfSpeech "numeral" of the term component "two" is not kept'),
      },
    ]);
    const xml = await client.export(summary.dictionaryId, 'TBX_V3_FULL');
    const [e1] = await readAll([xml]);
    expect(
      e1!.values.filter((v) => v.category === 'externalCrossReference').map((v) => [v.value, v.target]),
    ).toEqual([
      ['first', 'https://a.example/'],
      ['second', 'https://b.example/'],
    ]);
    expect(e1!.values.find((v) => v.category === 'crossReference')).toMatchObject({
      value: 'other',
      target: 'e2',
    });
    expect(e1!.transactions.find((t) => t.kind === 'created')?.date?.toISOString()).toBe(
      '2001-05-07T10:57:25.000Z',
    );
    // The language's source stays on the language section, the term's on the term.
    expect(e1!.languages[0]!.values.filter((v) => v.category === 'source').map((v) => v.value)).toEqual([
      'language source',
    ]);
    const one = e1!.languages[0]!.terms.find((t) => t.term === 'one')!;
    expect(one.values.filter((v) => v.category === 'source').map((v) => v.value)).toEqual(['term source']);
    // Categories TBX does not define come back in the element they were imported in.
    expect(
      one.values
        .filter((v) => ['surface', 'origin', 'MSD'].includes(v.category))
        .map((v) => [v.category, v.element]),
    ).toEqual([
      ['MSD', 'termNote'],
      ['surface', 'descrip'],
      ['origin', 'admin'],
    ]);
    const two = e1!.languages[0]!.terms.find((t) => t.term === 'two words')!;
    expect(two.values.some((v) => v.category === 'partOfSpeech')).toBe(false);
  }, 120_000);
});

describe('every value of every sample file is kept or reported', () => {
  for (const format of ['TBX_V3_FULL', 'TBX_V2_FULL'] as const) {
    it(`${format}: found at its level in the export, or listed in the import's errors`, async () => {
      const lines: string[] = [];
      const missing: string[] = [];
      for (const file of SAMPLE_FILES) {
        const name = path.basename(file);
        const original = await readAll(createReadStream(file));
        const summary = await client.importNew(readFileSync(file), `${name} ${format}`, 'NONE');
        // The summary lists the first 1000 errors: the samples stay below that.
        expect(summary.errorCount, name).toBeLessThanOrEqual(1000);
        const exported = await readAll([await client.export(summary.dictionaryId, format)]);
        expect(exported.length, name).toBe(original.length);
        const counts = new ValueCheck(original, exported, summary.errors).run();
        lines.push(
          `${name}: ${counts.values} values and terms, ${counts.found} in the export, ${counts.reported} in the import's errors, ${counts.missing.length} missing`,
        );
        missing.push(...counts.missing.slice(0, 10).map((line) => `${name} ${line}`));
      }
      console.log(`${format}\n${lines.join('\n')}`);
      expect(missing).toEqual([]);
    }, 600_000);
  }
});
