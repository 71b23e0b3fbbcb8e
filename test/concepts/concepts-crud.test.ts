// Over 500 lines by design: one area's cases share one test server per file (that keeps CI short); its describe blocks are the chapters.
/**
 * Concept reads (by id, oid, term id/oid/ids, the GET /concepts finder), writes (create in one
 * transaction, full update, patch, soft delete) and the per-dictionary serials cid, tid and relationId.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, uniqueSuffix } from '../helpers/structure.js';
import {
  type ConceptBody,
  conceptBody,
  conceptInput,
  conceptWorld,
  countRows,
  createConcept,
  expectBadRequest,
  getConcept,
  patchConcept,
  putConcept,
  rows,
  type Server,
  setOid,
  startServer,
  termInput,
  userOf,
  type World,
} from './concept-helpers.js';

let s: Server;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const world = () => conceptWorld(s);

/** A concept with an English and a German term, a definition, a tag pair and the world's domain. */
const richConcept = (w: World) =>
  createConcept(w.admin, w, {
    domainList: [w.domain.oid],
    fieldMap: { [w.cf.Definition]: 'A small animal', [w.cf.Tags]: ['a', 'b'] },
    terms: [
      { name: 'cat', languageCode: 'eng', regionCode: 'US', fieldMap: { [w.tf.Gender]: 'feminine' } },
      { name: 'Katze', languageCode: 'deu' },
    ],
  });

