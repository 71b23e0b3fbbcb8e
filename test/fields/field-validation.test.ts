import { describe, expect, it } from 'vitest';
import { MAX_TEXT_LENGTH } from '../../src/modules/field/field.entity.js';
import {
  type FieldRules,
  fieldValueProblems,
  normalizeFieldValues,
  normalizeLineBreaks,
  parseFilterDate,
  visibleLength,
} from '../../src/modules/field/field-validation.js';

const field = (overrides: Partial<FieldRules> = {}): FieldRules => ({
  oid: 'f1',
  name: 'Definition',
  fieldType: 'SINGLELINE',
  required: false,
  minLen: 0,
  maxLen: 0,
  regExp: null,
  number: false,
  unicode: false,
  picklistValues: [],
  ...overrides,
});

const problems = (overrides: Partial<FieldRules>, values: readonly string[] | undefined) =>
  fieldValueProblems(field(overrides), values);

describe('normalizeLineBreaks', () => {
  it('stores every kind of line break as CR LF and trims nothing', () => {
    expect(normalizeLineBreaks('a\nb\rc\r\nd')).toBe('a\r\nb\r\nc\r\nd');
    expect(normalizeLineBreaks('\r\r\n\n')).toBe('\r\n\r\n\r\n');
    expect(normalizeLineBreaks('  x  ')).toBe('  x  ');
    expect(normalizeLineBreaks('a\r\nb')).toBe('a\r\nb');
  });
});

describe('normalizeFieldValues', () => {
  it('drops blank values and normalizes line breaks of text values', () => {
    expect(normalizeFieldValues(field({ fieldType: 'MULTILINE' }), ['', ' a\nb ', ' \n\t', 'c'])).toEqual([
      ' a\r\nb ',
      'c',
    ]);
  });

  it('keeps values of the other kinds as sent', () => {
    expect(normalizeFieldValues(field({ fieldType: 'PICKLIST' }), ['a\nb', ' '])).toEqual(['a\nb']);
  });
});

describe('visibleLength', () => {
  it('counts code points, a line break as one whatever its spelling', () => {
    expect(visibleLength('abc')).toBe(3);
    expect(visibleLength('a\r\nb')).toBe(3);
    expect(visibleLength('a\nb')).toBe(3);
    expect(visibleLength('😀')).toBe(1);
    expect(visibleLength('\r\r')).toBe(2);
  });
});

