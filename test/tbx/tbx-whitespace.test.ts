import { describe, expect, it } from 'vitest';
import type { TbxEntry } from '../../src/modules/tbx/tbx-model.js';
import { readTbx } from '../../src/modules/tbx/tbx-reader.js';
import { writeTbx } from '../../src/modules/tbx/tbx-writer.js';

const entry = (definition: string): TbxEntry => ({
  id: 'c1',
  line: 0,
  values: [{ category: 'definition', element: 'descrip', value: definition }],
  transactions: [],
  languages: [
    {
      lang: 'en',
      values: [],
      terms: [
        {
          id: null,
          term: 'term',
          line: 0,
          transactions: [],
          values: [{ category: 'note', element: 'note', value: 'a  b\tc' }],
        },
      ],
    },
  ],
});

async function roundTrip(dialect: 'TBX_V3_DCA' | 'TBX_V2', written: TbxEntry) {
  const entries: TbxEntry[] = [];
  for await (const read of readTbx(writeTbx({ dialect, sourceLang: 'en', title: null }, [written])))
    entries.push(read);
  return entries;
}

describe('whitespace survives export and import', () => {
  for (const dialect of ['TBX_V3_DCA', 'TBX_V2'] as const) {
    it(`keeps line breaks, tabs and double spaces (${dialect})`, async () => {
      const [read] = await roundTrip(dialect, entry('first line\r\nsecond  line\n\tthird'));
      // The writer sends CR as a character reference, so even CR LF comes back exactly as stored.
      expect(read!.values[0]!.value).toBe('first line\r\nsecond  line\n\tthird');
      expect(read!.languages[0]!.terms[0]!.values[0]!.value).toBe('a  b\tc');
    });
  }

  it('writes no xml:space (the core schemas allow it nowhere): the sourceDesc tells the reader', async () => {
    let text = '';
    for await (const chunk of writeTbx({ dialect: 'TBX_V3_DCA', sourceLang: 'en', title: null }, [
      entry('plain text'),
    ])) {
      text += chunk;
    }
    expect(text).toContain('<descrip type="definition">plain text</descrip>');
    expect(text).toContain('<note>a  b\tc</note>');
    expect(text).not.toContain('xml:space');
    expect(text).toContain('<sourceDesc><p>Exported from Polyterm</p></sourceDesc>');
  });

  it("collapses whitespace in other tools' files unless xml:space says otherwise", async () => {
    const file = `<martif type="TBX" xml:lang="en"><martifHeader><fileDesc><sourceDesc><p>Other tool</p></sourceDesc></fileDesc></martifHeader>
<text><body><termEntry id="e"><descrip type="definition">two
  lines</descrip><langSet xml:lang="en"><tig><term>t</term><note xml:space="preserve">a  b</note></tig></langSet></termEntry></body></text></martif>`;
    const entries: TbxEntry[] = [];
    for await (const read of readTbx([file])) entries.push(read);
    expect(entries[0]!.values[0]!.value).toBe('two lines');
    expect(entries[0]!.languages[0]!.terms[0]!.values[0]!.value).toBe('a  b');
  });
});
