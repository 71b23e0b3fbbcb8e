/**
 * Concept writes checked against the dictionary's structure: field models, languages and variants,
 * sections, domains and term names. Every refusal is a 400 naming the field, and stores nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDictionary, dictionaryInput, getDictionary, updateDictionary } from '../helpers/structure.js';
import {
  type Answer,
  type ConceptBody,
  conceptBody,
  conceptWorld,
  countRows,
  createConcept,
  expectBadRequest,
  getConcept,
  patchConcept,
  putConcept,
  rows,
  type Server,
  startServer,
  type World,
} from './concept-helpers.js';

let s: Server;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const world = () => conceptWorld(s);

/** POST /concepts with the world's defaults and `body` on top. */
const create = (w: World, body: Record<string, unknown>) =>
  w.admin.post<ConceptBody>('/concepts', conceptBody(w, body));

/** A create with one concept field value. */
const withConceptValue = (w: World, oid: string, value: string | string[]) =>
  create(w, { fieldMap: { [oid]: value } });

/** A create with one term field value on an English term. */
const withTermValue = (w: World, oid: string, value: string | string[]) =>
  create(w, { terms: [{ name: 'term', languageCode: 'eng', fieldMap: { [oid]: value } }] });

/** Expects the write to be refused with a 400 naming `words`, having stored nothing in the world's dictionary. */
async function expectRefused(w: World, write: () => Promise<Answer<unknown>>, ...words: string[]) {
  const before = await countRows(s.t, w.dictionary.id);
  expectBadRequest(await write(), ...words);
  expect(await countRows(s.t, w.dictionary.id)).toEqual(before);
}

const accepted = (response: Answer<ConceptBody>) => {
  expect(response.status, response.text).toBe(201);
  return response.body;
};