describe('reads', () => {
  it('GET /concepts/{id}: FULL by default with every attribute; create answers the same object', async () => {
    const w = await world();
    const created = await richConcept(w);
    expect(created).toMatchObject({
      cid: expect.any(String),
      version: 1,
      clientId: w.tenant.id,
      dictionaryId: w.dictionary.id,
      deleted: false,
      sectionOid: w.section.oid,
      sectionId: w.section.id,
      domainList: [w.domain.oid],
      fieldMap: { [w.cf.Definition]: ['A small animal'], [w.cf.Tags]: ['a', 'b'] },
      conceptRelations: [],
      refLinks: [],
      comments: [],
      lock: null,
      created: { name: 'admin' },
      changed: { name: 'admin' },
    });
    expect(created.terms.map((term) => [term.name, term.languageCode, term.regionCode])).toEqual([
      ['cat', 'eng', 'US'],
      ['Katze', 'deu', null],
    ]);
    expect(created.terms[0]).toMatchObject({
      conceptId: created.id,
      dictionaryId: w.dictionary.id,
      fieldMap: { [w.tf.Gender]: ['feminine'] },
      deleted: false,
    });
    // A new concept cannot have been changed before it was created.
    expect(created.changed.time).toBeGreaterThanOrEqual(created.created.time);

    const read = await w.admin.get<ConceptBody>(`/concepts/${created.id}`);
    expect(read.status, read.text).toBe(200);
    expect(read.body).toEqual(created);
    expect((await w.admin.get(`/concepts/${created.id}?format=FULL`)).body).toEqual(created);
  });

  it('format ID answers the id only; SHORT the basics (cid, dictionaryId, sectionOid, terms, version)', async () => {
    const w = await world();
    const created = await richConcept(w);
    const asId = await w.admin.get<ConceptBody>(`/concepts/${created.id}?format=ID`);
    expect(asId.status, asId.text).toBe(200);
    expect(asId.body).toEqual({ id: created.id });

    const short = await w.admin.get<ConceptBody>(`/concepts/${created.id}?format=SHORT`);
    expect(short.status, short.text).toBe(200);
    expect(Object.keys(short.body).sort()).toEqual(
      ['cid', 'dictionaryId', 'id', 'sectionOid', 'terms', 'version'].sort(),
    );
    expect(short.body).toMatchObject({
      id: created.id,
      cid: created.cid,
      dictionaryId: w.dictionary.id,
      sectionOid: w.section.oid,
      version: created.version,
    });
    expect(short.body.terms.map((term) => term.name)).toEqual(['cat', 'Katze']);

    expectError(await w.admin.get(`/concepts/${created.id}?format=HUGE`), 400);
  });

  it('with-comments is accepted: true answers the comments, false an empty list', async () => {
    const w = await world();
    const created = await richConcept(w);
    const posted = await w.admin.post(`/comments?entry-id=${created.id}`, { text: 'Check the definition' });
    expect(posted.status, posted.text).toBe(201);

    const withComments = await w.admin.get<ConceptBody>(`/concepts/${created.id}?with-comments=true`);
    expect(withComments.status, withComments.text).toBe(200);
    expect(withComments.body.comments).toMatchObject([{ text: 'Check the definition' }]);
    const without = await w.admin.get<ConceptBody>(`/concepts/${created.id}?with-comments=false`);
    expect(without.status, without.text).toBe(200);
    expect(without.body.comments).toEqual([]);
  });

  it('unknown ids answer 404', async () => {
    const w = await world();
    expectError(await w.admin.get('/concepts/999999999'), 404);
    expectError(await w.admin.get('/concepts/oid/no-such-oid'), 404);
    expectError(await w.admin.get('/concepts/find-by-term-id?term-id=999999999'), 404);
    expectError(await w.admin.get('/concepts/find-by-term-oid?term-oid=no-such-oid'), 404);
  });

  it('GET /concepts/oid/{oid} finds a concept by its oid; another tenant gets 404', async () => {
    const w = await world();
    const created = await richConcept(w);
    const oid = `C-${created.id}-${Math.random().toString(36).slice(2)}`;
    await setOid(s.t, 'concepts', created.id, oid);

    const read = await w.admin.get<ConceptBody>(`/concepts/oid/${encodeURIComponent(oid)}`);
    expect(read.status, read.text).toBe(200);
    expect(read.body).toMatchObject({ id: created.id, oid, cid: created.cid });
    expect(read.body.terms.every((term) => term.conceptOid === oid)).toBe(true);
    const asId = await w.admin.get(`/concepts/oid/${encodeURIComponent(oid)}?format=ID`);
    expect(asId.body).toEqual({ id: created.id });

    const stranger = await world();
    expectError(await stranger.admin.get(`/concepts/oid/${encodeURIComponent(oid)}`), 404);
  });

  it('find-by-term-id and find-by-term-oid answer the concept of the term', async () => {
    const w = await world();
    const created = await richConcept(w);
    const german = created.terms.find((term) => term.languageCode === 'deu')!;
    const byId = await w.admin.get<ConceptBody>(`/concepts/find-by-term-id?term-id=${german.id}`);
    expect(byId.status, byId.text).toBe(200);
    expect(byId.body).toEqual(created);

    const termOid = `T-${german.id}-${Math.random().toString(36).slice(2)}`;
    await setOid(s.t, 'terms', german.id, termOid);
    const byOid = await w.admin.get<ConceptBody>(`/concepts/find-by-term-oid?term-oid=${termOid}`);
    expect(byOid.status, byOid.text).toBe(200);
    expect(byOid.body.id).toBe(created.id);
    expect(byOid.body.terms.find((term) => term.id === german.id)?.oid).toBe(termOid);

    const stranger = await world();
    expectError(await stranger.admin.get(`/concepts/find-by-term-id?term-id=${german.id}`), 404);
    expectError(await stranger.admin.get(`/concepts/find-by-term-oid?term-oid=${termOid}`), 404);
  });

  it('find-by-term-ids answers the concepts of the terms, each once, in the order of the terms', async () => {
    const w = await world();
    const first = await richConcept(w);
    const second = await createConcept(w.admin, w);
    const [cat, katze] = first.terms;
    const other = second.terms[0]!;

    const listed = await w.admin.get<ConceptBody[]>(
      `/concepts/find-by-term-ids?term-ids=${other.id},${cat!.id},${katze!.id}`,
    );
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.map((concept) => concept.id)).toEqual([second.id, first.id]);
    expect(listed.body[1]).toEqual(first);

    // The repeated form of the array parameter too.
    const repeated = await w.admin.get<ConceptBody[]>(
      `/concepts/find-by-term-ids?term-ids=${cat!.id}&term-ids=${other.id}`,
    );
    expect(repeated.status, repeated.text).toBe(200);
    expect(repeated.body.map((concept) => concept.id)).toEqual([first.id, second.id]);

    const single = await w.admin.get<ConceptBody[]>(`/concepts/find-by-term-ids?term-ids=${cat!.id}`);
    expect(single.status, single.text).toBe(200);
    expect(single.body.map((concept) => concept.id)).toEqual([first.id]);

    expectError(await w.admin.get(`/concepts/find-by-term-ids?term-ids=${cat!.id},999999999`), 404);
  });

  it('term finders: a removed term finds nothing (404); term ids must be numbers (400)', async () => {
    const w = await world();
    const created = await richConcept(w);
    const [cat, katze] = created.terms;
    const shrunk = await patchConcept(w.admin, created, { terms: [termInput(katze!)] });
    expect(shrunk.status, shrunk.text).toBe(200);
    expectError(await w.admin.get(`/concepts/find-by-term-id?term-id=${cat!.id}`), 404);
    expectError(await w.admin.get(`/concepts/find-by-term-ids?term-ids=${cat!.id}`), 404);
    expectError(await w.admin.get(`/concepts?term-id=${cat!.id}`), 404);
    expectError(await w.admin.get('/concepts/find-by-term-ids?term-ids=abc'), 400);
    expectError(await w.admin.get('/concepts/find-by-term-id?term-id=abc'), 400);
    expectError(await w.admin.get('/concepts?term-id=1,x'), 400);
  });

  it('GET /concepts with exactly one of oid, term-oid and term-id; several term-id values answer an array', async () => {
    const w = await world();
    const first = await richConcept(w);
    const second = await createConcept(w.admin, w);
    const oid = `C-${first.id}-${Math.random().toString(36).slice(2)}`;
    await setOid(s.t, 'concepts', first.id, oid);
    const termOid = `T-${second.terms[0]!.id}-${Math.random().toString(36).slice(2)}`;
    await setOid(s.t, 'terms', second.terms[0]!.id, termOid);

    const byOid = await w.admin.get<ConceptBody>(`/concepts?oid=${oid}`);
    expect(byOid.status, byOid.text).toBe(200);
    expect(byOid.body).toMatchObject({ id: first.id, oid });

    const byTermOid = await w.admin.get<ConceptBody>(`/concepts?term-oid=${termOid}`);
    expect(byTermOid.status, byTermOid.text).toBe(200);
    expect(byTermOid.body.id).toBe(second.id);

    const byTermId = await w.admin.get<ConceptBody>(`/concepts?term-id=${first.terms[1]!.id}`);
    expect(byTermId.status, byTermId.text).toBe(200);
    expect(Array.isArray(byTermId.body)).toBe(false);
    expect(byTermId.body.id).toBe(first.id);

    const several = await w.admin.get<ConceptBody[]>(
      `/concepts?term-id=${second.terms[0]!.id}&term-id=${first.terms[0]!.id}`,
    );
    expect(several.status, several.text).toBe(200);
    expect(several.body.map((concept) => concept.id)).toEqual([second.id, first.id]);

    const withFormat = await w.admin.get(`/concepts?term-id=${first.terms[0]!.id}&format=ID`);
    expect(withFormat.body).toEqual({ id: first.id });

    expectBadRequest(await w.admin.get('/concepts'), 'oid');
    expectBadRequest(await w.admin.get(`/concepts?oid=${oid}&term-id=${first.terms[0]!.id}`), 'exactly one');
    expectBadRequest(await w.admin.get(`/concepts?oid=${oid}&term-oid=${termOid}`), 'exactly one');
    expectBadRequest(
      await w.admin.get(`/concepts?term-oid=${termOid}&term-id=${first.terms[0]!.id}`),
      'exactly one',
    );
  });

  it('a deleted concept answers 404 to every read; include-deleted shows it to administrators only', async () => {
    const w = await world();
    const created = await richConcept(w);
    const oid = `C-${created.id}-${Math.random().toString(36).slice(2)}`;
    await setOid(s.t, 'concepts', created.id, oid);
    const reader = await userOf(s, w, [`DICTIONARY_ADMIN@${w.dictionary.oid}`]);
    expect((await reader.api.get(`/concepts/${created.id}`)).status).toBe(200);

    expect((await w.admin.delete(`/concepts/${created.id}`)).status).toBe(204);

    const termId = created.terms[0]!.id;
    for (const path of [
      `/concepts/${created.id}`,
      `/concepts/oid/${oid}`,
      `/concepts?oid=${oid}`,
      `/concepts/find-by-term-id?term-id=${termId}`,
      `/concepts/find-by-term-ids?term-ids=${termId}`,
      `/concepts?term-id=${termId}`,
    ]) {
      expectError(await w.admin.get(path), 404);
    }

    const shown = await w.admin.get<ConceptBody>(`/concepts/${created.id}?include-deleted=true`);
    expect(shown.status, shown.text).toBe(200);
    expect(shown.body).toMatchObject({ id: created.id, deleted: true, cid: created.cid });
    expect(shown.body.terms.map((term) => [term.name, term.deleted])).toEqual([
      ['cat', true],
      ['Katze', true],
    ]);
    // A dictionary administrator is no client administrator: include-deleted is not honoured.
    expectError(await reader.api.get(`/concepts/${created.id}?include-deleted=true`), 404);
  });
});

