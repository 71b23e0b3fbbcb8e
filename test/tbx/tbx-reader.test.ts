import { createReadStream, existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { tbxLanguage, usesNordicCodes } from '../../src/modules/tbx/tbx-languages.js';
import type { TbxEntry, TbxHeader } from '../../src/modules/tbx/tbx-model.js';
import { readTbx, type TbxChunk, TbxFormatError } from '../../src/modules/tbx/tbx-reader.js';
import { ICELANDIC_TERM_BANK_DIR } from '../helpers/datasets.js';

const FIXTURES = new URL('./fixtures/', import.meta.url);
/** The Icelandic Term Bank (CC BY-SA 3.0) is read in place, never copied into the repository. */
const DATASET_DIR = pathToFileURL(ICELANDIC_TERM_BANK_DIR);
const DATASET_FILES = ['fundarordno.tbx', 'hugbunadur.tbx', 'sjodyr.tbx', 'stjornsysla.tbx'];

function fixture(name: string) {
  return createReadStream(new URL(name, FIXTURES), { highWaterMark: 1024 });
}

async function readAll(source: AsyncIterable<TbxChunk> | Iterable<TbxChunk>) {
  const entries: TbxEntry[] = [];
  let header: TbxHeader | undefined;
  for await (const entry of readTbx(source, { onHeader: (h) => (header = h) })) entries.push(entry);
  return { header, entries: entries.map(withoutValueLines) };
}

/** The entry with its values' lines left out (the tests compare values; lines are checked apart). */
function withoutValueLines(entry: TbxEntry): TbxEntry {
  const strip = (values: TbxEntry['values']) => values.map(({ line: _line, ...rest }) => rest);
  return {
    ...entry,
    values: strip(entry.values),
    languages: entry.languages.map((section) => ({
      ...section,
      values: strip(section.values),
      terms: section.terms.map((term) => ({ ...term, values: strip(term.values) })),
    })),
  };
}

/** The error readTbx throws, and the entries it yielded before. */
async function readError(source: AsyncIterable<TbxChunk> | Iterable<TbxChunk>) {
  const entries: TbxEntry[] = [];
  try {
    for await (const entry of readTbx(source)) entries.push(entry);
  } catch (error) {
    expect(error).toBeInstanceOf(TbxFormatError);
    return { error: error as TbxFormatError, entries };
  }
  throw new Error('readTbx accepted a bad file');
}

function termsOf(entry: TbxEntry, lang: string) {
  return entry.languages.find((section) => section.lang === lang)?.terms ?? [];
}

describe('readTbx: TBX v2', () => {
  it('reads entries, language sections, tig and ntig/termGrp terms with values at all three levels', async () => {
    const { header, entries } = await readAll(fixture('v2-basic.tbx'));
    expect(header).toEqual({ dialect: 'TBX_V2', sourceLang: 'en-US', title: 'Polyterm v2 sample' });
    expect(entries.map((entry) => [entry.id, entry.line])).toEqual([
      ['c1', 20],
      ['c2', 72],
    ]);
    const [c1, c2] = entries as [TbxEntry, TbxEntry];
    // descripGrp children, inline <hi>, &amp;, &#169; and CDATA; pretty-printing whitespace collapsed.
    expect(c1.values).toEqual([
      { category: 'subjectField', element: 'descrip', value: 'Geology' },
      { category: 'definition', element: 'descrip', value: 'Rock formed from cooled magma & lava.' },
      { category: 'source', element: 'admin', value: 'Handbook © 2001' },
      {
        category: 'externalCrossReference',
        element: 'xref',
        value: 'Igneous rock',
        target: 'https://example.org/igneous',
      },
      { category: 'crossReference', element: 'ref', value: 'lava', target: 'c2' },
      { category: 'note', element: 'note', value: 'Use <b>only</b> in geology' },
    ]);
    expect(c1.transactions).toEqual([
      { kind: 'created', date: new Date('2020-03-04T00:00:00Z'), responsibility: 'Anna' },
      { kind: 'changed', date: new Date('2021-05-06T07:08:09Z'), responsibility: 'Björn' },
    ]);
    expect(c1.languages.map((section) => section.lang)).toEqual(['en-US', 'dk']);
    expect(c1.languages[0]!.values).toEqual([
      { category: 'definition', element: 'descrip', value: 'An igneous rock.' },
    ]);
    const [tig, ntig] = termsOf(c1, 'en-US');
    expect(tig).toEqual({
      id: 't1',
      term: 'igneous rock',
      line: 43,
      values: [
        { category: 'partOfSpeech', element: 'termNote', value: 'noun' },
        // written without the suffix in the file
        { category: 'administrativeStatus', element: 'termNote', value: 'preferredTerm-admn-sts' },
        { category: 'context', element: 'descrip', value: 'The island is made of igneous rock.' },
      ],
      transactions: [{ kind: 'created', date: new Date('2020-03-04T00:00:00Z'), responsibility: null }],
    });
    expect(ntig).toEqual({
      id: 't2',
      term: 'magmatic rock',
      line: 54,
      values: [
        { category: 'termType', element: 'termNote', value: 'synonym' },
        { category: 'administrativeStatus', element: 'termNote', value: 'admittedTerm-admn-sts' },
        { category: 'hyphenation', element: 'termComp', value: 'mag' },
        { category: 'hyphenation', element: 'termComp', value: 'matic' },
        { category: 'customerSubset', element: 'admin', value: 'Survey' },
        { category: 'note', element: 'note', value: 'Older usage' },
      ],
      transactions: [],
    });
    // the id on <term> when the tig has none
    expect(termsOf(c1, 'dk')).toMatchObject([{ id: 't3', term: 'magmatisk bjergart', line: 68 }]);
    expect(termsOf(c2, 'zh-Hant')).toMatchObject([{ id: null, term: '熔岩' }]);
    expect(termsOf(c2, 'de')[0]!.values).toEqual([
      { category: 'grammaticalGender', element: 'termNote', value: 'feminine' },
      { category: 'administrativeStatus', element: 'termNote', value: 'deprecatedTerm-admn-sts' },
    ]);
  });

  it('gives the same entries whatever the chunking: whole file, single bytes, CR LF line ends, UTF-16', async () => {
    const bytes = await readFile(new URL('v2-basic.tbx', FIXTURES));
    const expected = (await readAll([bytes])).entries;
    expect(expected).toHaveLength(2);
    // multi-byte characters (ö, 熔岩) split across chunks
    const singleBytes = (await readAll([...bytes].map((byte) => Uint8Array.of(byte)))).entries;
    expect(singleBytes).toEqual(expected);
    const crlf = (await readAll([bytes.toString('utf8').replaceAll('\n', '\r\n')])).entries;
    expect(crlf).toEqual(expected);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(bytes.toString('utf8'), 'utf16le')]);
    expect((await readAll([utf16.subarray(0, 101), utf16.subarray(101)])).entries).toEqual(expected);
  });

  it('keeps whitespace as written under xml:space="preserve" (inherited), collapses it elsewhere', async () => {
    const xml =
      '<martif xml:lang="en"><text><body><termEntry id="s1">' +
      '<note xml:space="preserve">line 1\n  line 2 </note><note>line 1\n  line 2 </note>' +
      '<langSet xml:lang="en" xml:space="preserve"><tig><term> two  spaces</term>' +
      '<note xml:space="default"> a\n b </note></tig></langSet></termEntry></body></text></martif>';
    const [entry] = (await readAll([xml])).entries;
    expect(entry!.values.map((value) => value.value)).toEqual(['line 1\n  line 2 ', 'line 1 line 2']);
    expect(termsOf(entry!, 'en')[0]).toMatchObject({ term: ' two  spaces', values: [{ value: 'a b' }] });
  });

  it('decodes the encoding the XML declaration names (ISO-8859-1)', async () => {
    const xml =
      '<?xml version="1.0" encoding="ISO-8859-1"?>\n<martif type="TBX" xml:lang="de"><text><body>' +
      '<termEntry id="l1"><langSet xml:lang="de"><tig><term>Größe</term></tig></langSet></termEntry>' +
      '</body></text></martif>';
    const { entries } = await readAll([Buffer.from(xml, 'latin1')]);
    expect(termsOf(entries[0]!, 'de')[0]!.term).toBe('Größe');
  });
});

