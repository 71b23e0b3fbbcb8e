import { describe, expect, it } from 'vitest';
import { DATA_CATEGORIES, dataCategory, isTbxCategory } from '../../src/modules/field/data-categories.js';
import {
  DataCategoryKeys,
  FieldLevels,
  FieldTypes,
  SystemDataCategories,
  TbxDataCategories,
} from '../../src/modules/field/field.entity.js';

// The spec's lists of TBX concept-level and term-level fields (section "Field").
const SPEC_CONCEPT_LEVEL = [
  'conceptOrigin',
  'customerSubset',
  'definition',
  'environmentSubset',
  'example',
  'explanation',
  'productSubset',
  'projectSubset',
  'source',
];
const SPEC_TERM_LEVEL = [
  'animacy',
  'context',
  'customerSubset',
  'definition',
  'environmentSubset',
  'example',
  'grammaticalGender',
  'grammaticalNumber',
  'partOfSpeech',
  'processStatus',
  'productSubset',
  'projectSubset',
  'sampleSentence',
  'source',
  'sourceLanguage',
  'termLocation',
  'termType',
  'usageNote',
  'administrativeStatus',
];
// System picklists whose values are the dictionary's own objects, not a fixed list.
const DYNAMIC_PICKLISTS = ['DOM', 'DICT', 'SECT', 'LANG', 'GVAR', 'OVAR'];

const tbxNamesOf = (key: string) => dataCategory(key)?.picklistItems.map((item) => item.tbxName);

