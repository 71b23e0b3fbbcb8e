/**
 * What other tools' files hold that the model cannot, read without silent loss (docs/tbx.md): compact
 * ISO 8601 dates, transactions of values and language sections, termCompList components, and links
 * stored in fields (one per joined value).
 */
import { describe, expect, it } from 'vitest';
import { parseDate } from '../../src/modules/tbx/tbx-dialects.js';
import { storedTextOf, tbxValuesOf } from '../../src/modules/tbx/tbx-mapping.js';
import type { TbxEntry } from '../../src/modules/tbx/tbx-model.js';
import { readTbx } from '../../src/modules/tbx/tbx-reader.js';

async function readOne(body: string): Promise<TbxEntry> {
  const file = `<martif type="TBX" xml:lang="en"><martifHeader><fileDesc><sourceDesc><p>x</p></sourceDesc></fileDesc></martifHeader>\n<text><body>\n${body}\n</body></text></martif>`;
  const entries: TbxEntry[] = [];
  for await (const entry of readTbx([file])) entries.push(entry);
  return entries[0]!;
}

describe('dates', () => {
  it('reads ISO 8601 basic and mixed formats as well as the extended one', () => {
    expect(parseDate('20010507T10:57:25Z')?.toISOString()).toBe('2001-05-07T10:57:25.000Z');
    expect(parseDate('20010507T105725Z')?.toISOString()).toBe('2001-05-07T10:57:25.000Z');
    expect(parseDate('20010507')?.toISOString()).toBe('2001-05-07T00:00:00.000Z');
    expect(parseDate('2001-05-07T10:57:25+02:00')?.toISOString()).toBe('2001-05-07T08:57:25.000Z');
    expect(parseDate('7 May 2001')).toBeNull();
  });
});

describe('reader: what the model cannot hold is noted with its line', () => {
  it('a transacGrp of a descripGrp does not date the entry; a bad date is noted', async () => {
    const entry = await readOne(`<termEntry id="e1">
<descripGrp><descrip type="definition">d</descrip>
<transacGrp><transac type="transactionType">origination</transac><date>2001-05-07</date></transacGrp></descripGrp>
<transacGrp><transac type="transactionType">modification</transac><date>someday</date></transacGrp>
<langSet xml:lang="en"><transacGrp><transac type="transactionType">modification</transac></transacGrp><tig><term>t</term></tig></langSet>
</termEntry>`);
    expect(entry.transactions).toEqual([{ kind: 'changed', date: null, responsibility: null }]);
    expect(entry.notKept).toEqual([
      { line: 5, message: expect.stringContaining('of a value (in a group) is not kept') },
      { line: 6, message: expect.stringContaining('the date "someday" is not an ISO 8601 date') },
      { line: 7, message: expect.stringContaining('of a language section is not kept') },
    ]);
  });

  it("a termCompList component's fields name their component, not the term", async () => {
    const entry =
      await readOne(`<termEntry id="e1"><langSet xml:lang="en"><ntig><termGrp><term>World Wide Web</term>
<termNote type="partOfSpeech">noun</termNote>
<termCompList type="lemma"><termCompGrp><termComp>World</termComp>
<termNote type="partOfSpeech">adjective</termNote></termCompGrp></termCompList></termGrp></ntig></langSet></termEntry>`);
    const values = entry.languages[0]!.terms[0]!.values;
    expect(
      values.map(({ category, value, component, line }) => ({ category, value, component, line })),
    ).toEqual([
      { category: 'partOfSpeech', value: 'noun', component: undefined, line: 4 },
      { category: 'termComp', value: 'World', component: undefined, line: 5 },
      { category: 'partOfSpeech', value: 'adjective', component: 'World', line: 6 },
    ]);
  });
});

describe('links in fields', () => {
  it('stores a link as label <target>, or <target> without label (a bare target for xref categories)', () => {
    expect(
      storedTextOf({ category: 'corpusTrace', element: 'xref', value: 'doc', target: 'https://x/1' }),
    ).toBe('doc <https://x/1>');
    expect(
      storedTextOf({ category: 'sourceIdentifier', element: 'admin', value: '', target: 'a b.htm' }),
    ).toBe('<a b.htm>');
    expect(
      storedTextOf({ category: 'externalCrossReference', element: 'xref', value: '', target: 'https://x' }),
    ).toBe('https://x');
  });

  it('gives back every link of a joined value as a link of its own, and plain parts as plain values', () => {
    expect(tbxValuesOf('externalCrossReference', 'one <https://a>\r\n\r\ntwo <https://b>')).toEqual([
      { category: 'externalCrossReference', element: '', value: 'one', target: 'https://a' },
      { category: 'externalCrossReference', element: '', value: 'two', target: 'https://b' },
    ]);
    expect(tbxValuesOf('sourceIdentifier', 'http://plain\r\n\r\n<a b.htm>')).toEqual([
      { category: 'sourceIdentifier', element: '', value: 'http://plain' },
      { category: 'sourceIdentifier', element: '', value: '', target: 'a b.htm' },
    ]);
    expect(tbxValuesOf('note', 'first\r\n\r\nsecond')).toEqual([
      { category: 'note', element: 'note', value: 'first\r\n\r\nsecond' },
    ]);
  });
});