describe('create', () => {
  it('201 with server-assigned cid and tids; names trimmed; codes as the dictionary spells them', async () => {
    const w = await world();
    const response = await w.admin.post<ConceptBody>(
      '/concepts',
      conceptBody(w, {
        cid: 'mine',
        terms: [
          { name: '  padded  ', languageCode: 'ENG', regionCode: 'gb', scriptCode: 'latn', tid: 999 },
          { name: 'Haus', languageCode: 'deu' },
        ],
      }),
    );
    expect(response.status, response.text).toBe(201);
    expect(response.body.cid).not.toBe('mine');
    expect(
      response.body.terms.map((term) => [term.name, term.languageCode, term.regionCode, term.scriptCode]),
    ).toEqual([
      ['padded', 'eng', 'GB', 'latn'],
      ['Haus', 'deu', null, null],
    ]);
    expect(response.body.terms.map((term) => term.tid)).not.toContain(999);
    const [row] = await rows<{ name: string; language_code: string }>(
      s.t,
      'select name, language_code from terms where id = ?',
      [response.body.terms[0]!.id],
    );
    expect(row).toEqual({ name: 'padded', language_code: 'eng' });
  });

  it('the query parameter format applies to the answer of a create', async () => {
    const w = await world();
    const response = await w.admin.post<ConceptBody>('/concepts?format=ID', conceptBody(w));
    expect(response.status, response.text).toBe(201);
    expect(response.body).toEqual({ id: expect.any(Number) });
    expect((await getConcept(w.admin, response.body.id)).terms).toHaveLength(1);
  });

  it('a concept without terms and without fields can be created', async () => {
    const w = await world();
    const created = await createConcept(w.admin, w, { terms: [] });
    expect(created.terms).toEqual([]);
    expect(created.fieldMap).toEqual({});
  });

  it('one transaction: a create with one bad term stores nothing (no concept, no term, no relation, no history)', async () => {
    const w = await world();
    const target = await createConcept(w.admin, w);
    const before = await countRows(s.t, w.dictionary.id);
    const [history] = await rows<{ count: number }>(
      s.t,
      'select count(*)::int as count from concept_history',
    );

    const refused = await w.admin.post(
      '/concepts',
      conceptBody(w, {
        fieldMap: { [w.cf.Definition]: 'fine' },
        conceptRelations: [{ targetConceptId: target.id, type: 0, attribute: 0 }],
        terms: [
          { name: 'good one', languageCode: 'eng' },
          { name: 'bad one', languageCode: 'deu', fieldMap: { [w.tf.Gender]: 'neuter' } },
        ],
      }),
    );
    expectBadRequest(refused, 'terms[1]', 'Gender');
    expect(await countRows(s.t, w.dictionary.id)).toEqual(before);
    expect(await rows(s.t, "select id from terms where name in ('good one', 'bad one')")).toEqual([]);
    const [historyAfter] = await rows<{ count: number }>(
      s.t,
      'select count(*)::int as count from concept_history',
    );
    expect(historyAfter).toEqual(history);
    expect((await getConcept(w.admin, target.id)).conceptRelations).toEqual([]);
  });

  it('dictionaryId and sectionOid are required', async () => {
    const w = await world();
    expectBadRequest(
      await w.admin.post('/concepts', { sectionOid: w.section.oid, terms: [] }),
      'dictionaryId',
    );
    expectBadRequest(
      await w.admin.post('/concepts', { dictionaryId: w.dictionary.id, terms: [] }),
      'sectionOid',
    );
    expect((await countRows(s.t, w.dictionary.id)).concepts).toBe(0);
  });
});