describe('data-category catalogue', () => {
  it('has every key but GENERIC exactly once, in the order of DataCategoryKeys', () => {
    expect(DATA_CATEGORIES.map((category) => category.key)).toEqual(
      DataCategoryKeys.filter((key) => key !== 'GENERIC'),
    );
    expect(new Set(DATA_CATEGORIES.map((category) => category.key)).size).toBe(DATA_CATEGORIES.length);
    expect(dataCategory('GENERIC')).toBeUndefined();
    expect(dataCategory('NOPE')).toBeUndefined();
  });

  it('gives every category a known kind, levels, a name and an id', () => {
    for (const category of DATA_CATEGORIES) {
      expect(FieldTypes).toContain(category.fieldType);
      expect(category.levels.length).toBeGreaterThan(0);
      for (const level of category.levels) expect(FieldLevels).toContain(level);
      expect(new Set(category.levels).size).toBe(category.levels.length);
      expect(category.name).not.toBe('');
      expect(category.id).not.toBe('');
    }
  });

  it('uses the TBX name as name and ISO id of TBX categories, and the key as id of system ones', () => {
    expect(dataCategory('DEFINITION')).toMatchObject({ name: 'definition', id: 'definition' });
    expect(dataCategory('PART_OF_SPEECH')).toMatchObject({ name: 'partOfSpeech', id: 'partOfSpeech' });
    expect(dataCategory('USAGE_STATUS')).toMatchObject({
      name: 'administrativeStatus',
      id: 'administrativeStatus',
    });
    expect(dataCategory('DOM')).toMatchObject({ name: 'Domain', id: 'DOM' });
    expect(dataCategory('CREBY')).toMatchObject({ name: 'Created by', id: 'CREBY' });
    for (const key of SystemDataCategories) expect(dataCategory(key).id).toBe(key);
    expect(new Set(DATA_CATEGORIES.map((category) => category.id)).size).toBe(DATA_CATEGORIES.length);
  });

  it('gives each category its natural kind', () => {
    expect(dataCategory('DEFINITION').fieldType).toBe('MULTILINE');
    expect(dataCategory('SOURCE').fieldType).toBe('SINGLELINE');
    expect(dataCategory('GRAMMATICAL_GENDER').fieldType).toBe('PICKLIST');
    expect(dataCategory('CREDATE').fieldType).toBe('DATE');
    expect(dataCategory('CONID').fieldType).toBe('INCREMENTAL');
    expect(dataCategory('TERM_ID').fieldType).toBe('INCREMENTAL');
    expect(dataCategory('DOM').fieldType).toBe('MULTISELECT');
  });

  it('places TBX categories at the levels the spec lists, both where TBX allows both', () => {
    for (const key of TbxDataCategories) {
      const { name, levels } = dataCategory(key);
      expect(SPEC_CONCEPT_LEVEL.includes(name) || SPEC_TERM_LEVEL.includes(name)).toBe(true);
      expect(levels.includes('CONCEPT')).toBe(SPEC_CONCEPT_LEVEL.includes(name));
      expect(levels.includes('TERM')).toBe(SPEC_TERM_LEVEL.includes(name));
    }
    expect(dataCategory('DEFINITION').levels).toEqual(['CONCEPT', 'TERM']);
    expect(dataCategory('CONCEPT_ORIGIN').levels).toEqual(['CONCEPT']);
    expect(dataCategory('TERM_TYPE').levels).toEqual(['TERM']);
  });

  it('places system categories of concepts and terms at their level', () => {
    for (const key of ['DOM', 'DICT', 'SECT', 'CONID', 'CREBY', 'CREDATE', 'CHGBY', 'CHGDATE']) {
      expect(dataCategory(key)?.levels).toEqual(['CONCEPT']);
    }
    for (const key of [
      'TERM',
      'LANG',
      'GVAR',
      'OVAR',
      'TCREBY',
      'TCREDATE',
      'TCHGBY',
      'TCHGDATE',
      'TERM_ID',
    ]) {
      expect(dataCategory(key)?.levels).toEqual(['TERM']);
    }
  });

  it('gives every TBX picklist its items, sorted, unique and labelled; other kinds have none', () => {
    for (const category of DATA_CATEGORIES) {
      const items = category.picklistItems;
      const isChoice = category.fieldType === 'PICKLIST' || category.fieldType === 'MULTISELECT';
      if (isChoice && !DYNAMIC_PICKLISTS.includes(category.key)) {
        expect(items.length, category.key).toBeGreaterThan(0);
      } else {
        expect(items, category.key).toEqual([]);
      }
      expect(items.map((item) => item.sortIndex)).toEqual(items.map((_, index) => index));
      expect(new Set(items.map((item) => item.tbxName)).size).toBe(items.length);
      for (const item of items) expect(item.name).not.toBe('');
    }
  });

  it('holds the TBX-Basic / TBX picklist values', () => {
    expect(tbxNamesOf('GRAMMATICAL_GENDER')).toEqual(['masculine', 'feminine', 'neuter', 'otherGender']);
    expect(tbxNamesOf('GRAMMATICAL_NUMBER')).toEqual(['singular', 'plural', 'dual', 'mass', 'otherNumber']);
    expect(tbxNamesOf('PART_OF_SPEECH')).toEqual([
      'noun',
      'verb',
      'adjective',
      'adverb',
      'properNoun',
      'other',
    ]);
    expect(tbxNamesOf('PROCESS_STATUS')).toEqual(['unprocessed', 'provisionallyProcessed', 'finalized']);
    expect(tbxNamesOf('ANIMACY')).toEqual(['animate', 'inanimate', 'otherAnimacy']);
    expect(tbxNamesOf('USAGE_STATUS')).toEqual([
      'preferredTerm-admn-sts',
      'admittedTerm-admn-sts',
      'deprecatedTerm-admn-sts',
      'supersededTerm-admn-sts',
      'legalTerm-admn-sts',
      'regulatedTerm-admn-sts',
      'standardizedTerm-admn-sts',
    ]);
    expect(tbxNamesOf('TERM_TYPE')?.slice(0, 6)).toEqual([
      'fullForm',
      'acronym',
      'abbreviation',
      'shortForm',
      'variant',
      'phrase',
    ]);
    expect(tbxNamesOf('TERM_TYPE')).toEqual(
      expect.arrayContaining(['initialism', 'clippedTerm', 'symbol', 'transliteratedForm', 'sku']),
    );
    expect(tbxNamesOf('TERM_LOCATION')).toEqual(
      expect.arrayContaining(['checkBox', 'menuItem', 'toolTip', 'user-definedType']),
    );
    expect(dataCategory('USAGE_STATUS').picklistItems[0]).toEqual({
      tbxName: 'preferredTerm-admn-sts',
      name: 'preferred term',
      sortIndex: 0,
    });
  });

  it('tells TBX categories from system ones and GENERIC', () => {
    for (const key of TbxDataCategories) expect(isTbxCategory(key)).toBe(true);
    for (const key of SystemDataCategories) expect(isTbxCategory(key)).toBe(false);
    expect(isTbxCategory('GENERIC')).toBe(false);
    expect(isTbxCategory('definition')).toBe(false);
  });

  it('cannot be changed by a caller', () => {
    const definition = dataCategory('DEFINITION');
    expect(Object.isFrozen(DATA_CATEGORIES)).toBe(true);
    expect(Object.isFrozen(definition)).toBe(true);
    expect(Object.isFrozen(definition.levels)).toBe(true);
    expect(Object.isFrozen(dataCategory('ANIMACY').picklistItems[0])).toBe(true);
  });
});