describe('field values', () => {
  it('required: a concept or term field without a value (or a blank one) is refused', async () => {
    const w = await world();
    const strict = await createDictionary(w.adminRest, {
      languages: [{ code: 'eng' }],
      conceptFields: [{ name: 'Subject', fieldType: 'SINGLELINE', model: { required: true } }],
      termFields: [{ name: 'Source', fieldType: 'SINGLELINE', model: { required: true } }],
    });
    const subject = strict.conceptFields[0]!.oid!;
    const source = strict.termFields[0]!.oid!;
    const body = (fieldMap: Record<string, string>, termMap: Record<string, string>) => ({
      dictionaryId: strict.id,
      sectionOid: strict.sections[0]!.oid,
      fieldMap,
      terms: [{ name: 'word', languageCode: 'eng', fieldMap: termMap }],
    });
    expectBadRequest(
      await w.admin.post('/concepts', body({}, { [source]: 'book' })),
      'fieldMap',
      'Field "Subject"',
      'required',
    );
    expectBadRequest(
      await w.admin.post('/concepts', body({ [subject]: '   ' }, { [source]: 'book' })),
      'Field "Subject"',
      'required',
    );
    expectBadRequest(
      await w.admin.post('/concepts', body({ [subject]: 'maths' }, {})),
      'terms[0].fieldMap',
      'Field "Source"',
      'required',
    );
    expect((await countRows(s.t, strict.id)).concepts).toBe(0);
    const created = await w.admin.post<ConceptBody>(
      '/concepts',
      body({ [subject]: 'maths' }, { [source]: 'book' }),
    );
    expect(created.status, created.text).toBe(201);
    // A patch that clears a required field is refused too.
    expectBadRequest(await patchConcept(w.admin, created.body, { fieldMap: { [subject]: null } }), 'Subject');
  });

  it('minLen and maxLen', async () => {
    const w = await world();
    await expectRefused(w, () => withConceptValue(w, w.cf.Short, 'ab'), 'Field "Short"', 'at least 3');
    await expectRefused(w, () => withConceptValue(w, w.cf.Short, 'abcdef'), 'Field "Short"', 'at most 5');
    expect(accepted(await withConceptValue(w, w.cf.Short, 'abc')).fieldMap[w.cf.Short]).toEqual(['abc']);
    expect(accepted(await withConceptValue(w, w.cf.Short, 'abcde')).fieldMap[w.cf.Short]).toEqual(['abcde']);
  });

  it('regExp: the whole value must match the pattern', async () => {
    const w = await world();
    await expectRefused(w, () => withConceptValue(w, w.cf.Code, 'abc'), 'Field "Code"', 'pattern');
    await expectRefused(w, () => withConceptValue(w, w.cf.Code, 'ABCD'), 'Field "Code"', 'pattern');
    expect(accepted(await withConceptValue(w, w.cf.Code, 'ABC')).fieldMap[w.cf.Code]).toEqual(['ABC']);
  });

  it('picklist values: item names and TBX names only', async () => {
    const w = await world();
    await expectRefused(w, () => withConceptValue(w, w.cf.Status, 'old'), 'Field "Status"', 'picklist');
    await expectRefused(w, () => withTermValue(w, w.tf.Gender, 'neuter'), 'terms[0].fieldMap', 'Gender');
    expect(accepted(await withConceptValue(w, w.cf.Status, 'new')).fieldMap[w.cf.Status]).toEqual(['new']);
    expect(accepted(await withConceptValue(w, w.cf.Status, 'approved')).fieldMap[w.cf.Status]).toEqual([
      'approved',
    ]);
    const term = accepted(await withTermValue(w, w.tf.Gender, 'masculine')).terms[0]!;
    expect(term.fieldMap[w.tf.Gender]).toEqual(['masculine']);
  });

  it('MULTISELECT takes several values (each allowed, none twice); every other kind takes one', async () => {
    const w = await world();
    const multi = accepted(await withConceptValue(w, w.cf.Tags, ['a', 'c']));
    expect(multi.fieldMap[w.cf.Tags]).toEqual(['a', 'c']);
    const labels = accepted(await withTermValue(w, w.tf.Labels, ['x', 'y'])).terms[0]!;
    expect(labels.fieldMap[w.tf.Labels]).toEqual(['x', 'y']);

    await expectRefused(w, () => withConceptValue(w, w.cf.Tags, ['a', 'z']), 'Field "Tags"', '"z"');
    await expectRefused(
      w,
      () => withConceptValue(w, w.cf.Tags, ['a', 'a']),
      'Field "Tags"',
      'more than once',
    );
    await expectRefused(
      w,
      () => withConceptValue(w, w.cf.Status, ['new', 'approved']),
      'Status',
      'one value',
    );
    await expectRefused(w, () => withConceptValue(w, w.cf.Note, ['one', 'two']), 'Field "Note"', 'one value');
    await expectRefused(w, () => withTermValue(w, w.tf.Usage, ['one', 'two']), 'Field "Usage"', 'one value');
  });

  it('DATE: yyyy-MM-dd of a real calendar day', async () => {
    const w = await world();
    for (const bad of ['2024/01/01', '2023-02-29', '01.02.2024', '2024-1-5', '2024-01-01 10:00']) {
      await expectRefused(w, () => withConceptValue(w, w.cf.Due, bad), 'Field "Due"', 'yyyy-MM-dd');
    }
    expect(accepted(await withConceptValue(w, w.cf.Due, '2024-02-29')).fieldMap[w.cf.Due]).toEqual([
      '2024-02-29',
    ]);
  });

  it('NUMBER: a decimal number', async () => {
    const w = await world();
    for (const bad of ['abc', '1e5', '1,5', '+3', '.5']) {
      await expectRefused(w, () => withConceptValue(w, w.cf.Amount, bad), 'Field "Amount"', 'number');
    }
    for (const good of ['42', '-1.5', '0']) {
      expect(accepted(await withConceptValue(w, w.cf.Amount, good)).fieldMap[w.cf.Amount]).toEqual([good]);
    }
  });

  it('INCREMENTAL: a whole number, unique per field in the dictionary (concept and term level)', async () => {
    const w = await world();
    await expectRefused(w, () => withConceptValue(w, w.cf.Serial, 'x7'), 'Field "Serial"', 'whole number');
    const first = accepted(await withConceptValue(w, w.cf.Serial, '7'));
    const again = await withConceptValue(w, w.cf.Serial, '7');
    expectBadRequest(again, 'Field "Serial"', '7', 'already used');
    expect((await countRows(s.t, w.dictionary.id)).concepts).toBe(1);

    // The concept keeps its own value through an update.
    const kept = await patchConcept(w.admin, first, { fieldMap: { [w.cf.Note]: 'still 7' } });
    expect(kept.status, kept.text).toBe(200);
    expect(kept.body.fieldMap[w.cf.Serial]).toEqual(['7']);

    // Another dictionary may use the same value.
    const elsewhere = await createDictionary(w.adminRest, {
      languages: [{ code: 'eng' }],
      conceptFields: [{ name: 'Serial', fieldType: 'INCREMENTAL' }],
    });
    const response = await w.admin.post('/concepts', {
      dictionaryId: elsewhere.id,
      sectionOid: elsewhere.sections[0]!.oid,
      fieldMap: { [elsewhere.conceptFields[0]!.oid!]: '7' },
    });
    expect(response.status, response.text).toBe(201);

    // Term level: unique among other concepts' terms; two terms of one write may not share a value.
    accepted(await withTermValue(w, w.tf.TermSerial, '3'));
    expectBadRequest(await withTermValue(w, w.tf.TermSerial, '3'), 'TermSerial', 'already used');
    expectBadRequest(
      await create(w, {
        terms: [
          { name: 'one', languageCode: 'eng', fieldMap: { [w.tf.TermSerial]: '9' } },
          { name: 'two', languageCode: 'deu', fieldMap: { [w.tf.TermSerial]: '9' } },
        ],
      }),
      'terms[1].fieldMap',
      'TermSerial',
    );
  });

  it('INCREMENTAL: a value of a deleted concept can be used again', async () => {
    const w = await world();
    const first = accepted(await withConceptValue(w, w.cf.Serial, '11'));
    expect((await w.admin.delete(`/concepts/${first.id}`)).status).toBe(204);
    accepted(await withConceptValue(w, w.cf.Serial, '11'));
  });

  it('INCREMENTAL: two concurrent creates with the same value, exactly one wins', async () => {
    const w = await world();
    for (let round = 0; round < 3; round++) {
      const value = String(100 + round);
      const answers = await Promise.all([
        withConceptValue(w, w.cf.Serial, value),
        withConceptValue(w, w.cf.Serial, value),
        withConceptValue(w, w.cf.Serial, value),
      ]);
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses, answers.map((answer) => answer.text).join('\n')).toEqual([201, 400, 400]);
      for (const loser of answers.filter((answer) => answer.status === 400)) {
        expectBadRequest(loser, 'Serial', 'already used');
      }
      const stored = await rows(
        s.t,
        'select id from concepts where dictionary_id = ? and field_map -> ? @> to_jsonb(?::text)',
        [w.dictionary.id, w.cf.Serial, value],
      );
      expect(stored).toHaveLength(1);
    }
  });

  it('16383 characters at most (a line break counts one), on concept and term fields', async () => {
    const w = await world();
    const longest = 'x'.repeat(16383);
    expect(accepted(await withConceptValue(w, w.cf.Definition, longest)).fieldMap[w.cf.Definition]).toEqual([
      longest,
    ]);
    await expectRefused(w, () => withConceptValue(w, w.cf.Definition, `${longest}y`), 'Definition', '16383');
    await expectRefused(w, () => withTermValue(w, w.tf.Usage, `${longest}y`), 'Usage', '16383');
    await expectRefused(w, () => withConceptValue(w, w.cf.Note, `${longest}y`), 'Note', '16383');

    const withBreak = `${'x'.repeat(16381)}\nx`;
    const stored = accepted(await withConceptValue(w, w.cf.Definition, withBreak)).fieldMap[
      w.cf.Definition
    ]![0]!;
    expect(stored).toBe(`${'x'.repeat(16381)}\r\nx`);
  });

  it('line breaks are stored as CR LF whatever was sent (\\n, \\r, \\r\\n); single-line fields refuse them', async () => {
    const w = await world();
    const created = accepted(
      await create(w, {
        fieldMap: { [w.cf.Definition]: 'one\ntwo\rthree\r\nfour' },
        terms: [{ name: 'term', languageCode: 'eng', fieldMap: { [w.tf.Usage]: 'a\nb' } }],
      }),
    );
    expect(created.fieldMap[w.cf.Definition]).toEqual(['one\r\ntwo\r\nthree\r\nfour']);
    expect(created.terms[0]!.fieldMap[w.tf.Usage]).toEqual(['a\r\nb']);
    const [row] = await rows<{ field_map: Record<string, string[]> }>(
      s.t,
      'select field_map from concepts where id = ?',
      [created.id],
    );
    expect(row!.field_map[w.cf.Definition]).toEqual(['one\r\ntwo\r\nthree\r\nfour']);
    expect((await getConcept(w.admin, created.id)).fieldMap[w.cf.Definition]).toEqual([
      'one\r\ntwo\r\nthree\r\nfour',
    ]);

    // Updates store CR LF too.
    const patched = await patchConcept(w.admin, created, { fieldMap: { [w.cf.Definition]: 'x\ny' } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.fieldMap[w.cf.Definition]).toEqual(['x\r\ny']);

    expectBadRequest(await withConceptValue(w, w.cf.Note, 'one\ntwo'), 'Field "Note"', 'line breaks');
  });

  it('an unknown field oid, or a field of the other level, is refused naming the oid', async () => {
    const w = await world();
    await expectRefused(w, () => withConceptValue(w, 'no-such-field', 'x'), 'fieldMap', 'no-such-field');
    await expectRefused(w, () => withConceptValue(w, w.tf.Usage, 'x'), 'fieldMap', w.tf.Usage);
    await expectRefused(
      w,
      () => withTermValue(w, w.cf.Definition, 'x'),
      'terms[0].fieldMap',
      w.cf.Definition,
    );
    await expectRefused(
      w,
      () => withConceptValue(w, w.other.cf.Definition!, 'x'),
      'fieldMap',
      w.other.cf.Definition!,
    );
  });

  it('values of a field later removed from the dictionary do not block writes that leave them alone', async () => {
    const w = await world();
    const created = accepted(await create(w, { fieldMap: { [w.cf.Note]: 'kept note', [w.cf.Amount]: '1' } }));
    const current = await getDictionary(w.adminRest, w.dictionary.id);
    const removed = await updateDictionary(w.adminRest, current, {
      conceptFields: dictionaryInput(current).conceptFields.filter((field) => field.name !== 'Note'),
    });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.conceptFields.map((field) => field.name)).not.toContain('Note');

    const patched = await patchConcept(w.admin, created, { fieldMap: { [w.cf.Amount]: '2' } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.fieldMap[w.cf.Amount]).toEqual(['2']);
    // Sending the removed field is refused, naming it.
    expectBadRequest(
      await patchConcept(w.admin, patched.body, { fieldMap: { [w.cf.Note]: 'new' } }),
      w.cf.Note,
    );
  });

  it('one 400 names every wrong field', async () => {
    const w = await world();
    const write = () =>
      create(w, {
        fieldMap: { [w.cf.Due]: 'soon', [w.cf.Amount]: 'many' },
        terms: [{ name: '', languageCode: 'xx' }],
      });
    await expectRefused(w, write, 'Due', 'Amount', 'terms[0]', 'name', 'languageCode');
  });

  it('an invalid update is refused (400) and changes nothing', async () => {
    const w = await world();
    const created = accepted(await withConceptValue(w, w.cf.Amount, '1'));
    const full = await putConcept(w.admin, created, { fieldMap: { [w.cf.Amount]: 'one' } });
    expectBadRequest(full, 'Amount');
    const patch = await patchConcept(w.admin, created, {
      terms: [{ id: created.terms[0]!.id, name: ' ', languageCode: 'eng' }],
    });
    expectBadRequest(patch, 'terms[0]', 'name');
    expect(await getConcept(w.admin, created.id)).toEqual(created);
  });
});