describe('readTbx: TBX v3', () => {
  it('reads DCA: conceptEntry/langSec/termSec with descrip, termNote, admin, ref, xref, note and transactions', async () => {
    const { header, entries } = await readAll(fixture('v3-dca.tbx'));
    expect(header).toEqual({ dialect: 'TBX_V3_DCA', sourceLang: 'en', title: 'Polyterm v3 sample' });
    expect(entries.map((entry) => entry.id)).toEqual(['k1', 'k2']);
    const k1 = entries[0]!;
    expect(k1.values).toEqual([
      { category: 'subjectField', element: 'descrip', value: 'Astronomy' },
      { category: 'crossReference', element: 'ref', value: 'nebula', target: 'k2' },
      {
        category: 'externalCrossReference',
        element: 'xref',
        value: 'Cluster article',
        target: 'https://example.org/cluster',
      },
      { category: 'note', element: 'note', value: 'Concept note' },
    ]);
    expect(k1.transactions).toEqual([
      { kind: 'created', date: new Date('2019-01-02T08:00:00Z'), responsibility: 'Tommy' },
    ]);
    expect(k1.languages[0]!.values).toEqual([
      { category: 'definition', element: 'descrip', value: 'A group of stars formed together.' },
      { category: 'source', element: 'admin', value: 'Oxford2007' },
    ]);
    const [open, galactic] = termsOf(k1, 'en');
    expect(open).toEqual({
      id: 'k1-en-1',
      term: 'open cluster',
      line: 34,
      values: [
        { category: 'partOfSpeech', element: 'termNote', value: 'noun' },
        { category: 'administrativeStatus', element: 'termNote', value: 'preferredTerm-admn-sts' },
        { category: 'termType', element: 'termNote', value: 'fullForm' },
        { category: 'context', element: 'descrip', value: 'Over 1100 open clusters are known.' },
        { category: 'source', element: 'admin', value: 'seds.org' },
      ],
      transactions: [{ kind: 'changed', date: new Date('2020-06-07T00:00:00Z'), responsibility: 'Ann' }],
    });
    expect(galactic).toMatchObject({
      id: null,
      term: 'galactic cluster',
      values: [
        { category: 'administrativeStatus', value: 'supersededTerm-admn-sts' },
        { category: 'note', value: 'Older name' },
      ],
    });
    expect(termsOf(k1, 'es')[0]!.values.map((value) => [value.category, value.value])).toEqual([
      ['partOfSpeech', 'noun'],
      ['grammaticalGender', 'masculine'],
      ['customerSubset', 'Planetarium'],
    ]);
  });

  it('reads DCT (<min:partOfSpeech>, <basic:definition>...) into the same entries as the DCA twin file', async () => {
    const dct = await readAll(fixture('v3-dct.tbx'));
    const dca = await readAll(fixture('v3-dca.tbx'));
    expect(dct.header).toEqual({ dialect: 'TBX_V3_DCT', sourceLang: 'en', title: 'Polyterm v3 sample' });
    expect(dct.entries).toHaveLength(2);
    expect(dct.entries).toEqual(dca.entries);
  });
});

