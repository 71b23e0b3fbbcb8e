/**
 * Relations between staged entries (docs/staging.md): TBX cross-references and SKOS broader, narrower
 * and related links are made when both ends are accepted, together or one after the other; a link to an
 * entry still PENDING waits, and rejecting that entry drops it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import { createDictionary, newTenant, rows, waitForJob } from '../helpers/structure.js';
import { createArea, type EntryBody, entries } from './staging-helpers.js';

let t: TestApp;
let sysadmin: RestClient;

beforeAll(async () => {
  t = await buildTestApp();
  sysadmin = await loginSysadmin(t.app);
});
afterAll(async () => {
  await t?.close();
});

async function upload(caller: RestClient, path: string, content: string, filename: string, areaId: number) {
  const response = await caller.upload<{ result?: { errors: unknown[] }; jobTaskId?: number }>(
    path,
    { content, filename, contentType: 'application/octet-stream' },
    { 'staging-area-id': String(areaId) },
  );
  expect([200, 202], response.text).toContain(response.status);
  if (response.status === 202) {
    const job = await waitForJob(caller, response.body.jobTaskId!);
    expect(job.status, job.message ?? '').toBe('DONE');
  }
}

interface AcceptBody {
  accepted: number;
  conceptIds: number[];
  errors: { stagedEntryId: number | null; message: string }[];
}

/** Accepts entries by id; answers the concept each was written to. */
async function accept(caller: RestClient, areaId: number, list: EntryBody[]) {
  const response = await caller.post<AcceptBody>(`/staging-areas/${areaId}/entries/accept`, {
    ids: list.map((e) => e.id),
  });
  expect(response.status, response.text).toBe(200);
  expect(response.body.accepted).toBe(list.length);
  return response.body;
}

const relations = (dictionaryId: number) =>
  rows<{ source: number; target: number; type: number; attribute: number; text: string | null }>(
    t,
    `select source_concept_id as source, target_concept_id as target, type, attribute, text
       from concept_relations where dictionary_id = ? order by id`,
    [dictionaryId],
  );

const waiting = (areaId: number) =>
  rows<{ target: string; kind: string }>(
    t,
    'select target_entry_id as target, kind from staging_pending_relations where staging_area_id = ? order by id',
    [areaId],
  );

const conceptOf = async (caller: RestClient, areaId: number, entryId: string) => {
  const entry = (await entries(caller, areaId)).find((e) => e.entryId === entryId)!;
  expect(entry.status).toBe('ACCEPTED');
  return entry.decision!.conceptId!;
};