describe('full update (PUT /concepts/{id})', () => {
  it('replaces the concept and bumps the version; sending the state as read changes nothing', async () => {
    const w = await world();
    const created = await richConcept(w);
    const same = await putConcept(w.admin, created);
    expect(same.status, same.text).toBe(200);
    expect(same.body).toMatchObject({ version: created.version, fieldMap: created.fieldMap });

    const changed = await putConcept(w.admin, created, {
      sectionOid: w.section2.oid,
      fieldMap: { [w.cf.Note]: 'noted' },
      domainList: [],
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({
      version: created.version + 1,
      sectionOid: w.section2.oid,
      fieldMap: { [w.cf.Note]: ['noted'] },
      domainList: [],
    });
    expect(await getConcept(w.admin, created.id)).toEqual(changed.body);
  });

  it('a change that keeps the domains keeps them (in the answer and in concept_domains)', async () => {
    const w = await world();
    const created = await richConcept(w);
    const response = await putConcept(w.admin, created, { fieldMap: { [w.cf.Note]: 'only this changes' } });
    expect(response.status, response.text).toBe(200);
    expect(response.body.domainList).toEqual([w.domain.oid]);
    expect(
      await rows(s.t, 'select domain_id from concept_domains where concept_id = ?', [created.id]),
    ).toEqual([{ domain_id: w.domain.id }]);
  });

  it('the path names the concept: an id in the body is ignored', async () => {
    const w = await world();
    const target = await richConcept(w);
    const bystander = await richConcept(w);
    const response = await w.admin.put<ConceptBody>(`/concepts/${target.id}`, {
      ...conceptInput(target),
      id: bystander.id,
      fieldMap: { [w.cf.Note]: 'meant for the target' },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.id).toBe(target.id);
    expect((await getConcept(w.admin, target.id)).fieldMap).toEqual({
      [w.cf.Note]: ['meant for the target'],
    });
    expect(await getConcept(w.admin, bystander.id)).toEqual(bystander);
  });

  it('the version is required: missing or stale answers 409 and changes nothing', async () => {
    const w = await world();
    const created = await richConcept(w);
    const { version: _version, ...withoutVersion } = conceptInput(created);
    expectError(
      await w.admin.put(`/concepts/${created.id}`, { ...withoutVersion, fieldMap: { [w.cf.Note]: 'x' } }),
      409,
    );
    const updated = await putConcept(w.admin, created, { fieldMap: { [w.cf.Note]: 'first' } });
    expect(updated.status, updated.text).toBe(200);
    const stale = await putConcept(w.admin, created, { fieldMap: { [w.cf.Note]: 'second' } });
    expectError(stale, 409);
    expect((await getConcept(w.admin, created.id)).fieldMap).toEqual({ [w.cf.Note]: ['first'] });
  });

  it('terms are required (400); [] removes every term', async () => {
    const w = await world();
    const created = await richConcept(w);
    const { terms: _terms, ...rest } = conceptInput(created);
    expectBadRequest(await w.admin.put(`/concepts/${created.id}`, rest), 'terms');
    expectBadRequest(await w.admin.put(`/concepts/${created.id}`, { ...rest, terms: null }), 'terms');
    expect((await getConcept(w.admin, created.id)).terms).toHaveLength(2);

    const emptied = await putConcept(w.admin, created, { terms: [] });
    expect(emptied.status, emptied.text).toBe(200);
    expect(emptied.body.terms).toEqual([]);
    const stored = await rows<{ deleted: boolean }>(s.t, 'select deleted from terms where concept_id = ?', [
      created.id,
    ]);
    expect(stored).toEqual([{ deleted: true }, { deleted: true }]);
  });

  it('missing attributes are erased: fieldMap, domainList, relations, links; sectionOid is required', async () => {
    const w = await world();
    const target = await createConcept(w.admin, w);
    const created = await richConcept(w);
    const related = await patchConcept(w.admin, created, {
      conceptRelations: [{ targetConceptId: target.id, type: 4, attribute: 11 }],
    });
    expect(related.status, related.text).toBe(200);
    expect(related.body.conceptRelations).toHaveLength(1);

    const bare = await w.admin.put<ConceptBody>(`/concepts/${created.id}`, {
      version: related.body.version,
      sectionOid: w.section.oid,
      terms: related.body.terms.map(termInput),
    });
    expect(bare.status, bare.text).toBe(200);
    expect(bare.body).toMatchObject({ fieldMap: {}, domainList: [], conceptRelations: [], refLinks: [] });
    expect(bare.body.terms).toHaveLength(2);
    expect((await getConcept(w.admin, target.id)).conceptRelations).toEqual([]);

    expectBadRequest(
      await w.admin.put(`/concepts/${created.id}`, {
        version: bare.body.version,
        terms: bare.body.terms.map(termInput),
      }),
      'sectionOid',
    );
  });

  it('terms: sent ones changed (a missing term attribute erased), new ones added, missing ones soft-deleted', async () => {
    const w = await world();
    const created = await richConcept(w);
    const [cat, katze] = created.terms;
    const response = await putConcept(w.admin, created, {
      terms: [
        { id: cat!.id, name: 'kitty', languageCode: 'eng' },
        { name: 'chat', languageCode: 'fra' },
      ],
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.terms.map((term) => [term.id, term.name, term.regionCode, term.fieldMap])).toEqual([
      [cat!.id, 'kitty', null, {}],
      [expect.any(Number), 'chat', null, {}],
    ]);
    expect(response.body.terms[0]!.tid).toBe(cat!.tid);
    const [removed] = await rows<{ deleted: boolean; name: string }>(
      s.t,
      'select deleted, name from terms where id = ?',
      [katze!.id],
    );
    expect(removed).toEqual({ deleted: true, name: 'Katze' });
  });

  it('a term id of another concept is refused (400) and changes nothing', async () => {
    const w = await world();
    const mine = await richConcept(w);
    const other = await createConcept(w.admin, w);
    const response = await putConcept(w.admin, mine, {
      terms: [{ id: other.terms[0]!.id, name: 'stolen', languageCode: 'eng' }],
    });
    expectBadRequest(response, 'terms[0]', String(other.terms[0]!.id));
    expect((await getConcept(w.admin, other.id)).terms[0]!.name).toBe(other.terms[0]!.name);
    expect((await getConcept(w.admin, mine.id)).terms).toHaveLength(2);
  });
});

describe('patch (PUT /concepts/{id}/patch)', () => {
  it('terms null or missing leaves the terms alone; fieldMap keys merge (null or [] clears one)', async () => {
    const w = await world();
    const created = await richConcept(w);
    const first = await patchConcept(w.admin, created, {
      terms: null,
      fieldMap: { [w.cf.Note]: 'added' },
    });
    expect(first.status, first.text).toBe(200);
    expect(first.body.terms).toEqual(created.terms);
    expect(first.body.fieldMap).toEqual({
      [w.cf.Definition]: ['A small animal'],
      [w.cf.Tags]: ['a', 'b'],
      [w.cf.Note]: ['added'],
    });
    expect(first.body.domainList).toEqual([w.domain.oid]);
    expect(first.body.version).toBe(created.version + 1);

    const second = await patchConcept(w.admin, first.body, {
      fieldMap: { [w.cf.Tags]: null, [w.cf.Definition]: [] },
    });
    expect(second.status, second.text).toBe(200);
    expect(second.body.terms.map((term) => term.id)).toEqual(created.terms.map((term) => term.id));
    expect(second.body.fieldMap).toEqual({ [w.cf.Note]: ['added'] });
    expect(second.body.domainList).toEqual([w.domain.oid]);
    expect(second.body.sectionOid).toBe(w.section.oid);
  });

  it('a terms array is applied: new terms added, sent terms changed, missing terms removed', async () => {
    const w = await world();
    const created = await richConcept(w);
    const [cat, katze] = created.terms;
    const response = await patchConcept(w.admin, created, {
      terms: [
        { id: katze!.id, name: 'Kätzchen', languageCode: 'deu' },
        { name: 'chat', languageCode: 'fra' },
      ],
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.terms.map((term) => [term.name, term.languageCode])).toEqual([
      ['Kätzchen', 'deu'],
      ['chat', 'fra'],
    ]);
    expect(response.body.terms[0]!.id).toBe(katze!.id);
    expect(response.body.fieldMap).toEqual(created.fieldMap);
    expect(response.body.domainList).toEqual(created.domainList);
    const stored = await rows<{ id: number; deleted: boolean }>(
      s.t,
      'select id, deleted from terms where concept_id = ? order by id',
      [created.id],
    );
    expect(stored).toEqual([
      { id: cat!.id, deleted: true },
      { id: katze!.id, deleted: false },
      { id: response.body.terms[1]!.id, deleted: false },
    ]);
  });

  it('inside a sent term, missing fieldMap keys, regionCode and scriptCode keep their stored values', async () => {
    const w = await world();
    const created = await createConcept(w.admin, w, {
      terms: [
        {
          name: 'color',
          languageCode: 'eng',
          regionCode: 'US',
          scriptCode: 'latn',
          fieldMap: { [w.tf.Gender]: 'masculine', [w.tf.Usage]: 'common' },
        },
      ],
    });
    const term = created.terms[0]!;
    const response = await patchConcept(w.admin, created, {
      terms: [{ id: term.id, name: 'colour', languageCode: 'eng', fieldMap: { [w.tf.Usage]: 'British' } }],
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.terms).toHaveLength(1);
    expect(response.body.terms[0]).toMatchObject({
      id: term.id,
      name: 'colour',
      regionCode: 'US',
      scriptCode: 'latn',
      fieldMap: { [w.tf.Gender]: ['masculine'], [w.tf.Usage]: ['British'] },
    });
  });

  it('the version is required on a patch too (409)', async () => {
    const w = await world();
    const created = await richConcept(w);
    expectError(await w.admin.put(`/concepts/${created.id}/patch`, { fieldMap: { [w.cf.Note]: 'x' } }), 409);
    expectError(
      await w.admin.put(`/concepts/${created.id}/patch`, { version: created.version + 5, fieldMap: {} }),
      409,
    );
    expect((await getConcept(w.admin, created.id)).version).toBe(created.version);
  });
});

describe('delete', () => {
  it('204; then 404; the terms are soft-deleted; relations leave the other concept; links to it turn invalid', async () => {
    const w = await world();
    const doomed = await richConcept(w);
    const neighbour = await createConcept(w.admin, w, {
      fieldMap: { [w.cf.Definition]: 'see cat' },
      refLinks: [
        { sourceFieldOid: w.cf.Definition, type: 'CONCEPT', text: 'cat', position: 4, conceptId: doomed.id },
      ],
      conceptRelations: [{ targetConceptId: doomed.id, type: 0, attribute: 1 }],
    });
    expect(neighbour.refLinks).toMatchObject([{ conceptId: doomed.id, invalid: false }]);
    expect((await getConcept(w.admin, doomed.id)).conceptRelations).toHaveLength(1);

    const deleted = await w.admin.delete(`/concepts/${doomed.id}`);
    expect(deleted.status, deleted.text).toBe(204);
    expect(deleted.text).toBe('');
    expectError(await w.admin.get(`/concepts/${doomed.id}`), 404);
    expectError(await w.admin.delete(`/concepts/${doomed.id}`), 404);
    expectError(await putConcept(w.admin, doomed, { fieldMap: {} }), 404);
    expectError(await patchConcept(w.admin, doomed, { fieldMap: {} }), 404);
    expectError(await w.admin.put(`/concepts/${doomed.id}/acquire-lock`), 404);

    const [concept] = await rows<{ deleted: boolean }>(s.t, 'select deleted from concepts where id = ?', [
      doomed.id,
    ]);
    expect(concept).toEqual({ deleted: true });
    const terms = await rows<{ deleted: boolean }>(s.t, 'select deleted from terms where concept_id = ?', [
      doomed.id,
    ]);
    expect(terms).toEqual([{ deleted: true }, { deleted: true }]);

    const after = await getConcept(w.admin, neighbour.id);
    expect(after.conceptRelations).toEqual([]);
    expect(after.refLinks).toMatchObject([{ conceptId: doomed.id, invalid: true }]);
    expect(after.version).toBe(neighbour.version);
  });
});

describe('serials', () => {
  it('cid, tid and relationId count up per dictionary, separately in each dictionary', async () => {
    const w = await world();
    const a = await createConcept(w.admin, w, {
      terms: [
        { name: 'one', languageCode: 'eng' },
        { name: 'two', languageCode: 'deu' },
      ],
    });
    const b = await createConcept(w.admin, w, {
      terms: [{ name: 'three', languageCode: 'eng' }],
      conceptRelations: [{ targetConceptId: a.id, type: 0, attribute: 0 }],
    });
    const c = await createConcept(w.admin, w, {
      conceptRelations: [
        { targetConceptId: a.id, type: 1, attribute: 2 },
        { targetConceptId: b.id, type: 1, attribute: 3 },
      ],
    });
    expect([a.cid, b.cid, c.cid]).toEqual(['1', '2', '3']);
    expect([...a.terms, ...b.terms, ...c.terms].map((term) => term.tid)).toEqual([1, 2, 3, 4]);
    expect(b.conceptRelations.map((relation) => relation.relationId)).toEqual([1]);
    expect(c.conceptRelations.map((relation) => relation.relationId)).toEqual([2, 3]);

    // A term added by an update takes the next number.
    const grown = await patchConcept(w.admin, a, {
      terms: [...a.terms.map(termInput), { name: 'four', languageCode: 'fra' }],
    });
    expect(grown.status, grown.text).toBe(200);
    expect(grown.body.terms.map((term) => term.tid)).toEqual([1, 2, 5]);

    // Another dictionary (also another tenant's) starts at 1.
    const elsewhere = await w.admin.post<ConceptBody>('/concepts', {
      dictionaryId: w.other.dictionary.id,
      sectionOid: w.other.sectionOid,
      terms: [{ name: 'autre', languageCode: 'fra' }],
    });
    expect(elsewhere.status, elsewhere.text).toBe(201);
    expect(elsewhere.body.cid).toBe('1');
    expect(elsewhere.body.terms[0]!.tid).toBe(1);
    const stranger = await world();
    const theirs = await createConcept(stranger.admin, stranger);
    expect(theirs.cid).toBe('1');
    expect(theirs.terms[0]!.tid).toBe(1);
  });

  it('20 concurrent creates get distinct, gapless cids and tids', async () => {
    const w = await world();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        w.admin.post<ConceptBody>(
          '/concepts',
          conceptBody(w, {
            terms: [
              { name: `en ${index}`, languageCode: 'eng' },
              { name: `de ${index}`, languageCode: 'deu' },
            ],
          }),
        ),
      ),
    );
    for (const answer of answers) expect(answer.status, answer.text).toBe(201);
    const cids = answers.map((answer) => Number(answer.body.cid)).sort((x, y) => x - y);
    expect(cids).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
    const tids = answers.flatMap((answer) => answer.body.terms.map((term) => term.tid)).sort((x, y) => x - y);
    expect(tids).toEqual(Array.from({ length: 40 }, (_, index) => index + 1));
    const stored = await rows<{ cid: string }>(s.t, 'select cid from concepts where dictionary_id = ?', [
      w.dictionary.id,
    ]);
    expect(new Set(stored.map((row) => row.cid)).size).toBe(20);
  });

  it('the counter row is rolled back with a write that fails after taking its numbers', async () => {
    const w = await world();
    const first = await createConcept(w.admin, w);
    // A trigger makes the term insert fail, after the concept row and the serials were written.
    const name = `fail_${uniqueSuffix()}`;
    await rows(
      s.t,
      `create function ${name}() returns trigger language plpgsql as $$
       begin
         if new.name = '${name}' then raise exception 'forced failure'; end if;
         return new;
       end $$`,
    );
    await rows(s.t, `create trigger ${name} before insert on terms for each row execute function ${name}()`);
    try {
      const failed = await w.admin.post(
        '/concepts',
        conceptBody(w, { terms: [{ name, languageCode: 'eng' }], conceptRelations: [] }),
      );
      expect(failed.status, failed.text).toBe(500);
      expect(failed.text).not.toContain('forced failure');
    } finally {
      await rows(s.t, `drop trigger ${name} on terms`);
      await rows(s.t, `drop function ${name}()`);
    }
    expect((await countRows(s.t, w.dictionary.id)).concepts).toBe(1);
    const second = await createConcept(w.admin, w);
    expect(Number(second.cid)).toBe(Number(first.cid) + 1);
    expect(second.terms[0]!.tid).toBe(first.terms[0]!.tid + 1);
  });

  it('failed creates leave no duplicates and no gaps', async () => {
    const w = await world();
    const first = await createConcept(w.admin, w);
    const failures = await Promise.all([
      w.admin.post('/concepts', conceptBody(w, { terms: [{ name: ' ', languageCode: 'eng' }] })),
      w.admin.post('/concepts', conceptBody(w, { fieldMap: { [w.cf.Due]: 'tomorrow' } })),
      w.admin.post('/concepts', conceptBody(w, { terms: [{ name: 'x', languageCode: 'jpn' }] })),
    ]);
    for (const failure of failures) expectError(failure, 400);
    const second = await createConcept(w.admin, w);
    expect(Number(second.cid)).toBe(Number(first.cid) + 1);
    expect(second.terms[0]!.tid).toBe(first.terms[0]!.tid + 1);
  });
});