describe('readTbx: bad files', () => {
  it('malformed XML: the line and the parser reason', async () => {
    const { error, entries } = await readError(fixture('bad-malformed.tbx'));
    expect(error.line).toBe(8);
    expect(error.reason).toMatch(/^malformed XML: unexpected close tag/);
    expect(error.message).toBe(`line 8: ${error.reason}`);
    expect(entries).toEqual([]);
  });

  it('a wrong root element', async () => {
    const { error } = await readError(fixture('bad-root.tbx'));
    expect([error.line, error.reason]).toEqual([
      2,
      'the root element is <tmx>, not <martif> (TBX v2) or <tbx> (TBX v3)',
    ]);
  });

  it('an internal DTD subset declaring an external entity (XXE) is refused at the DOCTYPE, never resolved', async () => {
    const { error, entries } = await readError(fixture('bad-xxe.tbx'));
    expect(error.line).toBe(2);
    expect(error.reason).toMatch(/internal subset/);
    expect(error.message).not.toMatch(/root:/);
    expect(entries).toEqual([]);
  });

  it('an entity reference other than the five XML ones, even with an external DTD reference', async () => {
    const { error, entries } = await readError(fixture('bad-undefined-entity.tbx'));
    expect(error.line).toBe(9);
    expect(error.reason).toMatch(/^undefined entity/);
    expect(entries).toEqual([]);
  });

  it('a huge DOCTYPE subset is refused without buffering it', async () => {
    function* source() {
      yield '<?xml version="1.0"?>\n<!DOCTYPE martif [\n';
      for (let i = 0; i < 1000; i++) yield `<!ENTITY e${i} "${'x'.repeat(10_000)}">\n`;
      yield ']>\n<martif/>';
    }
    const { error } = await readError(source());
    expect(error.reason).toBe('no root element within the first 1 MB');
  });

  it('an empty file, a truncated file (entries before the cut are read), bytes that are not UTF-8', async () => {
    expect((await readError([''])).error.reason).toMatch(/root element/);

    const v2 = await readFile(new URL('v2-basic.tbx', FIXTURES), 'utf8');
    const cut = v2.indexOf('<termEntry id="c2">');
    const truncated = await readError([v2.slice(0, cut + 50)]);
    expect(truncated.entries.map((entry) => entry.id)).toEqual(['c1']);
    expect(truncated.error.reason).toMatch(/^malformed XML/);

    const latin1 = Buffer.from('<?xml version="1.0"?>\n<martif>\n<text>caf\u00e9</text></martif>', 'latin1');
    const invalid = await readError([latin1]);
    expect([invalid.error.line, invalid.error.reason]).toEqual([3, 'the file is not valid UTF-8']);
  });
});

