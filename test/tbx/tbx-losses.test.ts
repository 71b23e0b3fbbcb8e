/**
 * What other tools' files hold that the model cannot, read without silent loss (docs/tbx.md): compact
 * ISO 8601 dates, transactions of values and language sections, termCompList components, and links
 * stored in fields (one per joined value).
 */
import { describe, expect, it } from 'vitest';
import { partsOfStored } from '../../src/db/migrations/Migration20261218090000_field_parts.js';
import { parseDate } from '../../src/modules/tbx/tbx-dialects.js';
import { fieldValuesFrom, tbxValuesOf, valuePartOf } from '../../src/modules/tbx/tbx-mapping.js';
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

describe('links in fields (issue 37): structured parts, never read out of the text', () => {
  it('keeps a link as a part beside the value: the label (the target without one) and the target', () => {
    expect(
      valuePartOf({ category: 'corpusTrace', element: 'xref', value: 'doc', target: 'https://x/1' }),
    ).toEqual({ value: 'doc', target: 'https://x/1' });
    expect(
      valuePartOf({ category: 'sourceIdentifier', element: 'admin', value: '', target: 'a b.htm' }),
    ).toEqual({
      value: 'a b.htm',
      target: 'a b.htm',
    });
    expect(valuePartOf({ category: 'definition', element: 'descrip', value: 'Press <Enter>' })).toEqual({
      value: 'Press <Enter>',
    });
  });

  it('joins several values of a single-valued text field and keeps them apart as parts', () => {
    expect(fieldValuesFrom('MULTILINE', [{ value: 'one' }, { value: 'two', target: 'https://b' }])).toEqual([
      { stored: 'one\r\n\r\ntwo', parts: [{ value: 'one' }, { value: 'two', target: 'https://b' }] },
    ]);
    expect(fieldValuesFrom('SINGLELINE', [{ value: 'a\nb' }, { value: 'c' }])).toEqual([
      { stored: 'a b; c', parts: [{ value: 'a\nb' }, { value: 'c' }] },
    ]);
  });

  it('gives back the parts of exactly the stored value; any other value is one plain value', () => {
    const parts = [
      { stored: 'one\r\n\r\ntwo', parts: [{ value: 'one', target: 'https://a' }, { value: 'two' }] },
    ];
    expect(tbxValuesOf('externalCrossReference', 'one\r\n\r\ntwo', undefined, '', parts)).toEqual([
      { category: 'externalCrossReference', element: '', value: 'one', target: 'https://a' },
      { category: 'externalCrossReference', element: '', value: 'two' },
    ]);
    // Edited since the import: the parts no longer describe it.
    expect(tbxValuesOf('externalCrossReference', 'one', undefined, '', parts)).toEqual([
      { category: 'externalCrossReference', element: '', value: 'one' },
    ]);
    // Text that looks like a link stays text.
    expect(tbxValuesOf('definition', 'Press <Enter>')).toEqual([
      { category: 'definition', element: '', value: 'Press <Enter>' },
    ]);
    expect(tbxValuesOf('note', 'Shortcut <Ctrl+S>')).toEqual([
      { category: 'note', element: 'note', value: 'Shortcut <Ctrl+S>' },
    ]);
  });

  it('the migration moves stored links (xref fields, or targets that look like links) out of the text', () => {
    expect(partsOfStored('doc <https://x/1>', false)).toEqual({
      text: 'doc',
      parts: [{ value: 'doc', target: 'https://x/1' }],
    });
    expect(partsOfStored('Press <Enter>', false)).toBeNull();
    expect(partsOfStored('Figure <fig1.png>', true)).toEqual({
      text: 'Figure',
      parts: [{ value: 'Figure', target: 'fig1.png' }],
    });
    expect(partsOfStored('https://x', true)).toEqual({
      text: 'https://x',
      parts: [{ value: 'https://x', target: 'https://x' }],
    });
    expect(partsOfStored('one <https://a>\r\n\r\nplain <b>', false)).toEqual({
      text: 'one\r\n\r\nplain <b>',
      parts: [{ value: 'one', target: 'https://a' }, { value: 'plain <b>' }],
    });
  });
});