describe('relations between staged entries', () => {
  it('makes TBX cross-references once both ends are accepted, in any order', async () => {
    const { admin } = await newTenant(t, sysadmin);
    const dictionary = await createDictionary(admin, { languages: [{ code: 'eng' }] });
    const area = await createArea(admin, dictionary.id);
    const entry = (id: string, term: string, to?: string) =>
      `<termEntry id="${id}">${to ? `<ref type="crossReference" target="${to}">see ${to}</ref>` : ''}<langSet xml:lang="en"><tig><term>${term}</term></tig></langSet></termEntry>`;
    const file = `<?xml version="1.0" encoding="UTF-8"?>
<martif type="TBX" xml:lang="en"><martifHeader><fileDesc><sourceDesc><p>x</p></sourceDesc></fileDesc></martifHeader><text><body>
${entry('x1', 'alpha', 'x2')}${entry('x2', 'beta')}${entry('x3', 'gamma', 'x4')}${entry('x4', 'delta')}${entry('x5', 'epsilon', 'x6')}${entry('x6', 'zeta')}
</body></text></martif>`;
    await upload(admin, '/dictionaries/import-tbx', file, 'xrefs.tbx', area.id);
    const staged = await entries(admin, area.id);
    const of = (id: string) => staged.find((e) => e.entryId === id)!;
    expect(staged).toHaveLength(6);
    // Staging makes no relation.
    expect(await relations(dictionary.id)).toEqual([]);

    // Both ends in one accept: the relation is made, as an import makes it.
    await accept(admin, area.id, [of('x1'), of('x2')]);
    const [x1, x2] = [await conceptOf(admin, area.id, 'x1'), await conceptOf(admin, area.id, 'x2')];
    expect(await relations(dictionary.id)).toEqual([
      { source: x1, target: x2, type: 4, attribute: 11, text: 'see x2' },
    ]);

    // One end alone: no error, the link waits for x4.
    const alone = await accept(admin, area.id, [of('x3')]);
    expect(alone.errors).toEqual([]);
    expect(await relations(dictionary.id)).toHaveLength(1);
    expect(await waiting(area.id)).toEqual([{ target: 'x4', kind: 'crossReference' }]);
    // x4 accepted later: the relation is made and nothing waits any more.
    await accept(admin, area.id, [of('x4')]);
    const [x3, x4] = [await conceptOf(admin, area.id, 'x3'), await conceptOf(admin, area.id, 'x4')];
    expect((await relations(dictionary.id)).slice(1)).toEqual([
      { source: x3, target: x4, type: 4, attribute: 11, text: 'see x4' },
    ]);
    expect(await waiting(area.id)).toEqual([]);

    // The other end rejected: what waited for it is dropped.
    await accept(admin, area.id, [of('x5')]);
    expect(await waiting(area.id)).toEqual([{ target: 'x6', kind: 'crossReference' }]);
    const rejected = await admin.post(`/staged-entries/${of('x6').id}/reject`, { reason: 'not ours' });
    expect(rejected.status, rejected.text).toBe(200);
    expect(await waiting(area.id)).toEqual([]);
    expect(await relations(dictionary.id)).toHaveLength(2);
  });

  it('makes the SKOS hierarchy once both ends are accepted, in any order', async () => {
    const { admin } = await newTenant(t, sysadmin);
    const dictionary = await createDictionary(admin, { languages: [{ code: 'eng' }] });
    const area = await createArea(admin, dictionary.id);
    const skos = `@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix ex: <http://example.org/v/> .
ex:s a skos:ConceptScheme .
ex:c1 a skos:Concept ; skos:inScheme ex:s ; skos:prefLabel "animal"@en .
ex:c2 a skos:Concept ; skos:inScheme ex:s ; skos:prefLabel "dog"@en ; skos:broader ex:c1 .
ex:c3 a skos:Concept ; skos:inScheme ex:s ; skos:prefLabel "plant"@en ; skos:narrower ex:c4 .
ex:c4 a skos:Concept ; skos:inScheme ex:s ; skos:prefLabel "tree"@en .
ex:c5 a skos:Concept ; skos:inScheme ex:s ; skos:prefLabel "cat"@en ; skos:related ex:c2 .`;
    await upload(admin, '/dictionaries/import-skos', skos, 'v.ttl', area.id);
    const staged = await entries(admin, area.id);
    const of = (n: number) => staged.find((e) => e.entryId === `http://example.org/v/c${n}`)!;
    expect(staged).toHaveLength(5);
    expect(staged.every((e) => e.format === 'SKOS')).toBe(true);
    expect(await relations(dictionary.id)).toEqual([]);
    const concept = (n: number) => conceptOf(admin, area.id, `http://example.org/v/c${n}`);

    // broader, both ends together: the narrower concept is the source of a GENERIC relation.
    await accept(admin, area.id, [of(1), of(2)]);
    expect(await relations(dictionary.id)).toEqual([
      { source: await concept(2), target: await concept(1), type: 0, attribute: 0, text: null },
    ]);

    // narrower, its end alone first: waits; the other end accepted later makes it.
    const alone = await accept(admin, area.id, [of(3)]);
    expect(alone.errors).toEqual([]);
    expect(await waiting(area.id)).toEqual([{ target: 'http://example.org/v/c4', kind: 'narrower' }]);
    await accept(admin, area.id, [of(4)]);
    expect((await relations(dictionary.id))[1]).toEqual({
      source: await concept(4),
      target: await concept(3),
      type: 0,
      attribute: 0,
      text: null,
    });
    expect(await waiting(area.id)).toEqual([]);

    // related, to an entry accepted before: found as the dictionary's concept with that IRI.
    await accept(admin, area.id, [of(5)]);
    expect((await relations(dictionary.id))[2]).toEqual({
      source: await concept(5),
      target: await concept(2),
      type: 4,
      attribute: 11,
      text: null,
    });
    expect(await waiting(area.id)).toEqual([]);
  });
});