describe('readTbx: streaming', () => {
  it('closes the source when the reader is abandoned early', async () => {
    let closed = false;
    async function* source() {
      try {
        yield '<martif xml:lang="en"><text><body>';
        for (let i = 0; ; i++) yield `<termEntry id="e${i}"/>`;
      } finally {
        closed = true;
      }
    }
    for await (const entry of readTbx(source())) {
      expect(entry.id).toBe('e0');
      break;
    }
    expect(closed).toBe(true);
  });

  it('reads 200,000 generated entries in bounded memory, handing them out while the source is still read', {
    timeout: 300_000,
  }, async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const total = 200_000;
    let generated = 0;
    async function* source(): AsyncGenerator<string> {
      yield '<?xml version="1.0" encoding="UTF-8"?>\n<martif type="TBX" xml:lang="en"><text><body>\n';
      let chunk = '';
      for (; generated < total; generated++) {
        chunk += syntheticEntry(generated);
        if (chunk.length > 32_000) {
          yield chunk;
          chunk = '';
        }
      }
      yield `${chunk}</body></text></martif>\n`;
    }

    gc();
    const baseline = process.memoryUsage().heapUsed;
    let peak = 0;
    let entries = 0;
    let terms = 0;
    let generatedAtFirstEntry = -1;
    for await (const entry of readTbx(source())) {
      if (entries === 0) generatedAtFirstEntry = generated;
      expect(entry.id).toBe(`e${entries}`);
      entries++;
      for (const section of entry.languages) terms += section.terms.length;
      if (entries % 20_000 === 0) {
        gc();
        peak = Math.max(peak, process.memoryUsage().heapUsed - baseline);
      }
    }
    expect(entries).toBe(total);
    expect(terms).toBe(total * 3);
    expect(generatedAtFirstEntry).toBeGreaterThan(0);
    expect(generatedAtFirstEntry).toBeLessThan(1000);
    expect(peak).toBeLessThan(100 * 1024 * 1024);
  });
});

function syntheticEntry(i: number): string {
  return (
    `<termEntry id="e${i}"><descrip type="subjectField">field ${i % 50}</descrip>` +
    '<langSet xml:lang="en"><descrip type="definition">A generated concept used to check that the reader ' +
    `keeps memory bounded, number ${i}.</descrip>` +
    `<tig><term>term ${i}</term><termNote type="partOfSpeech">noun</termNote></tig>` +
    `<tig><term>synonym ${i}</term><termNote type="termType">synonym</termNote></tig></langSet>` +
    `<langSet xml:lang="de"><tig><term>Begriff ${i}</term>` +
    '<termNote type="grammaticalGender">masculine</termNote></tig></langSet></termEntry>\n'
  );
}

