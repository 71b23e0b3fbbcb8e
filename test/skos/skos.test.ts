/**
 * SKOS export and import (docs/exchange.md) over a real socket: the mapping both ways, each
 * serialisation's round trip, IRIs, the hidden/deprecated options, refusals and tenant isolation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Server, startServer } from '../concepts/concept-helpers.js';
import {
  createScheme,
  getDictionary,
  grant,
  groupWith,
  loggedInUser,
  newTenant,
  rows,
  uniqueSuffix,
} from '../helpers/structure.js';
import { conceptsOf, exportSkos, importSkos, SKOS, turtleQuads } from './skos-helpers.js';

let server: Server;
let tenantInfo: Awaited<ReturnType<typeof newTenant>>;
let token: string;
let otherToken: string;

beforeAll(async () => {
  server = await startServer();
  tenantInfo = await newTenant(server.t, server.sysadmin);
  token = tenantInfo.admin.token!;
  otherToken = (await newTenant(server.t, server.sysadmin)).admin.token!;
});
afterAll(async () => {
  await server?.close();
});

const VOCABULARY = `@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix skosxl: <http://www.w3.org/2008/05/skos-xl#> .
@prefix dct: <http://purl.org/dc/terms/> .
@prefix ex: <http://example.org/v/> .

ex:scheme a skos:ConceptScheme ; dct:title "Weather words"@en .
ex:weather a skos:Concept ; skos:inScheme ex:scheme ;
  skos:prefLabel "weather"@en , "temps"@fr , "veður"@is ;
  skos:definition "State of the atmosphere & its \\"moods\\" <at a time>.\\nSecond line."@en ;
  skos:note "Untagged note" ; skos:notation "W1" ;
  skos:narrower ex:wind .
ex:rain a skos:Concept ;
  skos:prefLabel "rain"@en ; skos:altLabel "rainfall"@en ; skos:hiddenLabel "rian"@en ;
  skos:prefLabel "pluie"@fr ; skos:scopeNote "Liquid only."@en ;
  skos:broader ex:weather ; skos:related ex:cloud .
ex:cloud a skos:Concept ; skos:broader ex:weather ;
  skosxl:prefLabel [ a skosxl:Label ; skosxl:literalForm "cloud"@en ] ;
  skos:altLabel "nuage"@fr .
ex:wind a skos:Concept ; skos:prefLabel "wind"@en , "vindur"@is .
ex:phenomena a skos:Collection ; skos:prefLabel "Phenomena"@en ; skos:member ex:rain , ex:cloud .
`;

const IRI = 'http://example.org/v/';

async function importVocabulary(content = VOCABULARY, fileName = 'weather.ttl', params = {}) {
  const answer = await importSkos(server, token, content, fileName, {
    name: `Weather ${uniqueSuffix()}`,
    ...params,
  });
  expect(answer.status, answer.message).toBe(200);
  return answer.summary!;
}

describe('SKOS import', () => {
  it('maps labels to terms with statuses, notes to fields, collections to domains, links to relations', async () => {
    const summary = await importVocabulary();
    expect(summary.concepts).toBe(4);
    expect(summary.terms).toBe(11);
    // "nuage" is the only French label of cloud: promoted, with a warning.
    expect(summary.errors.map((e) => e.message)).toEqual([
      `${IRI}cloud: no skos:prefLabel in "fr"; the altLabel "nuage" is made the preferred term`,
    ]);
    const id = summary.dictionaryId;
    const terms = await rows<{ oid: string; name: string; language_code: string; status: string }>(
      server.t,
      `select c.oid, t.name, t.language_code, f.value as status from terms t join concepts c on c.id = t.concept_id
         cross join lateral (select string_agg(v, ',') as value from fields fl, jsonb_array_elements_text(t.field_map -> fl.oid) v
                              where fl.dictionary_id = t.dictionary_id and fl.data_category = 'USAGE_STATUS') f
        where t.dictionary_id = ? order by t.id`,
      [id],
    );
    const statusOf = (name: string) => terms.find((t) => t.name === name)?.status;
    expect(statusOf('rain')).toBe('preferredTerm-admn-sts');
    expect(statusOf('rainfall')).toBe('admittedTerm-admn-sts');
    expect(statusOf('rian')).toBe('forbiddenTerm-admn-sts');
    expect(statusOf('cloud')).toBe('preferredTerm-admn-sts');
    expect(terms.find((t) => t.name === 'veður')?.language_code).toBe('isl');
    expect(new Set(terms.map((t) => t.oid))).toEqual(
      new Set(['weather', 'rain', 'cloud', 'wind'].map((n) => IRI + n)),
    );
    const relations = await rows<{ source: string; target: string; type: number; attribute: number }>(
      server.t,
      `select s.oid as source, o.oid as target, r.type, r.attribute from concept_relations r
         join concepts s on s.id = r.source_concept_id join concepts o on o.id = r.target_concept_id
        where r.dictionary_id = ? order by s.oid, o.oid`,
      [id],
    );
    expect(relations).toEqual([
      { source: `${IRI}cloud`, target: `${IRI}weather`, type: 0, attribute: 0 },
      { source: `${IRI}rain`, target: `${IRI}cloud`, type: 4, attribute: 11 },
      { source: `${IRI}rain`, target: `${IRI}weather`, type: 0, attribute: 0 },
      { source: `${IRI}wind`, target: `${IRI}weather`, type: 0, attribute: 0 },
    ]);
    const domains = await rows<{ oid: string; name: string }>(
      server.t,
      `select c.oid, d.name from concept_domains cd join domains d on d.id = cd.domain_id join concepts c on c.id = cd.concept_id
        where c.dictionary_id = ? order by c.oid`,
      [id],
    );
    expect(domains).toEqual([
      { oid: `${IRI}cloud`, name: 'Phenomena' },
      { oid: `${IRI}rain`, name: 'Phenomena' },
    ]);
    const [dictionary] = await rows<{ name: string }>(
      server.t,
      'select name from dictionaries where id = ?',
      [id],
    );
    expect(dictionary?.name).toMatch(/^Weather /);
  });

  it('hidden=DEPRECATED makes hiddenLabels deprecated terms; a re-import merges by IRI', async () => {
    const summary = await importVocabulary(VOCABULARY, 'weather.ttl', { hidden: 'DEPRECATED' });
    const [rian] = await rows<{ field_map: Record<string, string[]> }>(
      server.t,
      "select field_map from terms where dictionary_id = ? and name = 'rian'",
      [summary.dictionaryId],
    );
    expect(Object.values(rian!.field_map).flat()).toContain('deprecatedTerm-admn-sts');
    const again = await importSkos(server, token, VOCABULARY, 'weather.ttl', {
      'dictionary-id': summary.dictionaryId,
      hidden: 'DEPRECATED',
    });
    expect(again.status, again.message).toBe(200);
    // Merged into the same concepts, which the file leaves as they were (unchanged merges are skipped).
    expect(again.summary).toMatchObject({ concepts: 0, updated: 0, skipped: 4 });
    const [count] = await rows<{ n: number }>(
      server.t,
      'select count(*)::int as n from concept_relations where dictionary_id = ?',
      [summary.dictionaryId],
    );
    expect(count?.n).toBe(4);
  });

  it('refuses what is no SKOS with 400, and another tenant’s dictionary with 404', async () => {
    const notRdf = await importSkos(server, token, 'this is { not turtle', 'x.ttl');
    expect(notRdf.status).toBe(400);
    expect(notRdf.message).toMatch(/^Not valid Turtle: /);
    const noConcept = await importSkos(server, token, '<http://a> <http://b> "c" .', 'x.ttl');
    expect(noConcept).toMatchObject({ status: 400, message: 'No skos:Concept in the file' });
    const badXml = await importSkos(
      server,
      token,
      '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><a></b></rdf:RDF>',
      'x.rdf',
    );
    expect(badXml.status).toBe(400);
    expect(badXml.message).toMatch(/^Not valid RDF\/XML: /);
    const remote = await importSkos(
      server,
      token,
      '{"@context": "http://127.0.0.1:9/context.jsonld", "@id": "x"}',
      'x.jsonld',
    );
    expect(remote.status).toBe(400);
    expect(remote.message).toMatch(/remote JSON-LD context .* is not fetched/);
    const notJson = await importSkos(server, token, '{nope', 'x.jsonld');
    expect(notJson.status).toBe(400);

    const mine = await importVocabulary();
    const foreign = await importSkos(server, otherToken, VOCABULARY, 'weather.ttl', {
      'dictionary-id': mine.dictionaryId,
    });
    expect(foreign.status).toBe(404);
    expect((await exportSkos(server, otherToken, mine.dictionaryId)).status).toBe(404);
    expect((await exportSkos(server, token, mine.dictionaryId, { format: 'n-quads' })).status).toBe(400);
  });
});

describe('SKOS export', () => {
  it('writes Turtle with the labels, notes and hierarchy the file had', async () => {
    const { dictionaryId } = await importVocabulary();
    const answer = await exportSkos(server, token, dictionaryId);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/turtle; charset=UTF-8');
    expect(answer.headers.get('content-disposition')).toMatch(/filename\*=UTF-8''Weather%20.*\.ttl$/);
    // The job recording the download answers its summary once the download ended.
    const job = await fetch(`${server.base}/api/v4/jobs/${answer.headers.get('x-job-task-id')}`, {
      headers: { 'x-auth-token': token },
    });
    expect(job.status).toBe(200);
    expect(await job.json()).toMatchObject({
      status: 'DONE',
      result: { dictionaryId, format: 'turtle', exportedConcepts: 4, exportedTerms: 11 },
    });
    const exported = conceptsOf(turtleQuads(answer.text));
    const original = conceptsOf(turtleQuads(VOCABULARY));
    // The file's XL label and the promoted altLabel come back as core prefLabels.
    original.get(`${IRI}cloud`)!.labels = ['prefLabel|en|cloud', 'prefLabel|fr|nuage'];
    original.get(`${IRI}wind`)!.broader = [`${IRI}weather`];
    original.get(`${IRI}cloud`)!.related = [`${IRI}rain`];
    expect(Object.fromEntries(exported)).toEqual(Object.fromEntries(original));
    const quads = turtleQuads(answer.text);
    const scheme = quads.find((q) => q.object.value === `${SKOS}ConceptScheme`)!.subject.value;
    expect(scheme).toBe(`${server.base}/skos/${dictionaryId}/`);
    const tops = quads.filter((q) => q.predicate.value === `${SKOS}topConceptOf`).map((q) => q.subject.value);
    expect(tops).toEqual([`${IRI}weather`]);
    const members = quads
      .filter((q) => q.predicate.value === `${SKOS}member`)
      .map((q) => q.object.value)
      .sort();
    expect(members).toEqual([`${IRI}cloud`, `${IRI}rain`]);
    const notations = quads.filter((q) => q.predicate.value === `${SKOS}notation`).map((q) => q.object.value);
    expect(notations).toEqual(['W1']);
  });

  it('restricts to languages, fields and a filter as the TBX export does (400 for what the dictionary lacks)', async () => {
    const { dictionaryId } = await importVocabulary();
    const frenchText = (await exportSkos(server, token, dictionaryId, { languages: 'fr' })).text;
    const french = conceptsOf(turtleQuads(frenchText));
    // Only concepts with a French label are written, and only their French labels and notes.
    expect([...french.keys()].sort()).toEqual([`${IRI}cloud`, `${IRI}rain`, `${IRI}weather`]);
    expect(french.get(`${IRI}rain`)!.labels).toEqual(['prefLabel|fr|pluie']);
    // A relation to a concept left out is not written.
    expect(frenchText).not.toContain(`${IRI}wind`);

    const [definition] = await rows<{ oid: string }>(
      server.t,
      `select oid from fields where dictionary_id = ? and data_category = 'DEFINITION'`,
      [dictionaryId],
    );
    const onlyDefinitions = await exportSkos(server, token, dictionaryId, { fields: definition!.oid });
    const notes = turtleQuads(onlyDefinitions.text).map((q) => q.predicate.value.replace(SKOS, ''));
    expect(notes).toContain('definition');
    expect(notes).not.toContain('scopeNote');
    expect(notes).toContain('prefLabel');

    const domains = (await (
      await fetch(`${server.base}/api/v4/domains?dictionary-id=${dictionaryId}&size=50`, {
        headers: { 'x-auth-token': token },
      })
    ).json()) as { content: { oid: string }[] };
    const created = await fetch(`${server.base}/api/v4/filters`, {
      method: 'POST',
      headers: { 'x-auth-token': token, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: `phenomena ${uniqueSuffix()}`,
        dictionaryId,
        criteria: { domainOids: domains.content.map((d) => d.oid), languages: ['eng'] },
      }),
    });
    expect(created.status).toBe(201);
    const filterId = ((await created.json()) as { id: number }).id;
    const filtered = conceptsOf(
      turtleQuads((await exportSkos(server, token, dictionaryId, { 'filter-id': filterId })).text),
    );
    expect([...filtered.keys()].sort()).toEqual([`${IRI}cloud`, `${IRI}rain`]);
    expect(filtered.get(`${IRI}cloud`)!.labels).toEqual(['prefLabel|en|cloud']);

    for (const params of [{ languages: 'xx' }, { fields: 'no-such-field' }]) {
      const refused = await exportSkos(server, token, dictionaryId, params);
      expect(refused.status, JSON.stringify(params)).toBe(400);
      expect(JSON.parse(refused.text)).toMatchObject({ code: 'BAD_REQUEST' });
    }
    expect((await exportSkos(server, token, dictionaryId, { 'filter-id': 999999 })).status).toBe(404);
  });

  it('round-trips through each serialisation', async () => {
    const { dictionaryId } = await importVocabulary();
    const reference = conceptsOf(turtleQuads((await exportSkos(server, token, dictionaryId)).text));
    for (const [format, fileName, type] of [
      ['turtle', 'a.ttl', 'text/turtle'],
      ['rdfxml', 'a.rdf', 'application/rdf+xml'],
      ['jsonld', 'a.jsonld', 'application/ld+json'],
    ] as const) {
      const file = await exportSkos(server, token, dictionaryId, { format });
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe(`${type}; charset=UTF-8`);
      const copy = await importSkos(server, token, file.text, fileName, { name: `Copy ${uniqueSuffix()}` });
      expect(copy.status, copy.message).toBe(200);
      expect(copy.summary).toMatchObject({ concepts: 4, terms: 11, errorCount: 0 });
      const again = conceptsOf(
        turtleQuads((await exportSkos(server, token, copy.summary!.dictionaryId)).text),
      );
      expect(Object.fromEntries(again), format).toEqual(Object.fromEntries(reference));
    }
  });

  it('names concepts under base-iri unless they came with an IRI, and puts deprecated terms where asked', async () => {
    const tbx = `<?xml version="1.0" encoding="UTF-8"?>
<tbx type="TBX-Basic" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2">
 <tbxHeader><fileDesc><sourceDesc><p>t</p></sourceDesc></fileDesc></tbxHeader>
 <text><body>
  <conceptEntry id="c1"><langSec xml:lang="en">
   <termSec><term>old name</term><termNote type="administrativeStatus">deprecatedTerm-admn-sts</termNote></termSec>
   <termSec><term>new name</term><termNote type="administrativeStatus">preferredTerm-admn-sts</termNote></termSec>
  </langSec></conceptEntry>
 </body></text>
</tbx>`;
    const form = new FormData();
    form.append('file', new Blob([tbx]), 'in.tbx');
    const response = await fetch(
      `${server.base}/api/v4/dictionaries/import-tbx?name=Names%20${uniqueSuffix()}`,
      {
        method: 'POST',
        headers: { 'x-auth-token': token },
        body: form,
      },
    );
    const { result } = (await response.json()) as { result: { dictionaryId: number } };
    const base = 'http://example.com/names/';
    const alt = await exportSkos(server, token, result.dictionaryId, { 'base-iri': base });
    const [cid] = await rows<{ cid: string }>(server.t, 'select cid from concepts where dictionary_id = ?', [
      result.dictionaryId,
    ]);
    expect(Object.fromEntries(conceptsOf(turtleQuads(alt.text)))).toEqual({
      [`${base}concept/${cid!.cid}`]: {
        labels: ['altLabel|en|old name', 'prefLabel|en|new name'],
        broader: [],
        related: [],
      },
    });
    const hidden = await exportSkos(server, token, result.dictionaryId, {
      deprecated: 'hidden',
      format: 'rdfxml',
    });
    expect(hidden.text).toContain('<skos:hiddenLabel xml:lang="en">old name</skos:hiddenLabel>');
  });

  it('needs CONCEPT_EXPORT (403), hides unreadable dictionaries (404); a new dictionary needs an administrator', async () => {
    const [exporter, reader, stranger] = await Promise.all([
      loggedInUser(server.t, tenantInfo.tenant),
      loggedInUser(server.t, tenantInfo.tenant),
      loggedInUser(server.t, tenantInfo.tenant),
    ]);
    const exporters = await groupWith(tenantInfo.admin, [exporter.id]);
    const readers = await groupWith(tenantInfo.admin, [reader.id]);
    const scheme = await createScheme(tenantInfo.admin, [
      grant(exporters.id, ['DICT_READ', 'CONCEPT_EXPORT']),
      grant(readers.id, ['DICT_READ']),
    ]);
    const { dictionaryId: id } = await importVocabulary();
    const dictionary = await getDictionary(tenantInfo.admin, id);
    const fieldsOf = (fields: typeof dictionary.conceptFields) =>
      fields.map((f) => ({
        id: f.id,
        name: f.name,
        dataCategory: f.dataCategory,
        fieldType: f.fieldType,
        model: f.model,
      }));
    const put = await fetch(`${server.base}/api/v4/dictionaries/${id}`, {
      method: 'PUT',
      headers: { 'x-auth-token': token, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: dictionary.name,
        version: dictionary.version,
        permissionSchemeId: scheme.id,
        languages: dictionary.languages.map((l) => ({
          id: l.id,
          code: l.code,
          variants: l.variants.map((v) => ({ id: v.id, type: v.type, code: v.code })),
        })),
        conceptFields: fieldsOf(dictionary.conceptFields),
        termFields: fieldsOf(dictionary.termFields),
      }),
    });
    expect(put.status, await put.text()).toBe(200);
    const allowed = await exportSkos(server, exporter.rest.token!, id);
    expect(allowed.status, allowed.text).toBe(200);
    expect(conceptsOf(turtleQuads(allowed.text)).size).toBe(4);
    expect((await exportSkos(server, reader.rest.token!, id)).status).toBe(403);
    expect((await exportSkos(server, stranger.rest.token!, id)).status).toBe(404);
    const notAdmin = await importSkos(server, exporter.rest.token!, VOCABULARY, 'weather.ttl');
    expect(notAdmin.status).toBe(403);
  });
});
