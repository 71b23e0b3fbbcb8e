// Over 500 lines by design: one area's cases share one test server per file (that keeps CI short); its describe blocks are the chapters.
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { XMLValidator } from 'fast-xml-parser';
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import type { TbxEntry, TbxHeader, TbxTerm, TbxValue } from '../../src/modules/tbx/tbx-model.js';
import { readTbx } from '../../src/modules/tbx/tbx-reader.js';
import { type TbxWriteHeader, type TbxWriteOptions, writeTbx } from '../../src/modules/tbx/tbx-writer.js';
import { ICELANDIC_TERM_BANK_DIR } from '../helpers/datasets.js';

/** A parsed element: enough DOM to check structure and exact text. */
interface Node {
  name: string;
  attributes: Record<string, string>;
  children: Node[];
  text: string;
}

/** Parses with saxes (a conformant XML 1.0 parser: it refuses control characters, bad escapes...). */
function parse(xml: string): { root: Node; doctype: string | null } {
  const parser = new SaxesParser();
  const stack: Node[] = [];
  let root: Node | null = null;
  let doctype: string | null = null;
  parser.on('error', (error) => {
    throw error;
  });
  parser.on('doctype', (text) => {
    doctype = text;
  });
  parser.on('opentag', (tag) => {
    const node: Node = { name: tag.name, attributes: { ...tag.attributes }, children: [], text: '' };
    stack.at(-1)?.children.push(node);
    stack.push(node);
    root ??= node;
  });
  parser.on('text', (text) => {
    const top = stack.at(-1);
    if (top) top.text += text;
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  parser.write(xml).close();
  return { root: root!, doctype };
}

function wellFormed(xml: string): { root: Node; doctype: string | null } {
  expect(XMLValidator.validate(xml)).toBe(true);
  return parse(xml);
}

const child = (node: Node, name: string): Node => {
  const found = node.children.find((c) => c.name === name);
  if (!found)
    throw new Error(`<${node.name}> has no <${name}>: ${node.children.map((c) => c.name).join(', ')}`);
  return found;
};
const path = (node: Node, ...names: string[]): Node => names.reduce(child, node);
const named = (node: Node, name: string): Node[] => node.children.filter((c) => c.name === name);

async function write(
  header: Partial<TbxWriteHeader>,
  entries: Iterable<TbxEntry> | AsyncIterable<TbxEntry>,
  options?: TbxWriteOptions,
): Promise<{ xml: string; chunks: string[] }> {
  const chunks: string[] = [];
  const full: TbxWriteHeader = { dialect: 'TBX_V3_DCA', sourceLang: 'en', title: null, ...header };
  for await (const chunk of writeTbx(full, entries, options)) chunks.push(chunk);
  return { xml: chunks.join(''), chunks };
}

const value = (category: string, element: string, text: string, target?: string): TbxValue =>
  target === undefined ? { category, element, value: text } : { category, element, value: text, target };

function term(text: string, values: TbxValue[] = [], id: string | null = null): TbxTerm {
  return { id, term: text, values, transactions: [], line: 0 };
}

function astronomy(): TbxEntry {
  return {
    id: 'c1',
    line: 0,
    values: [value('subjectField', 'descrip', 'Astronomy'), value('note', 'note', 'G-Source: somewhere')],
    transactions: [
      { kind: 'created', date: new Date('2010-04-17T00:00:00Z'), responsibility: 'Tommy' },
      { kind: 'changed', date: new Date('2010-05-01T08:30:00.250Z'), responsibility: null },
    ],
    languages: [
      {
        lang: 'en',
        values: [value('definition', 'descrip', 'A group of stars.'), value('source', 'admin', 'Oxford2007')],
        terms: [
          {
            id: 't1',
            term: 'open cluster',
            line: 0,
            values: [
              value('partOfSpeech', 'termNote', 'noun'),
              value('administrativeStatus', 'termNote', 'preferredTerm-admn-sts'),
              value('context', 'descrip', 'Over 1100 open clusters are known.'),
              value('crossReference', 'ref', 'galactic cluster', 'c2'),
            ],
            transactions: [
              { kind: 'created', date: new Date('2011-01-01T00:00:00Z'), responsibility: 'Ann' },
            ],
          },
          term('galactic cluster', [value('termType', 'termNote', 'variant')]),
        ],
      },
      {
        lang: 'es',
        values: [],
        terms: [term('cúmulo abierto', [value('grammaticalGender', 'termNote', 'masculine')])],
      },
    ],
  };
}

describe('writeTbx: TBX-Basic v3 DCA (default)', () => {
  it('writes the tbx root, header and conceptEntry/langSec/termSec structure', async () => {
    const { xml } = await write({ title: 'Astronomy', sourceLang: 'en-US' }, [astronomy()]);
    const { root, doctype } = wellFormed(xml);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
    expect(doctype).toBeNull();
    expect(root.name).toBe('tbx');
    expect(root.attributes).toEqual({
      type: 'TBX-Basic',
      style: 'dca',
      'xml:lang': 'en-US',
      xmlns: 'urn:iso:std:iso:30042:ed-2',
    });
    expect(path(root, 'tbxHeader', 'fileDesc', 'titleStmt', 'title').text).toBe('Astronomy');
    expect(named(path(root, 'tbxHeader', 'fileDesc'), 'sourceDesc')).toHaveLength(1);

    const entry = path(root, 'text', 'body', 'conceptEntry');
    expect(entry.attributes).toEqual({ id: 'c1' });
    expect(entry.children.map((c) => c.name)).toEqual([
      'transacGrp',
      'transacGrp',
      'descrip',
      'note',
      'langSec',
      'langSec',
    ]);
    expect(child(entry, 'descrip').attributes).toEqual({ type: 'subjectField' });
    expect(child(entry, 'note').attributes).toEqual({});
    expect(child(entry, 'note').text).toBe('G-Source: somewhere');

    const [created, changed] = named(entry, 'transacGrp');
    expect(created!.children.map((c) => [c.name, c.attributes, c.text])).toEqual([
      ['transac', { type: 'transactionType' }, 'origination'],
      ['date', {}, '2010-04-17'],
      ['transacNote', { type: 'responsibility' }, 'Tommy'],
    ]);
    expect(changed!.children.map((c) => [c.name, c.attributes, c.text])).toEqual([
      ['transac', { type: 'transactionType' }, 'modification'],
      ['date', {}, '2010-05-01T08:30:00.250Z'],
    ]);

    const [en, es] = named(entry, 'langSec');
    expect(en!.attributes).toEqual({ 'xml:lang': 'en' });
    expect(es!.attributes).toEqual({ 'xml:lang': 'es' });
    expect(en!.children.map((c) => `${c.name}:${c.attributes.type ?? ''}`)).toEqual([
      'descrip:definition',
      'admin:source',
      'termSec:',
      'termSec:',
    ]);

    const [first, second] = named(en!, 'termSec');
    // TBX puts termNotes right after <term>, before descrip/admin/ref and transacGrp.
    expect(first!.children.map((c) => `${c.name}:${c.attributes.type ?? ''}`)).toEqual([
      'term:',
      'termNote:partOfSpeech',
      'termNote:administrativeStatus',
      'transacGrp:',
      'descrip:context',
      'ref:crossReference',
    ]);
    expect(child(first!, 'term').attributes).toEqual({ id: 't1' });
    expect(child(first!, 'term').text).toBe('open cluster');
    expect(child(first!, 'ref').attributes).toEqual({ type: 'crossReference', target: 'c2' });
    expect(child(second!, 'term').attributes).toEqual({});
    expect(path(es!, 'termSec', 'term').text).toBe('cúmulo abierto');
    expect(path(es!, 'termSec', 'termNote').text).toBe('masculine');
  });

  it('omits what is null: ids, title, dates, responsibility; the root language falls back to und', async () => {
    const entry: TbxEntry = {
      id: null,
      line: 0,
      values: [],
      transactions: [
        { kind: 'changed', date: null, responsibility: null },
        { kind: 'created', date: new Date(Number.NaN), responsibility: 'x' },
      ],
      languages: [{ lang: 'de', values: [], terms: [term('Haus')] }],
    };
    const { xml } = await write({ sourceLang: null, title: null }, [entry]);
    const { root } = wellFormed(xml);
    expect(root.attributes['xml:lang']).toBe('und');
    expect(named(path(root, 'tbxHeader', 'fileDesc'), 'titleStmt')).toHaveLength(0);
    const conceptEntry = path(root, 'text', 'body', 'conceptEntry');
    expect(conceptEntry.attributes).toEqual({});
    const [changed, created] = named(conceptEntry, 'transacGrp');
    expect(changed!.children.map((c) => c.name)).toEqual(['transac']);
    expect(created!.children.map((c) => c.name)).toEqual(['transac', 'transacNote']);
    expect(path(conceptEntry, 'langSec', 'termSec', 'term').attributes).toEqual({});
  });

  it('writes an empty body when there are no entries', async () => {
    const { xml } = await write({}, []);
    const { root } = wellFormed(xml);
    expect(path(root, 'text', 'body').children).toEqual([]);
  });

  it('writes dates as yyyy-MM-dd at midnight UTC, else as ISO date-time, or always as dates when asked', async () => {
    const entry: TbxEntry = {
      ...astronomy(),
      transactions: [
        { kind: 'created', date: new Date('1999-12-31T00:00:00Z'), responsibility: null },
        { kind: 'changed', date: new Date('2024-02-29T23:59:59.999Z'), responsibility: null },
      ],
    };
    const dates = async (options?: TbxWriteOptions) => {
      const { root } = wellFormed((await write({}, [entry], options)).xml);
      return named(path(root, 'text', 'body', 'conceptEntry'), 'transacGrp').map(
        (g) => child(g, 'date').text,
      );
    };
    expect(await dates()).toEqual(['1999-12-31', '2024-02-29T23:59:59.999Z']);
    expect(await dates({ dateOnly: true })).toEqual(['1999-12-31', '2024-02-29']);
  });
});

describe('writeTbx: TBX v2 (martif)', () => {
  it('writes the martif root, martifHeader and termEntry/langSet/tig structure', async () => {
    const { xml } = await write({ dialect: 'TBX_V2', title: 'Sjávardýr', sourceLang: 'is' }, [astronomy()]);
    const { root, doctype } = wellFormed(xml);
    expect(doctype).toContain('martif SYSTEM "TBXcoreStructV02.dtd"');
    expect(root.name).toBe('martif');
    expect(root.attributes).toEqual({ type: 'TBX-Basic', 'xml:lang': 'is' });
    expect(path(root, 'martifHeader', 'fileDesc', 'titleStmt', 'title').text).toBe('Sjávardýr');
    expect(path(root, 'martifHeader', 'encodingDesc', 'p').attributes).toEqual({ type: 'XCSURI' });
    expect(xml).not.toContain('conceptEntry');
    expect(xml).not.toContain('langSec');

    const entry = path(root, 'text', 'body', 'termEntry');
    expect(entry.attributes).toEqual({ id: 'c1' });
    const [en] = named(entry, 'langSet');
    expect(en!.attributes).toEqual({ 'xml:lang': 'en' });
    const tigs = named(en!, 'tig');
    expect(tigs).toHaveLength(2);
    expect(tigs[0]!.children.map((c) => `${c.name}:${c.attributes.type ?? ''}`)).toEqual([
      'term:',
      'termNote:partOfSpeech',
      'termNote:administrativeStatus',
      'transacGrp:',
      'descrip:context',
      'ref:crossReference',
    ]);
    expect(path(tigs[0]!, 'term').attributes).toEqual({ id: 't1' });
    expect(path(named(entry, 'langSet')[1]!, 'tig', 'term').text).toBe('cúmulo abierto');
    expect(path(entry, 'transacGrp', 'transac').text).toBe('origination');
  });
});

describe('writeTbx: elements by level and category', () => {
  /** Writes one value at each level and answers `element:type[:target]` as written there. */
  async function written(v: TbxValue): Promise<{ entry: string; lang: string; term: string }> {
    const entry: TbxEntry = {
      id: 'e',
      line: 0,
      values: [v],
      transactions: [],
      languages: [{ lang: 'en', values: [v], terms: [term('t', [v])] }],
    };
    const { root } = wellFormed((await write({ profile: 'full' }, [entry])).xml);
    const show = (n: Node) =>
      [n.name, n.attributes.type, n.attributes.target].filter((part) => part !== undefined).join(':');
    const conceptEntry = path(root, 'text', 'body', 'conceptEntry');
    const langSec = child(conceptEntry, 'langSec');
    const termSec = child(langSec, 'termSec');
    for (const node of [conceptEntry.children[0]!, langSec.children[0]!, termSec.children[1]!]) {
      expect(node.text).toBe(v.value);
    }
    return {
      entry: show(conceptEntry.children[0]!),
      lang: show(langSec.children[0]!),
      term: show(termSec.children[1]!),
    };
  }

  it('keeps the stated element when TBX-Basic allows it at that level', async () => {
    expect(await written(value('source', 'admin', 'ISO 704'))).toEqual({
      entry: 'admin:source',
      lang: 'admin:source',
      term: 'admin:source',
    });
    expect(
      await written(value('externalCrossReference', 'xref', 'site', 'https://example.org/a?b=1&c=2')),
    ).toEqual({
      entry: 'xref:externalCrossReference:https://example.org/a?b=1&c=2',
      lang: 'xref:externalCrossReference:https://example.org/a?b=1&c=2',
      term: 'xref:externalCrossReference:https://example.org/a?b=1&c=2',
    });
    // A category written as descrip by the source file stays a descrip (round trip), even a termNote one.
    expect(await written(value('usageNote', 'descrip', 'informal'))).toEqual({
      entry: 'descrip:usageNote',
      lang: 'descrip:usageNote',
      term: 'descrip:usageNote',
    });
    expect(await written(value('note', 'note', 'plain note'))).toEqual({
      entry: 'note',
      lang: 'note',
      term: 'note',
    });
  });

  it('chooses by category when the stated element does not fit the level', async () => {
    // termNote exists only at term level: higher up a termNote category becomes a descrip.
    expect(await written(value('partOfSpeech', 'termNote', 'noun'))).toEqual({
      entry: 'descrip:partOfSpeech',
      lang: 'descrip:partOfSpeech',
      term: 'termNote:partOfSpeech',
    });
    expect(await written(value('source', 'basic:source', 'ISO 704'))).toEqual({
      entry: 'admin:source',
      lang: 'admin:source',
      term: 'admin:source',
    });
    expect(await written(value('definition', 'transac', 'a thing'))).toEqual({
      entry: 'descrip:definition',
      lang: 'descrip:definition',
      term: 'descrip:definition',
    });
    expect(await written(value('crossReference', 'hi', 'other', 'c9'))).toEqual({
      entry: 'ref:crossReference:c9',
      lang: 'ref:crossReference:c9',
      term: 'ref:crossReference:c9',
    });
    // <note> has no type: a typed value stated as note would lose its category, so it is not kept as note.
    expect(await written(value('definition', 'note', 'a thing'))).toEqual({
      entry: 'descrip:definition',
      lang: 'descrip:definition',
      term: 'descrip:definition',
    });
  });

  it('puts unknown categories in descrip (entry, language) and termNote (term)', async () => {
    expect(await written(value('polytermStatus', 'bogus', 'draft'))).toEqual({
      entry: 'descrip:polytermStatus',
      lang: 'descrip:polytermStatus',
      term: 'termNote:polytermStatus',
    });
    expect(await written(value('myNote', 'note', 'kept with its category'))).toEqual({
      entry: 'descrip:myNote',
      lang: 'descrip:myNote',
      term: 'termNote:myNote',
    });
  });
});

describe('writeTbx: escaping', () => {
  const hostile = [
    '<script>alert("x")</script>',
    'Tom & Jerry &amp; &#60; &lt;',
    `"double" and 'single' quotes`,
    'CDATA end ]]> and <![CDATA[ start',
    '</term></termSec></langSec></conceptEntry><conceptEntry id="evil">',
    '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>&e;',
    'tab\there, lines\nand\r\nwindows\rcr',
    'ünïcödé 中文 😀 \u200B',
  ];

  for (const dialect of ['TBX_V3_DCA', 'TBX_V2'] as const) {
    it(`${dialect}: hostile text in every text and attribute reads back exactly`, async () => {
      for (const text of hostile) {
        const entry: TbxEntry = {
          id: text,
          line: 0,
          values: [value(text, 'descrip', text), value('crossReference', 'ref', text, text)],
          transactions: [{ kind: 'created', date: null, responsibility: text }],
          languages: [{ lang: text, values: [value('note', 'note', text)], terms: [term(text, [], text)] }],
        };
        const { xml } = await write({ dialect, profile: 'full', title: text, sourceLang: text }, [entry]);
        expect(xml).not.toContain('<script>');
        expect(xml).not.toContain(']]>');
        expect(xml).not.toContain('<!ENTITY');
        const { root } = wellFormed(xml);
        const entryName = dialect === 'TBX_V2' ? 'termEntry' : 'conceptEntry';
        const body = path(root, 'text', 'body');
        expect(body.children).toHaveLength(1);
        const written = child(body, entryName);
        expect(root.attributes['xml:lang']).toBe(text);
        expect(written.attributes.id).toBe(text);
        expect(child(written, 'descrip').attributes.type).toBe(text);
        expect(child(written, 'descrip').text).toBe(text);
        expect(child(written, 'ref').attributes.target).toBe(text);
        expect(path(written, 'transacGrp', 'transacNote').text).toBe(text);
        const lang = written.children.find((c) => c.name === (dialect === 'TBX_V2' ? 'langSet' : 'langSec'))!;
        expect(lang.attributes['xml:lang']).toBe(text);
        expect(child(lang, 'note').text).toBe(text);
        const termNode = path(lang, dialect === 'TBX_V2' ? 'tig' : 'termSec', 'term');
        expect(termNode.text).toBe(text);
        expect(termNode.attributes.id).toBe(text);
      }
    });
  }

  it('drops characters XML 1.0 does not allow and keeps the rest', async () => {
    const dirty = 'a\u0000b\u0001c\u0008d\u000Be\u000Cf\u001Fg\uFFFEh\uFFFFi\uD800j\uDFFFk\t\n😀';
    const entry: TbxEntry = {
      id: `id${dirty}`,
      line: 0,
      values: [value('definition', 'descrip', dirty)],
      transactions: [],
      languages: [{ lang: 'en', values: [], terms: [term(dirty)] }],
    };
    const { xml } = await write({ title: dirty }, [entry]);
    // saxes refuses any of these characters (even as &#1; references), so parsing proves they are gone.
    const { root } = wellFormed(xml);
    const conceptEntry = path(root, 'text', 'body', 'conceptEntry');
    expect(child(conceptEntry, 'descrip').text).toBe('abcdefghijk\t\n😀');
    expect(conceptEntry.attributes.id).toBe('idabcdefghijk\t\n😀');
    expect(path(conceptEntry, 'langSec', 'termSec', 'term').text).toBe('abcdefghijk\t\n😀');
    expect(path(root, 'tbxHeader', 'fileDesc', 'titleStmt', 'title').text).toBe('abcdefghijk\t\n😀');
  });
});

/** Entries made on demand, so the source itself holds nothing. */
async function* generated(count: number, pulled?: { count: number }): AsyncGenerator<TbxEntry> {
  for (let i = 0; i < count; i++) {
    if (pulled) pulled.count = i + 1;
    yield {
      id: `c${i}`,
      line: 0,
      values: [value('subjectField', 'descrip', `domain ${i % 17}`)],
      transactions: [
        { kind: 'created', date: new Date(Date.UTC(2020, 0, 1 + (i % 300))), responsibility: 'bench' },
      ],
      languages: [
        {
          lang: 'en',
          values: [value('definition', 'descrip', `Definition number ${i} with <markup> & entities.`)],
          terms: [
            term(`term ${i}`, [value('partOfSpeech', 'termNote', 'noun')], `t${i}-en`),
            term(`synonym ${i}`, [value('termType', 'termNote', 'variant')]),
          ],
        },
        {
          lang: 'de',
          values: [],
          terms: [term(`Begriff ${i}`, [value('grammaticalGender', 'termNote', 'masculine')])],
        },
      ],
    };
  }
}

describe('writeTbx: streaming', () => {
  it('yields many chunks, pulling entries as it goes rather than reading them all first', async () => {
    const pulled = { count: 0 };
    const chunks: string[] = [];
    const pulledAtChunk: number[] = [];
    for await (const chunk of writeTbx(
      { dialect: 'TBX_V3_DCA', sourceLang: 'en', title: 'big' },
      generated(5000, pulled),
    )) {
      chunks.push(chunk);
      pulledAtChunk.push(pulled.count);
    }
    // The prologue comes before any entry is asked for.
    expect(pulledAtChunk[0]).toBe(0);
    expect(chunks[0]).not.toContain('conceptEntry');
    expect(chunks.length).toBeGreaterThan(20);
    // The second chunk goes out after a batch, long before the last entry is read.
    expect(pulledAtChunk[1]).toBeLessThan(500);
    const longest = Math.max(...chunks.map((c) => c.length));
    expect(longest).toBeLessThan(80 * 1024);
    const { root } = wellFormed(chunks.join(''));
    expect(named(path(root, 'text', 'body'), 'conceptEntry')).toHaveLength(5000);
  });

  it('honours a smaller chunk size (one entry per chunk)', async () => {
    const { chunks } = await write({ dialect: 'TBX_V2' }, generated(50), { chunkChars: 1 });
    // prologue + one chunk per entry + the closing tags
    expect(chunks).toHaveLength(52);
    expect(chunks.slice(1, -1).every((c) => c.trimStart().startsWith('<termEntry id="c'))).toBe(true);
  });

  it('keeps memory bounded for 100,000 entries (heap growth far below the document size)', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    const baseline = process.memoryUsage().heapUsed;
    let peakGrowth = 0;
    // Sampled from the source side, while the writer is between entries, so pending text is counted.
    async function* sampled(): AsyncGenerator<TbxEntry> {
      let count = 0;
      for await (const entry of generated(100_000)) {
        if (++count % 5000 === 0) {
          gc();
          peakGrowth = Math.max(peakGrowth, process.memoryUsage().heapUsed - baseline);
        }
        yield entry;
      }
    }
    let chars = 0;
    let entries = 0;
    let chunkCount = 0;
    // Stream the output through saxes as it comes: the whole document is checked without being kept.
    const parser = new SaxesParser();
    parser.on('error', (error) => {
      throw error;
    });
    parser.on('closetag', (tag) => {
      if (tag.name === 'termEntry') entries++;
    });
    for await (const chunk of writeTbx({ dialect: 'TBX_V2', sourceLang: 'en', title: null }, sampled())) {
      chars += chunk.length;
      chunkCount++;
      parser.write(chunk);
    }
    parser.close();
    expect(entries).toBe(100_000);
    expect(chunkCount).toBeGreaterThan(500);
    expect(chars).toBeGreaterThan(60 * 1024 * 1024);
    // A writer that buffered the document would retain about `chars` by the last samples.
    expect(peakGrowth).toBeLessThan(16 * 1024 * 1024);
  }, 120_000);
});

/** Entries as the reader gives them back, without the line numbers (which depend on the layout). */
/** Values without the line the reader notes. */
const valuesOnly = (values: TbxValue[]): TbxValue[] => values.map(({ line: _line, ...rest }) => rest);

function withoutLines(entry: TbxEntry): Omit<TbxEntry, 'line'> {
  const { line: _line, ...rest } = entry;
  return {
    ...rest,
    values: valuesOnly(entry.values),
    languages: entry.languages.map((section) => ({
      ...section,
      values: valuesOnly(section.values),
      terms: section.terms.map(
        ({ line: _termLine, ...termRest }) =>
          ({ ...termRest, values: valuesOnly(termRest.values) }) as TbxTerm,
      ),
    })),
  };
}

async function roundTrip(
  dialect: TbxWriteHeader['dialect'],
  entries: TbxEntry[],
): Promise<{ entries: TbxEntry[]; header: TbxHeader | null }> {
  let header: TbxHeader | null = null;
  const read: TbxEntry[] = [];
  const source = writeTbx({ dialect, profile: 'full', sourceLang: 'is', title: 'Orðasafn <&> "x"' }, entries);
  for await (const entry of readTbx(source, { onHeader: (h) => (header = h) })) read.push(entry);
  return { entries: read, header };
}

describe('writeTbx -> readTbx round trip', () => {
  // The reader collapses whitespace runs (pretty-printed files break lines inside text), so the
  // values here have single spaces; everything else, markup characters included, must come back.
  const hostile = '<script>alert("x & y")</script> ]]> \'quoted\' &amp;';
  const entries = (): TbxEntry[] => [
    astronomy(),
    {
      id: `id-${hostile}`,
      line: 0,
      values: [
        value('subjectField', 'descrip', hostile),
        value('externalCrossReference', 'xref', 'link', 'https://example.org/?a=1&b="2"'),
        value('xGraphic', 'xref', 'picture.png', 'https://example.org/p.png'),
        value('customerSubset', 'admin', 'ACME'),
        value('polytermField', 'descrip', 'unknown category kept'),
        value('note', 'note', `note ${hostile}`),
      ],
      transactions: [
        { kind: 'created', date: new Date('2001-02-03T04:05:06.789Z'), responsibility: hostile },
        { kind: 'changed', date: null, responsibility: null },
      ],
      languages: [
        {
          lang: 'zh-Hant',
          values: [value('definition', 'descrip', `def ${hostile}`)],
          terms: [
            {
              id: `t-${hostile}`,
              term: `term ${hostile}`,
              line: 0,
              values: [
                value('termType', 'termNote', 'abbreviation'),
                value('polytermTermField', 'termNote', 'unknown at term level'),
                value('context', 'descrip', 'in context'),
                value('source', 'admin', 'somewhere'),
                value('crossReference', 'ref', 'see also', 'c1'),
              ],
              transactions: [
                { kind: 'changed', date: new Date('2020-06-30T00:00:00Z'), responsibility: 'me' },
              ],
            },
          ],
        },
        { lang: 'dk', values: [], terms: [term('hval'), term('blåhval', [], 'tid-dk1')] },
      ],
    },
  ];

  for (const dialect of ['TBX_V3_DCA', 'TBX_V2'] as const) {
    it(`${dialect}: gives back equal entries (ids, values, terms, transactions with dates) and the header`, async () => {
      const original = entries();
      const { entries: read, header } = await roundTrip(dialect, original);
      expect(header).toEqual({ dialect, sourceLang: 'is', title: 'Orðasafn <&> "x"' });
      expect(read.map(withoutLines)).toEqual(original.map(withoutLines));
      // Dates are Date objects equal to the millisecond.
      expect(read[1]!.transactions[0]!.date!.toISOString()).toBe('2001-02-03T04:05:06.789Z');
      expect(read[0]!.transactions[0]!.date!.toISOString()).toBe('2010-04-17T00:00:00.000Z');
    });
  }

  it('only reorders term-level values so that termNotes come first, as TBX requires', async () => {
    const entry: TbxEntry = {
      id: 'c',
      line: 0,
      values: [],
      transactions: [],
      languages: [
        {
          lang: 'en',
          values: [],
          terms: [term('t', [value('context', 'descrip', 'ctx'), value('partOfSpeech', 'termNote', 'noun')])],
        },
      ],
    };
    const { entries: read } = await roundTrip('TBX_V3_DCA', [entry]);
    expect(valuesOnly(read[0]!.languages[0]!.terms[0]!.values)).toEqual([
      value('partOfSpeech', 'termNote', 'noun'),
      value('context', 'descrip', 'ctx'),
    ]);
  });

  it('streams straight into the reader for 20,000 entries without loss', async () => {
    const expected = generated(20_000);
    let count = 0;
    const source = writeTbx({ dialect: 'TBX_V3_DCA', sourceLang: 'en', title: null }, generated(20_000));
    for await (const entry of readTbx(source)) {
      const next = await expected.next();
      expect(withoutLines(entry)).toEqual(withoutLines(next.value as TbxEntry));
      count++;
    }
    expect(count).toBe(20_000);
  }, 60_000);
});

describe('writeTbx: real files (Icelandic Term Bank) read, written and read again', () => {
  const folder = ICELANDIC_TERM_BANK_DIR;
  for (const file of ['fundarordno.tbx', 'hugbunadur.tbx', 'sjodyr.tbx', 'stjornsysla.tbx']) {
    it(`${file}: equal entries through both dialects`, async () => {
      let header: TbxHeader | null = null;
      const original: TbxEntry[] = [];
      const stream = createReadStream(join(folder, file)) as AsyncIterable<Buffer>;
      for await (const entry of readTbx(stream, { onHeader: (h) => (header = h) })) original.push(entry);
      expect(original.length).toBeGreaterThan(200);
      for (const dialect of ['TBX_V3_DCA', 'TBX_V2'] as const) {
        const again: TbxEntry[] = [];
        const source = writeTbx(
          { dialect, profile: 'full', sourceLang: header!.sourceLang, title: header!.title },
          original,
        );
        for await (const entry of readTbx(source)) again.push(entry);
        expect(again.map(withoutLines)).toEqual(original.map(withoutLines));
      }
    });
  }
});