describe('tbxLanguage', () => {
  it('maps ISO codes and the real-world quirks to ISO 639-2/T with region and script', () => {
    const cases: [string, string | null, string | null, string | null][] = [
      ['dk', 'dan', null, null],
      ['sf', 'fin', null, null],
      ['no', 'nor', null, null],
      ['nn', 'nno', null, null],
      ['fo', 'fao', null, null],
      ['la', 'lat', null, null],
      ['is', 'isl', null, null],
      ['gl', 'glg', null, null],
      ['EN', 'eng', null, null],
      ['ger', 'deu', null, null],
      ['en-us', 'eng', 'US', null],
      ['en_GB', 'eng', 'GB', null],
      ['zh-cn', 'zho', 'CN', null],
      ['zh-Hant', 'zho', null, 'hant'],
      ['zh-Hans-CN', 'zho', 'CN', 'hans'],
      ['es-419', 'spa', null, null],
      ['de-DE-1996', 'deu', 'DE', null],
      ['en-x-private', 'eng', null, null],
    ];
    for (const [tag, languageCode, regionCode, scriptCode] of cases) {
      expect(tbxLanguage(tag), tag).toEqual({ languageCode, regionCode, scriptCode });
    }
    for (const unknown of ['', 'xx', 'x-klingon', 'i-default', 'qaa'])
      expect(tbxLanguage(unknown), unknown).toBeNull();
  });

  it('reads gl as Greenlandic and sm as Sami in files that use the Nordic codes', () => {
    expect(tbxLanguage('gl', { nordic: true })?.languageCode).toBe('kal');
    expect(tbxLanguage('sm', { nordic: true })?.languageCode).toBe('smi');
    expect(tbxLanguage('sm')?.languageCode).toBe('smo');
    expect(usesNordicCodes(['is', 'dk', 'gl'])).toBe(true);
    expect(usesNordicCodes(['sf-FI'])).toBe(true);
    expect(usesNordicCodes(['gl', 'es'])).toBe(false);
  });
});

/** `file;terms;<concepts>;lang;count;...`: the counts per language are concepts (langSets), not terms. */
function parseStats(text: string) {
  const stats = new Map<string, { concepts: number; languages: Record<string, number> }>();
  for (const line of text.split(/\r?\n/)) {
    const [file, , concepts, ...pairs] = line.split(';');
    if (!file || !concepts) continue;
    const languages: Record<string, number> = {};
    for (let i = 0; i + 1 < pairs.length; i += 2) {
      if (pairs[i]) languages[pairs[i]!] = Number(pairs[i + 1]);
    }
    stats.set(file, { concepts: Number(concepts), languages });
  }
  return stats;
}

/** Counts taken straight from the file text, independently of the reader. */
function countInText(text: string) {
  const langSets: Record<string, number> = {};
  const terms: Record<string, number> = {};
  for (const match of text.matchAll(/<langSet xml:lang="([^"]+)">([\s\S]*?)<\/langSet>/g)) {
    const lang = match[1]!;
    langSets[lang] = (langSets[lang] ?? 0) + 1;
    terms[lang] = (terms[lang] ?? 0) + (match[2]!.match(/<term[\s>]/g)?.length ?? 0);
  }
  return { entries: text.match(/<termEntry[\s>]/g)?.length ?? 0, langSets, terms };
}

