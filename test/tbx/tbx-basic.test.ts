/**
 * TBX-Basic on export (src/modules/tbx/tbx-basic.ts): categories and picklist values fitted onto
 * TBX-Basic at each level, the rest written as notes and counted in the export's account.
 */
import { describe, expect, it } from 'vitest';
import { basicValue } from '../../src/modules/tbx/tbx-basic.js';
import type { TbxEntry, TbxValue } from '../../src/modules/tbx/tbx-model.js';
import { writeTbx } from '../../src/modules/tbx/tbx-writer.js';

const value = (category: string, text: string, target?: string): TbxValue =>
  target === undefined
    ? { category, element: '', value: text }
    : { category, element: '', value: text, target };
const anyId = () => true;

describe('basicValue', () => {
  it('keeps TBX-Basic categories at their levels, with their elements', () => {
    expect(basicValue(value('definition', 'd'), 'lang', 'v3', anyId)).toEqual({
      element: 'descrip',
      value: value('definition', 'd'),
    });
    expect(basicValue(value('source', 's'), 'term', 'v2', anyId).element).toBe('admin');
    expect(basicValue(value('termType', 'acronym'), 'term', 'v3', anyId).element).toBe('termNote');
    expect(basicValue(value('crossReference', 'x', 'c2'), 'entry', 'v3', anyId).element).toBe('ref');
  });

  it('maps picklist values onto TBX-Basic ones and says so', () => {
    const pos = basicValue(value('partOfSpeech', 'Noun'), 'term', 'v3', anyId);
    expect(pos.value.value).toBe('noun');
    expect(pos.change).toEqual({ kind: 'mapped', what: 'partOfSpeech "Noun" as "noun"' });
    expect(basicValue(value('partOfSpeech', 'properNoun'), 'term', 'v2', anyId).change).toBeUndefined();
    expect(basicValue(value('partOfSpeech', 'properNoun'), 'term', 'v3', anyId).value.value).toBe('noun');
    expect(
      basicValue(value('administrativeStatus', 'standardizedTerm-admn-sts'), 'term', 'v3', anyId).value.value,
    ).toBe('preferredTerm-admn-sts');
  });

  it('writes what TBX-Basic lacks as a note naming the category, and says why', () => {
    const custom = basicValue(value('productSubset', 'P1'), 'entry', 'v3', anyId);
    expect(custom).toEqual({
      element: 'note',
      value: { category: 'note', element: 'note', value: 'productSubset: P1' },
      change: { kind: 'note', what: 'productSubset (not a TBX-Basic category)' },
    });
    // context is term-level only; subsets only on terms in v2; no xGraphic on v2 langSets.
    expect(basicValue(value('context', 'c'), 'entry', 'v3', anyId).change?.what).toBe(
      'context at concept level',
    );
    expect(basicValue(value('customerSubset', 'c'), 'entry', 'v2', anyId).element).toBe('note');
    expect(basicValue(value('customerSubset', 'c'), 'entry', 'v3', anyId).element).toBe('admin');
    expect(basicValue(value('partOfSpeech', 'nom'), 'term', 'v3', anyId).value.value).toBe(
      'partOfSpeech: nom',
    );
    // Targets: internal ones must be ids of the file, external ones http(s) URLs.
    expect(basicValue(value('crossReference', 'x', 'gone'), 'term', 'v3', () => false).element).toBe('note');
    expect(
      basicValue(value('externalCrossReference', 'x', 'ftp://h/f'), 'term', 'v3', anyId).value.value,
    ).toBe('externalCrossReference: x <ftp://h/f>');
  });
});

describe('writeTbx as TBX-Basic', () => {
  it('ends the file with the account of what it could not express, and fills the report', async () => {
    const entry: TbxEntry = {
      id: 'c1',
      line: 0,
      values: [value('productSubset', 'P1'), value('productSubset', 'P2')],
      transactions: [],
      languages: [
        {
          lang: 'en',
          values: [],
          terms: [
            { id: null, term: 't', line: 0, transactions: [], values: [value('partOfSpeech', 'Noun')] },
          ],
        },
      ],
    };
    const report = new Map<string, number>();
    let xml = '';
    for await (const chunk of writeTbx({ dialect: 'TBX_V3_DCA', sourceLang: 'en', title: null }, [entry], {
      report,
    })) {
      xml += chunk;
    }
    expect(xml).toContain('<note>productSubset: P1</note>');
    expect(xml).toContain('<termNote type="partOfSpeech">noun</termNote>');
    expect(report).toEqual(
      new Map([
        ['written as note: productSubset (not a TBX-Basic category)', 2],
        ['mapped: partOfSpeech "Noun" as "noun"', 1],
      ]),
    );
    expect(xml).toMatch(
      /<!-- What this file could not express as such:\n {2}2 x written as note: productSubset/,
    );
  });
});

describe('writeTbx: entries without terms', () => {
  it('leaves out a concept without terms (TBX needs one) and counts it, in every dialect', async () => {
    for (const profile of ['basic', 'full'] as const) {
      const report = new Map<string, number>();
      let xml = '';
      const termless: TbxEntry = {
        id: 'c0',
        line: 0,
        values: [value('definition', 'd')],
        transactions: [],
        languages: [],
      };
      for await (const chunk of writeTbx(
        { dialect: 'TBX_V2', profile, sourceLang: 'en', title: null },
        [termless],
        { report },
      )) {
        xml += chunk;
      }
      expect(xml).not.toContain('termEntry');
      expect(report).toEqual(new Map([['not written: concepts without terms (a TBX entry needs one)', 1]]));
    }
  });
});