describe('languages, variants, sections, domains, names', () => {
  it('languageCode must be a language of the dictionary (case does not matter)', async () => {
    const w = await world();
    await expectRefused(
      w,
      () => create(w, { terms: [{ name: 'ciao', languageCode: 'ita' }] }),
      'languageCode',
      'ita',
    );
    await expectRefused(w, () => create(w, { terms: [{ name: 'x', languageCode: 'xyz' }] }), 'languageCode');
    // The other dictionary's only language is French, not German.
    const elsewhere = await w.admin.post('/concepts', {
      dictionaryId: w.other.dictionary.id,
      sectionOid: w.other.sectionOid,
      terms: [{ name: 'Haus', languageCode: 'deu' }],
    });
    expectBadRequest(elsewhere, 'languageCode', 'deu');
    const created = accepted(await create(w, { terms: [{ name: 'Haus', languageCode: 'DEU' }] }));
    expect(created.terms[0]!.languageCode).toBe('deu');
  });

  it('regionCode and scriptCode must be variants defined for the language', async () => {
    const w = await world();
    await expectRefused(
      w,
      () => create(w, { terms: [{ name: 'color', languageCode: 'eng', regionCode: 'AU' }] }),
      'regionCode',
      'AU',
    );
    await expectRefused(
      w,
      () => create(w, { terms: [{ name: 'color', languageCode: 'eng', scriptCode: 'Cyrl' }] }),
      'scriptCode',
      'Cyrl',
    );
    // US is a region of English, not of German; a script code is no region.
    await expectRefused(
      w,
      () => create(w, { terms: [{ name: 'Farbe', languageCode: 'deu', regionCode: 'US' }] }),
      'regionCode',
    );
    await expectRefused(
      w,
      () => create(w, { terms: [{ name: 'color', languageCode: 'eng', regionCode: 'Latn' }] }),
      'regionCode',
    );
    const created = accepted(
      await create(w, {
        terms: [{ name: 'color', languageCode: 'eng', regionCode: 'us', scriptCode: 'LATN' }],
      }),
    );
    expect(created.terms[0]).toMatchObject({ regionCode: 'US', scriptCode: 'latn' });
  });

  it('sectionOid must be a section of the dictionary', async () => {
    const w = await world();
    await expectRefused(
      w,
      () => create(w, { sectionOid: w.other.sectionOid }),
      'sectionOid',
      w.other.sectionOid,
    );
    await expectRefused(w, () => create(w, { sectionOid: 'no-such-section' }), 'sectionOid');
    const created = accepted(await create(w, { sectionOid: w.section2.oid }));
    expect(created.sectionOid).toBe(w.section2.oid);
    expectBadRequest(await putConcept(w.admin, created, { sectionOid: w.other.sectionOid }), 'sectionOid');
    expect((await getConcept(w.admin, created.id)).sectionOid).toBe(w.section2.oid);
  });

  it('domainList must hold domains of the dictionary', async () => {
    const w = await world();
    await expectRefused(
      w,
      () => create(w, { domainList: [w.other.domainOid] }),
      'domainList',
      w.other.domainOid,
    );
    await expectRefused(w, () => create(w, { domainList: [w.domain.oid, 'nope'] }), 'domainList', 'nope');
    const created = accepted(await create(w, { domainList: [w.domain.oid] }));
    expect(created.domainList).toEqual([w.domain.oid]);
    expectBadRequest(await patchConcept(w.admin, created, { domainList: [w.other.domainOid] }), 'domainList');
  });

  it('a concept cannot move to another dictionary', async () => {
    const w = await world();
    const created = await createConcept(w.admin, w);
    expectBadRequest(
      await putConcept(w.admin, created, {
        dictionaryId: w.other.dictionary.id,
        sectionOid: w.other.sectionOid,
      }),
      'dictionaryId',
    );
  });

  it('a term name is required (empty or blank refused) and trimmed', async () => {
    const w = await world();
    await expectRefused(
      w,
      () => create(w, { terms: [{ name: '', languageCode: 'eng' }] }),
      'terms[0]',
      'name',
    );
    await expectRefused(
      w,
      () =>
        create(w, {
          terms: [
            { name: 'fine', languageCode: 'eng' },
            { name: ' \t ', languageCode: 'deu' },
          ],
        }),
      'terms[1]',
      'name',
    );
    const missing = await create(w, { terms: [{ languageCode: 'eng' }] });
    expect(missing.status, missing.text).toBe(400);
    const created = accepted(await create(w, { terms: [{ name: '\t spaced out  ', languageCode: 'eng' }] }));
    expect(created.terms[0]!.name).toBe('spaced out');
    const renamed = await patchConcept(w.admin, created, {
      terms: [{ id: created.terms[0]!.id, name: '  renamed ', languageCode: 'eng' }],
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.terms[0]!.name).toBe('renamed');
  });
});