describe('readTbx: the Icelandic Term Bank files', () => {
  let stats: ReturnType<typeof parseStats>;
  beforeAll(async () => {
    if (!existsSync(DATASET_DIR)) {
      throw new Error(
        `The Icelandic Term Bank dataset is missing at ${DATASET_DIR.pathname}: these tests need it`,
      );
    }
    stats = parseStats(await readFile(new URL('TBX_STATS.TXT', DATASET_DIR), 'utf8'));
  });

  it.each(DATASET_FILES)(
    '%s: every entry, and per language the concepts of TBX_STATS and the terms of the file',
    async (file) => {
      const url = new URL(file, DATASET_DIR);
      const inText = countInText(await readFile(url, 'utf8'));
      const langSets: Record<string, number> = {};
      const terms: Record<string, number> = {};
      let entries = 0;
      let header: TbxHeader | undefined;
      for await (const entry of readTbx(createReadStream(url, { highWaterMark: 16 * 1024 }), {
        onHeader: (h) => (header = h),
      })) {
        entries++;
        const nordic = usesNordicCodes(entry.languages.map((section) => section.lang));
        for (const section of entry.languages) {
          expect(tbxLanguage(section.lang, { nordic }), section.lang).not.toBeNull();
          langSets[section.lang] = (langSets[section.lang] ?? 0) + 1;
          terms[section.lang] = (terms[section.lang] ?? 0) + section.terms.length;
          for (const term of section.terms) expect(term.term).not.toBe('');
        }
      }
      expect(header).toMatchObject({ dialect: 'TBX_V2', sourceLang: 'is' });
      expect(entries).toBeGreaterThan(0);
      expect(entries).toBe(inText.entries);
      expect(entries).toBe(stats.get(file)?.concepts);
      expect(langSets).toEqual(inText.langSets);
      expect(langSets).toEqual(stats.get(file)?.languages);
      // TBX_STATS has no term counts (synonyms make more terms than concepts): the file's own count rules.
      expect(terms).toEqual(inText.terms);
    },
  );

  it('sjodyr.tbx: entry eid-ordabanki-sjodyr-440904 with its French synonyms and Nordic codes', async () => {
    let header: TbxHeader | undefined;
    let found: TbxEntry | undefined;
    for await (const entry of readTbx(createReadStream(new URL('sjodyr.tbx', DATASET_DIR)), {
      onHeader: (h) => (header = h),
    })) {
      if (entry.id === 'eid-ordabanki-sjodyr-440904') found = entry;
    }
    expect(header?.title).toMatch(/^Sjávardýr: Termbase for sea animals/);
    expect(found?.line).toBe(16);
    const french = termsOf(found!, 'fr');
    expect(french.map((term) => term.term)).toEqual(['baleine bleue', 'rorqual bleu', 'rorqual de Sibbald']);
    expect(french.map((term) => term.line)).toEqual([19, 22, 26]);
    expect(french[0]).toMatchObject({ id: 'tid-ordabanki-sjodyr-440904-fr1', values: [] });
    expect(french[1]).toMatchObject({
      id: null,
      values: [{ category: 'termType', element: 'termNote', value: 'synonym' }],
    });
    expect(termsOf(found!, 'dk').map((term) => term.term)).toEqual(['blåhval']);
    expect(tbxLanguage('dk')?.languageCode).toBe('dan');
    expect(termsOf(found!, 'no').map((term) => term.term)).toEqual(['blåhval']);
    expect(tbxLanguage('no')?.languageCode).toBe('nor');
    expect(termsOf(found!, 'la').map((term) => term.term)).toEqual(['Balaenoptera musculus']);
  });

  it('stjornsysla.tbx: &amp; in terms; fundarordno.tbx: gl is Greenlandic there', async () => {
    let rd: TbxEntry | undefined;
    for await (const entry of readTbx(createReadStream(new URL('stjornsysla.tbx', DATASET_DIR)))) {
      if (entry.id === 'eid-ordabanki-stjornsysla-454975') rd = entry;
    }
    expect(termsOf(rd!, 'en')[0]!.term).toBe('R&D');

    const languages = new Set<string>();
    for await (const entry of readTbx(createReadStream(new URL('fundarordno.tbx', DATASET_DIR)))) {
      const nordic = usesNordicCodes(entry.languages.map((section) => section.lang));
      expect(nordic).toBe(true);
      for (const section of entry.languages)
        languages.add(tbxLanguage(section.lang, { nordic })!.languageCode);
    }
    expect([...languages].sort()).toEqual(['dan', 'fao', 'fin', 'isl', 'kal', 'nno', 'nor', 'swe']);
  });
});
