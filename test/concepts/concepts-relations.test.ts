// Over 500 lines by design: one area's cases share one test server per file (that keeps CI short); its describe blocks are the chapters.
/**
 * Concept relations (numeric types and attributes, both ends, relationId serial, removal with either
 * concept) and reference links (positions where a line break counts two, invalid when the target goes).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/structure.js';
import {
  type ConceptBody,
  conceptBody,
  conceptWorld,
  createConcept,
  expectBadRequest,
  getConcept,
  patchConcept,
  putConcept,
  type RelationBody,
  rows,
  type Server,
  startServer,
  termInput,
} from './concept-helpers.js';

let s: Server;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const world = () => conceptWorld(s);

/** Every (type, attribute) pair of the spec. */
const PAIRS: [number, number][] = [
  [0, 0],
  [0, 1],
  [1, 2],
  [1, 3],
  [2, 4],
  [2, 5],
  [2, 6],
  [3, 7],
  [3, 8],
  [3, 9],
  [3, 10],
  [4, 11],
];

const shape = (relation: RelationBody) => [
  relation.sourceConceptId,
  relation.targetConceptId,
  relation.type,
  relation.attribute,
];

describe('relations', () => {
  it('every type with each of its attributes is stored with its numbers and shown on both concepts', async () => {
    const w = await world();
    const targets = await Promise.all(PAIRS.map(() => createConcept(w.admin, w)));
    const source = await createConcept(w.admin, w, {
      conceptRelations: PAIRS.map(([type, attribute], index) => ({
        targetConceptId: targets[index]!.id,
        type,
        attribute,
        text: `relation ${index}`,
      })),
    });
    expect(source.conceptRelations.map(shape)).toEqual(
      PAIRS.map(([type, attribute], index) => [source.id, targets[index]!.id, type, attribute]),
    );
    expect(source.conceptRelations[3]).toMatchObject({
      dictionaryId: w.dictionary.id,
      text: 'relation 3',
      id: expect.any(Number),
      relationId: expect.any(Number),
    });
    for (const [index, target] of targets.entries()) {
      const seen = (await getConcept(w.admin, target.id)).conceptRelations;
      expect(seen).toEqual([source.conceptRelations[index]]);
    }
  });

  it('an attribute of another type is refused (400 naming the relation and the attribute)', async () => {
    const w = await world();
    const target = await createConcept(w.admin, w);
    for (const [type, attribute] of [
      [0, 2],
      [1, 0],
      [2, 7],
      [3, 11],
      [4, 0],
    ] as const) {
      const response = await w.admin.post(
        '/concepts',
        conceptBody(w, { conceptRelations: [{ targetConceptId: target.id, type, attribute }] }),
      );
      expectBadRequest(response, 'conceptRelations[0]', 'attribute', String(attribute));
    }
    for (const [type, attribute] of [
      [5, 0],
      [-1, 0],
      [0, 12],
    ] as const) {
      const response = await w.admin.post(
        '/concepts',
        conceptBody(w, { conceptRelations: [{ targetConceptId: target.id, type, attribute }] }),
      );
      expectError(response, 400);
    }
    const [count] = await rows<{ n: number }>(
      s.t,
      'select count(*)::int as n from concept_relations where dictionary_id = ?',
      [w.dictionary.id],
    );
    expect(count!.n).toBe(0);
    // Also on update.
    const related = await createConcept(w.admin, w);
    expectBadRequest(
      await patchConcept(w.admin, related, {
        conceptRelations: [{ targetConceptId: target.id, type: 4, attribute: 1 }],
      }),
      'conceptRelations[0]',
      'attribute',
    );
  });

  it('either end can edit: the target keeps the relation through its own updates and can change it', async () => {
    const w = await world();
    const target = await createConcept(w.admin, w);
    const source = await createConcept(w.admin, w, {
      conceptRelations: [{ targetConceptId: target.id, type: 2, attribute: 4, text: 'before' }],
    });
    const relation = source.conceptRelations[0]!;

    const current = await getConcept(w.admin, target.id);
    const patched = await patchConcept(w.admin, current, { fieldMap: { [w.cf.Note]: 'touched' } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.conceptRelations).toEqual([relation]);

    const changed = await putConcept(w.admin, patched.body, {
      conceptRelations: [{ ...relation, attribute: 6, text: 'after' }],
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.conceptRelations).toEqual([{ ...relation, attribute: 6, text: 'after' }]);
    expect((await getConcept(w.admin, source.id)).conceptRelations).toEqual([
      { ...relation, attribute: 6, text: 'after' },
    ]);
  });

  it('relationId: a per-dictionary serial, kept when a relation changes, new ones numbered on', async () => {
    const w = await world();
    const [a, b, c] = await Promise.all([
      createConcept(w.admin, w),
      createConcept(w.admin, w),
      createConcept(w.admin, w),
    ]);
    const first = await patchConcept(w.admin, a!, {
      conceptRelations: [
        { targetConceptId: b!.id, type: 0, attribute: 0 },
        { targetConceptId: c!.id, type: 0, attribute: 1 },
      ],
    });
    expect(first.status, first.text).toBe(200);
    expect(first.body.conceptRelations.map((relation) => relation.relationId)).toEqual([1, 2]);

    const second = await patchConcept(w.admin, first.body, {
      conceptRelations: [
        { ...first.body.conceptRelations[0]!, text: 'kept' },
        { targetConceptId: c!.id, type: 4, attribute: 11 },
      ],
    });
    expect(second.status, second.text).toBe(200);
    expect(second.body.conceptRelations.map((relation) => [relation.relationId, relation.text])).toEqual([
      [1, 'kept'],
      [3, null],
    ]);

    const fromC = await createConcept(w.admin, w, {
      conceptRelations: [{ targetConceptId: a!.id, type: 1, attribute: 3 }],
    });
    expect(fromC.conceptRelations[0]!.relationId).toBe(4);

    // Another dictionary counts on its own.
    const x = await w.admin.post<ConceptBody>('/concepts', {
      dictionaryId: w.other.dictionary.id,
      sectionOid: w.other.sectionOid,
    });
    const y = await w.admin.post<ConceptBody>('/concepts', {
      dictionaryId: w.other.dictionary.id,
      sectionOid: w.other.sectionOid,
      conceptRelations: [{ targetConceptId: x.body.id, type: 0, attribute: 0 }],
    });
    expect(y.status, y.text).toBe(201);
    expect(y.body.conceptRelations[0]!.relationId).toBe(1);
  });

  it('removed when the source concept is deleted', async () => {
    const w = await world();
    const target = await createConcept(w.admin, w);
    const source = await createConcept(w.admin, w, {
      conceptRelations: [{ targetConceptId: target.id, type: 3, attribute: 9 }],
    });
    expect((await getConcept(w.admin, target.id)).conceptRelations).toHaveLength(1);
    expect((await w.admin.delete(`/concepts/${source.id}`)).status).toBe(204);
    expect((await getConcept(w.admin, target.id)).conceptRelations).toEqual([]);
    expect(
      await rows(s.t, 'select id from concept_relations where id = ?', [source.conceptRelations[0]!.id]),
    ).toEqual([]);
  });

  it('removed when the target concept is deleted', async () => {
    const w = await world();
    const target = await createConcept(w.admin, w);
    const keep = await createConcept(w.admin, w);
    const source = await createConcept(w.admin, w, {
      conceptRelations: [
        { targetConceptId: target.id, type: 3, attribute: 9 },
        { targetConceptId: keep.id, type: 4, attribute: 11 },
      ],
    });
    expect((await w.admin.delete(`/concepts/${target.id}`)).status).toBe(204);
    const after = await getConcept(w.admin, source.id);
    expect(after.conceptRelations.map((relation) => relation.targetConceptId)).toEqual([keep.id]);
  });

  it('the other end must be a live concept of the same dictionary (another dictionary, tenant, deleted: 400)', async () => {
    const w = await world();
    const foreign = await w.admin.post<ConceptBody>('/concepts', {
      dictionaryId: w.other.dictionary.id,
      sectionOid: w.other.sectionOid,
    });
    expect(foreign.status, foreign.text).toBe(201);
    const relateTo = (targetConceptId: number) =>
      w.admin.post(
        '/concepts',
        conceptBody(w, { conceptRelations: [{ targetConceptId, type: 0, attribute: 0 }] }),
      );
    expectBadRequest(await relateTo(foreign.body.id), 'conceptRelations', String(foreign.body.id));

    const stranger = await world();
    const theirs = await createConcept(stranger.admin, stranger);
    expectBadRequest(await relateTo(theirs.id), 'conceptRelations', String(theirs.id));
    expect((await getConcept(stranger.admin, theirs.id)).conceptRelations).toEqual([]);

    const gone = await createConcept(w.admin, w);
    expect((await w.admin.delete(`/concepts/${gone.id}`)).status).toBe(204);
    expectBadRequest(await relateTo(gone.id), 'conceptRelations', String(gone.id));
    expectBadRequest(await relateTo(999_999_999), 'conceptRelations');

    // An update cannot move a relation over to another dictionary either.
    const mine = await createConcept(w.admin, w);
    expectBadRequest(
      await patchConcept(w.admin, mine, {
        conceptRelations: [{ targetConceptId: foreign.body.id, type: 0, attribute: 0 }],
      }),
      'conceptRelations',
    );
    const [count] = await rows<{ n: number }>(
      s.t,
      'select count(*)::int as n from concept_relations where dictionary_id = ?',
      [w.dictionary.id],
    );
    expect(count!.n).toBe(0);
  });

  it('a concept cannot relate to itself, and one end must be the concept written', async () => {
    const w = await world();
    const [a, b, c] = await Promise.all([
      createConcept(w.admin, w),
      createConcept(w.admin, w),
      createConcept(w.admin, w),
    ]);
    expectBadRequest(
      await patchConcept(w.admin, a!, {
        conceptRelations: [{ targetConceptId: a!.id, type: 0, attribute: 0 }],
      }),
      'conceptRelations[0]',
    );
    expectBadRequest(
      await patchConcept(w.admin, a!, {
        conceptRelations: [{ sourceConceptId: b!.id, targetConceptId: c!.id, type: 0, attribute: 0 }],
      }),
      'conceptRelations[0]',
    );
    expect((await getConcept(w.admin, b!.id)).conceptRelations).toEqual([]);
  });
});

describe('reference links', () => {
  // "see\r\nthe cat": the CR LF line break takes offsets 3 and 4, so "cat" starts at 9 (8 counting \n once).
  const DEFINITION = 'see\nthe cat';

  it('a concept link after a line break is accepted at the CR LF offset and refused at the \\n offset', async () => {
    const w = await world();
    const cat = await createConcept(w.admin, w);
    const link = (position: number) => ({
      sourceFieldOid: w.cf.Definition,
      type: 'CONCEPT',
      text: 'cat',
      position,
      conceptId: cat.id,
    });
    const refused = await w.admin.post(
      '/concepts',
      conceptBody(w, { fieldMap: { [w.cf.Definition]: DEFINITION }, refLinks: [link(8)] }),
    );
    expectBadRequest(refused, 'refLinks', 'cat', 'position 8');

    const created = await w.admin.post<ConceptBody>(
      '/concepts',
      conceptBody(w, { fieldMap: { [w.cf.Definition]: DEFINITION }, refLinks: [link(9)] }),
    );
    expect(created.status, created.text).toBe(201);
    expect(created.body.fieldMap[w.cf.Definition]).toEqual(['see\r\nthe cat']);
    expect(created.body.refLinks).toEqual([
      {
        id: expect.any(Number),
        oid: null,
        sourceConceptId: created.body.id,
        sourceTermId: null,
        sourceFieldOid: w.cf.Definition,
        type: 'CONCEPT',
        text: 'cat',
        dynamicText: null,
        position: 9,
        url: null,
        conceptId: cat.id,
        termId: null,
        languageCode: null,
        dictionaryId: w.dictionary.id,
        invalid: false,
      },
    ]);
    expect((await getConcept(w.admin, created.body.id)).refLinks).toEqual(created.body.refLinks);
  });

  it('term field links: a TERM link after two line breaks, positions counted on the stored value', async () => {
    const w = await world();
    const target = await createConcept(w.admin, w, { terms: [{ name: 'Katze', languageCode: 'deu' }] });
    const katze = target.terms[0]!;
    // "a\r\nb\r\nKatze": Katze at 6 (4 counting each \n once).
    const usage = 'a\nb\nKatze';
    const term = (position: number) => ({
      name: 'cat',
      languageCode: 'eng',
      fieldMap: { [w.tf.Usage]: usage },
      refLinks: [{ sourceFieldOid: w.tf.Usage, type: 'TERM', text: 'Katze', position, termId: katze.id }],
    });
    expectBadRequest(
      await w.admin.post('/concepts', conceptBody(w, { terms: [term(4)] })),
      'terms[0].refLinks',
      'position 4',
    );
    const created = await w.admin.post<ConceptBody>('/concepts', conceptBody(w, { terms: [term(6)] }));
    expect(created.status, created.text).toBe(201);
    const [stored] = created.body.terms;
    expect(stored!.refLinks).toMatchObject([
      {
        sourceConceptId: created.body.id,
        sourceTermId: stored!.id,
        sourceFieldOid: w.tf.Usage,
        type: 'TERM',
        text: 'Katze',
        position: 6,
        termId: katze.id,
        conceptId: target.id,
        languageCode: 'deu',
        invalid: false,
      },
    ]);
    expect(created.body.refLinks).toEqual([]);
  });

  it('links are checked: field with a value, text at its position, URL scheme, target present', async () => {
    const w = await world();
    const withLinks = (fieldMap: Record<string, string>, refLinks: unknown[]) =>
      w.admin.post('/concepts', conceptBody(w, { fieldMap, refLinks }));
    const value = { [w.cf.Definition]: 'see the manual' };
    expectBadRequest(
      await withLinks({}, [
        { sourceFieldOid: w.cf.Definition, type: 'URL', text: 'x', position: 0, url: 'https://a.b' },
      ]),
      'refLinks',
      'no value',
    );
    expectBadRequest(
      await withLinks(value, [
        { sourceFieldOid: w.cf.Definition, type: 'URL', text: 'manual', position: 3, url: 'https://a.b' },
      ]),
      'refLinks',
      'position 3',
    );
    expectBadRequest(
      await withLinks(value, [
        {
          sourceFieldOid: w.cf.Definition,
          type: 'URL',
          text: 'manual',
          position: 8,
          url: 'javascript:alert(1)',
        },
      ]),
      'refLinks',
      'url',
    );
    expectBadRequest(
      await withLinks(value, [
        {
          sourceFieldOid: w.cf.Definition,
          type: 'CONCEPT',
          text: 'manual',
          position: 8,
          conceptId: 999_999_999,
        },
      ]),
      'manual',
      '999999999',
    );
    const stranger = await world();
    const theirs = await createConcept(stranger.admin, stranger);
    expectBadRequest(
      await withLinks(value, [
        {
          sourceFieldOid: w.cf.Definition,
          type: 'CONCEPT',
          text: 'manual',
          position: 8,
          conceptId: theirs.id,
        },
      ]),
      String(theirs.id),
    );
    const fine = await withLinks(value, [
      {
        sourceFieldOid: w.cf.Definition,
        type: 'URL',
        text: 'manual',
        position: 8,
        url: 'https://example.org/m',
      },
    ]);
    expect(fine.status, fine.text).toBe(201);
  });

  it('links to a concept turn invalid when it is deleted (concept and term links, from concept and term fields)', async () => {
    const w = await world();
    const target = await createConcept(w.admin, w, { terms: [{ name: 'Katze', languageCode: 'deu' }] });
    const katze = target.terms[0]!;
    const source = await createConcept(w.admin, w, {
      fieldMap: { [w.cf.Definition]: 'a\nKatze' },
      refLinks: [
        {
          sourceFieldOid: w.cf.Definition,
          type: 'CONCEPT',
          text: 'Katze',
          position: 3,
          conceptId: target.id,
        },
      ],
      terms: [
        {
          name: 'cat',
          languageCode: 'eng',
          fieldMap: { [w.tf.Usage]: 'Katze' },
          refLinks: [
            { sourceFieldOid: w.tf.Usage, type: 'TERM', text: 'Katze', position: 0, termId: katze.id },
          ],
        },
      ],
    });
    expect(source.refLinks[0]!.invalid).toBe(false);
    expect(source.terms[0]!.refLinks[0]!.invalid).toBe(false);

    expect((await w.admin.delete(`/concepts/${target.id}`)).status).toBe(204);
    const after = await getConcept(w.admin, source.id);
    expect(after.refLinks).toMatchObject([{ conceptId: target.id, invalid: true }]);
    expect(after.terms[0]!.refLinks).toMatchObject([{ termId: katze.id, invalid: true }]);
  });

  it('an invalid link stays invalid (and does not block) through later writes of its concept; new links to gone targets are refused', async () => {
    const w = await world();
    const target = await createConcept(w.admin, w, { terms: [{ name: 'Katze', languageCode: 'deu' }] });
    const source = await createConcept(w.admin, w, {
      fieldMap: { [w.cf.Definition]: 'see Katze' },
      refLinks: [
        { sourceFieldOid: w.cf.Definition, type: 'CONCEPT', text: 'see', position: 0, conceptId: target.id },
        {
          sourceFieldOid: w.cf.Definition,
          type: 'TERM',
          text: 'Katze',
          position: 4,
          termId: target.terms[0]!.id,
        },
      ],
    });
    expect((await w.admin.delete(`/concepts/${target.id}`)).status).toBe(204);
    const invalid = await getConcept(w.admin, source.id);
    expect(invalid.refLinks.map((link) => link.invalid)).toEqual([true, true]);

    const patched = await patchConcept(w.admin, invalid, { fieldMap: { [w.cf.Note]: 'unrelated' } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.refLinks.map((link) => [link.text, link.invalid])).toEqual([
      ['see', true],
      ['Katze', true],
    ]);
    const put = await putConcept(w.admin, patched.body, {
      fieldMap: { ...patched.body.fieldMap, [w.cf.Note]: 'again' },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.refLinks.map((link) => link.invalid)).toEqual([true, true]);

    const fresh = await w.admin.post(
      '/concepts',
      conceptBody(w, {
        fieldMap: { [w.cf.Definition]: 'see' },
        refLinks: [
          {
            sourceFieldOid: w.cf.Definition,
            type: 'CONCEPT',
            text: 'see',
            position: 0,
            conceptId: target.id,
          },
        ],
      }),
    );
    expectBadRequest(fresh, String(target.id));
  });

  it('a link to a term turns invalid when the term is removed from its concept', async () => {
    const w = await world();
    const target = await createConcept(w.admin, w, {
      terms: [
        { name: 'Katze', languageCode: 'deu' },
        { name: 'chat', languageCode: 'fra' },
      ],
    });
    const [katze, chat] = target.terms;
    const source = await createConcept(w.admin, w, {
      fieldMap: { [w.cf.Definition]: 'Katze chat' },
      refLinks: [
        { sourceFieldOid: w.cf.Definition, type: 'TERM', text: 'Katze', position: 0, termId: katze!.id },
        { sourceFieldOid: w.cf.Definition, type: 'TERM', text: 'chat', position: 6, termId: chat!.id },
      ],
    });
    const removed = await patchConcept(w.admin, target, { terms: [termInput(chat!)] });
    expect(removed.status, removed.text).toBe(200);
    const after = await getConcept(w.admin, source.id);
    expect(after.refLinks.map((link) => [link.termId, link.invalid])).toEqual([
      [katze!.id, true],
      [chat!.id, false],
    ]);
  });

  it('links are rewritten with their fields: a patch without refLinks keeps them, a PUT without them drops them', async () => {
    const w = await world();
    const target = await createConcept(w.admin, w);
    const source = await createConcept(w.admin, w, {
      fieldMap: { [w.cf.Definition]: 'see it' },
      refLinks: [
        { sourceFieldOid: w.cf.Definition, type: 'CONCEPT', text: 'it', position: 4, conceptId: target.id },
      ],
    });
    const patched = await patchConcept(w.admin, source, { fieldMap: { [w.cf.Note]: 'n' } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.refLinks).toMatchObject([{ text: 'it', position: 4, conceptId: target.id }]);

    // Changing the value under a kept link must move the link too.
    expectBadRequest(
      await patchConcept(w.admin, patched.body, { fieldMap: { [w.cf.Definition]: 'look at it' } }),
      'refLinks',
      'position 4',
    );

    const put = await putConcept(w.admin, patched.body, { refLinks: undefined });
    expect(put.status, put.text).toBe(200);
    expect(put.body.refLinks).toEqual([]);
  });
});