describe('fieldValueProblems', () => {
  it('names the field in every message', () => {
    expect(problems({ required: true }, [])).toEqual(['Field "Definition": a value is required']);
  });

  describe('required', () => {
    it('passes with one non-blank value', () => {
      expect(problems({ required: true }, ['x'])).toEqual([]);
    });
    it('fails with no values, undefined or only blank ones', () => {
      expect(problems({ required: true }, undefined)).toHaveLength(1);
      expect(problems({ required: true }, [])).toHaveLength(1);
      expect(problems({ required: true }, ['', '  ', '\n'])).toHaveLength(1);
    });
    it('lets an optional field stay empty', () => {
      expect(problems({}, undefined)).toEqual([]);
      expect(problems({}, ['  '])).toEqual([]);
    });
  });

  describe('number of values', () => {
    it('lets only MULTISELECT hold several values', () => {
      expect(problems({ fieldType: 'MULTISELECT', picklistValues: ['a', 'b'] }, ['a', 'b'])).toEqual([]);
      expect(problems({ fieldType: 'SINGLELINE' }, ['a', 'b'])).toEqual([
        'Field "Definition": takes one value, 2 were given',
      ]);
      expect(problems({ fieldType: 'PICKLIST', picklistValues: ['a', 'b'] }, ['a', 'b'])).toHaveLength(1);
      expect(problems({ fieldType: 'NUMBER' }, ['1', '2'])).toHaveLength(1);
    });
    it('does not count blank values', () => {
      expect(problems({ fieldType: 'SINGLELINE' }, ['a', ''])).toEqual([]);
    });
  });

  describe('SINGLELINE', () => {
    it('accepts a line without breaks', () => {
      expect(problems({}, ['one line'])).toEqual([]);
    });
    it('rejects line breaks of any spelling', () => {
      for (const value of ['a\nb', 'a\rb', 'a\r\nb']) {
        expect(problems({}, [value])[0]).toMatch(/must not contain line breaks/);
      }
    });
  });

  describe('MAX_TEXT_LENGTH', () => {
    it('accepts SINGLELINE and MULTILINE values up to the limit', () => {
      expect(problems({}, ['x'.repeat(MAX_TEXT_LENGTH)])).toEqual([]);
      expect(problems({ fieldType: 'MULTILINE' }, ['x'.repeat(MAX_TEXT_LENGTH)])).toEqual([]);
    });
    it('rejects longer values', () => {
      expect(problems({}, ['x'.repeat(MAX_TEXT_LENGTH + 1)])).toEqual([
        `Field "Definition": a value is ${MAX_TEXT_LENGTH + 1} characters long; at most ${MAX_TEXT_LENGTH} are allowed`,
      ]);
      expect(problems({ fieldType: 'MULTILINE' }, ['x'.repeat(MAX_TEXT_LENGTH + 1)])).toHaveLength(1);
    });
    it('counts a line break once, however the client wrote it', () => {
      const lines = `${'x'.repeat(MAX_TEXT_LENGTH - 1)}\n`;
      expect(problems({ fieldType: 'MULTILINE' }, [lines])).toEqual([]);
      expect(problems({ fieldType: 'MULTILINE' }, [lines.replace('\n', '\r\n')])).toEqual([]);
      expect(problems({ fieldType: 'MULTILINE' }, [`${lines}x`])).toHaveLength(1);
    });
    it('counts characters outside the BMP once', () => {
      expect(problems({}, ['😀'.repeat(MAX_TEXT_LENGTH)])).toEqual([]);
    });
  });

  describe('minLen and maxLen', () => {
    it('accepts lengths within the limits', () => {
      expect(problems({ minLen: 2, maxLen: 4 }, ['ab'])).toEqual([]);
      expect(problems({ minLen: 2, maxLen: 4 }, ['abcd'])).toEqual([]);
      expect(problems({ fieldType: 'MULTILINE', maxLen: 3 }, ['a\r\nb'])).toEqual([]);
    });
    it('rejects lengths outside them', () => {
      expect(problems({ minLen: 2, maxLen: 4 }, ['a'])).toEqual([
        'Field "Definition": a value is 1 characters long; at least 2 are required',
      ]);
      expect(problems({ minLen: 2, maxLen: 4 }, ['abcde'])).toEqual([
        'Field "Definition": a value is 5 characters long; at most 4 are allowed',
      ]);
    });
    it('treats 0 as no limit', () => {
      expect(problems({ minLen: 0, maxLen: 0 }, ['x'.repeat(500)])).toEqual([]);
    });
    it('applies to text kinds only', () => {
      expect(problems({ fieldType: 'NUMBER', maxLen: 1 }, ['123'])).toEqual([]);
    });
  });

  describe('regExp', () => {
    it('accepts a value the pattern matches as a whole', () => {
      expect(problems({ regExp: '[A-Z]{2}-\\d+' }, ['AB-12'])).toEqual([]);
      expect(problems({ regExp: 'cat|dog' }, ['dog'])).toEqual([]);
    });
    it('rejects a value matched only in part', () => {
      expect(problems({ regExp: '[A-Z]{2}-\\d+' }, ['xAB-12'])).toEqual([
        'Field "Definition": "xAB-12" does not match the pattern "[A-Z]{2}-\\\\d+"',
      ]);
      expect(problems({ regExp: 'cat|dog' }, ['cats'])).toHaveLength(1);
      expect(problems({ regExp: 'cat|dog' }, ['hotdog'])).toHaveLength(1);
    });
    it('uses the u flag when the model says unicode', () => {
      expect(problems({ regExp: '\\p{Lu}\\p{Ll}+', unicode: true }, ['Émile'])).toEqual([]);
      expect(problems({ regExp: '\\p{Lu}\\p{Ll}+', unicode: true }, ['émile'])).toHaveLength(1);
      // Without u, \p{Lu} is just "p{Lu}".
      expect(problems({ regExp: '\\p{Lu}\\p{Ll}+', unicode: false }, ['Émile'])).toHaveLength(1);
      expect(problems({ regExp: '.', unicode: true }, ['😀'])).toEqual([]);
      expect(problems({ regExp: '.', unicode: false }, ['😀'])).toHaveLength(1);
    });
    it('reports an invalid pattern once instead of throwing', () => {
      const found = problems({ regExp: '(unclosed' }, ['a']);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(
        /^Field "Definition": the field's pattern "\(unclosed" is not a valid regular expression/,
      );
      expect(
        problems({ fieldType: 'MULTISELECT', picklistValues: ['a', 'b'], regExp: '[' }, ['a', 'b']),
      ).toHaveLength(1);
      // Valid only when wrapped: must still be refused, not reinterpreted.
      expect(problems({ regExp: 'a)|(b' }, ['zzz'])[0]).toMatch(/not a valid regular expression/);
      // Valid without u, invalid with it.
      expect(problems({ regExp: '\\-', unicode: false }, ['-'])).toEqual([]);
      expect(problems({ regExp: '\\-', unicode: true }, ['-'])[0]).toMatch(/not a valid regular expression/);
    });
    it('does not report a broken pattern while the field is empty', () => {
      expect(problems({ regExp: '(' }, [])).toEqual([]);
    });
    it('treats an empty pattern as none', () => {
      expect(problems({ regExp: '' }, ['anything'])).toEqual([]);
    });
  });

  describe('number flag', () => {
    it('accepts decimal numbers', () => {
      for (const value of ['42', '-1.5', '0', '007.25'])
        expect(problems({ number: true }, [value])).toEqual([]);
    });
    it('rejects anything else', () => {
      for (const value of ['abc', '1e3', '1.', '.5', '+1', '1,5', ' 1', 'NaN', 'Infinity']) {
        expect(problems({ number: true }, [value]), value).toEqual([
          `Field "Definition": ${JSON.stringify(value)} must be a decimal number`,
        ]);
      }
    });
  });

  describe('NUMBER', () => {
    it('accepts decimal numbers', () => {
      for (const value of ['42', '-1.5', '0.001'])
        expect(problems({ fieldType: 'NUMBER' }, [value])).toEqual([]);
    });
    it('rejects anything else', () => {
      for (const value of ['forty-two', '1e3', '1.', '0x1F', '1 000']) {
        expect(problems({ fieldType: 'NUMBER' }, [value]), value).toHaveLength(1);
      }
    });
    it('reports a bad number once even with the number flag set', () => {
      expect(problems({ fieldType: 'NUMBER', number: true }, ['x'])).toHaveLength(1);
    });
  });

  describe('INCREMENTAL', () => {
    it('accepts non-negative integers', () => {
      for (const value of ['0', '1', '42', String(Number.MAX_SAFE_INTEGER)]) {
        expect(problems({ fieldType: 'INCREMENTAL' }, [value]), value).toEqual([]);
      }
    });
    it('rejects negatives, fractions, leading zeros and unsafe integers', () => {
      for (const value of ['-1', '1.5', '007', 'x', '9007199254740993']) {
        expect(problems({ fieldType: 'INCREMENTAL' }, [value]), value).toHaveLength(1);
      }
    });
  });

  describe('DATE', () => {
    it('accepts real calendar dates as yyyy-MM-dd', () => {
      for (const value of ['2026-01-31', '2024-02-29', '2000-02-29', '1999-12-31']) {
        expect(problems({ fieldType: 'DATE' }, [value]), value).toEqual([]);
      }
    });
    it('rejects impossible dates and other formats', () => {
      for (const value of [
        '2026-02-30',
        '2026-02-29',
        '1900-02-29',
        '2026-13-01',
        '2026-04-31',
        '2026-00-10',
      ]) {
        expect(problems({ fieldType: 'DATE' }, [value]), value).toHaveLength(1);
      }
      for (const value of [
        '20260101',
        '2026-1-5',
        '2026-01-01 10:00',
        '01.02.2026',
        '2026-01-01T00:00:00Z',
      ]) {
        expect(problems({ fieldType: 'DATE' }, [value]), value).toHaveLength(1);
      }
    });
  });

  describe('PICKLIST and MULTISELECT', () => {
    const picklist = { fieldType: 'PICKLIST', picklistValues: ['noun', 'verb', 'Nomen'] } as const;
    const multi = { fieldType: 'MULTISELECT', picklistValues: ['red', 'green', 'blue'] } as const;

    it('accepts values of the picklist', () => {
      expect(problems(picklist, ['verb'])).toEqual([]);
      expect(problems(picklist, ['Nomen'])).toEqual([]);
      expect(problems(multi, ['red', 'blue'])).toEqual([]);
    });
    it('rejects other values, compared exactly', () => {
      expect(problems(picklist, ['adjective'])).toEqual([
        'Field "Definition": "adjective" is not one of the field\'s picklist values',
      ]);
      expect(problems(picklist, ['Noun'])).toHaveLength(1);
      expect(problems(picklist, ['noun '])).toHaveLength(1);
      expect(problems(multi, ['red', 'purple'])).toHaveLength(1);
    });
    it('rejects duplicates in MULTISELECT, once per value', () => {
      expect(problems(multi, ['red', 'red', 'red', 'blue'])).toEqual([
        'Field "Definition": value "red" is given more than once',
      ]);
    });
  });

  it('quotes long values shortened', () => {
    const [message] = problems({ fieldType: 'NUMBER' }, ['y'.repeat(1000)]);
    expect(message?.length).toBeLessThan(200);
  });
});

describe('parseFilterDate', () => {
  it('reads the four filter formats in UTC', () => {
    expect(parseFilterDate('2026-03-04 05:06:07')?.toISOString()).toBe('2026-03-04T05:06:07.000Z');
    expect(parseFilterDate('2026-03-04 05:06')?.toISOString()).toBe('2026-03-04T05:06:00.000Z');
    expect(parseFilterDate('2026-03-04')?.toISOString()).toBe('2026-03-04T00:00:00.000Z');
    expect(parseFilterDate('20260304')?.toISOString()).toBe('2026-03-04T00:00:00.000Z');
    expect(parseFilterDate(' 2024-02-29 ')?.toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(parseFilterDate('0050-01-01')?.getUTCFullYear()).toBe(50);
  });
  it('gives null for impossible dates or times and other formats', () => {
    for (const text of [
      '',
      'yesterday',
      '2026-02-30',
      '20260230',
      '2026-13-01',
      '2026-01-01 24:00',
      '2026-01-01 23:60',
      '2026-01-01 23:59:60',
      '2026-01-01T10:00:00',
      '2026-01-01 10',
      '2026-1-1',
      '202601011',
    ]) {
      expect(parseFilterDate(text), text).toBeNull();
    }
  });
});
