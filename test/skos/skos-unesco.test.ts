/**
 * The UNESCO Thesaurus (about 4,480 concepts in English, French, Spanish, Russian and Arabic, with
 * SKOS-XL labels and micro-thesauri) imports through REST, and what the dictionary holds is counted
 * against the file as N3.js reads it; the exported Turtle, read again, gives the same concepts and labels.
 */
import { readFile } from 'node:fs/promises';
import type { Quad } from 'n3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Server, startServer } from '../concepts/concept-helpers.js';
import { newTenant, rows } from '../helpers/structure.js';
import { conceptsOf, exportSkos, importSkos, SKOS, turtleQuads, UNESCO_THESAURUS } from './skos-helpers.js';

const SKOSXL = 'http://www.w3.org/2008/05/skos-xl#';
const TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';

let server: Server;
let token: string;

beforeAll(async () => {
  server = await startServer();
  token = (await newTenant(server.t, server.sysadmin)).admin.token!;
});
afterAll(async () => {
  await server?.close();
});

/**
 * What the import should make of the file, worked out here from its triples: per concept the labels
 * (XL first, then core; a text once per language; an altLabel-only language's first altLabel promoted),
 * the broader pairs (broader, and narrower reversed) and the related pairs not already a broader one.
 */
function expected(quads: readonly Quad[]) {
  const concepts = new Set(
    quads
      .filter((q) => q.predicate.value === TYPE && q.object.value === `${SKOS}Concept`)
      .map((q) => q.subject.value),
  );
  const literalForm = new Map(
    quads.filter((q) => q.predicate.value === `${SKOSXL}literalForm`).map((q) => [q.subject.value, q.object]),
  );
  const labels = new Map<string, string[]>();
  const bySubject = new Map<string, Quad[]>();
  for (const quad of quads) {
    if (!concepts.has(quad.subject.value)) continue;
    const list = bySubject.get(quad.subject.value) ?? [];
    list.push(quad);
    bySubject.set(quad.subject.value, list);
  }
  for (const [iri, own] of bySubject) {
    const seen = new Set<string>();
    const list: { kind: string; lang: string; text: string }[] = [];
    for (const kind of ['prefLabel', 'altLabel', 'hiddenLabel']) {
      const xl = own
        .filter((q) => q.predicate.value === `${SKOSXL}${kind}`)
        .map((q) => literalForm.get(q.object.value)!);
      const core = own.filter((q) => q.predicate.value === `${SKOS}${kind}`).map((q) => q.object);
      for (const literal of [...xl, ...core]) {
        const lang = (literal as { language: string }).language;
        const text = literal.value.trim();
        if (!lang || seen.has(`${lang}|${text}`)) continue;
        seen.add(`${lang}|${text}`);
        list.push({ kind, lang, text });
      }
    }
    for (const lang of new Set(list.map((l) => l.lang))) {
      const ofLang = list.filter((l) => l.lang === lang);
      if (!ofLang.some((l) => l.kind === 'prefLabel')) {
        const first = ofLang.find((l) => l.kind === 'altLabel');
        if (first) first.kind = 'prefLabel';
      }
    }
    labels.set(iri, list.map((l) => `${l.kind}|${l.lang}|${l.text}`).sort());
  }
  const pairKey = (a: string, b: string) => (a < b ? `${a} ${b}` : `${b} ${a}`);
  const broader = new Set<string>();
  const pairs = new Set<string>();
  for (const quad of quads) {
    const [s, o] = [quad.subject.value, quad.object.value];
    if (!concepts.has(s) || !concepts.has(o) || s === o) continue;
    if (quad.predicate.value === `${SKOS}broader` || quad.predicate.value === `${SKOS}narrower`) {
      if (pairs.has(pairKey(s, o))) continue;
      pairs.add(pairKey(s, o));
      broader.add(quad.predicate.value === `${SKOS}broader` ? `${s} ${o}` : `${o} ${s}`);
    }
  }
  let related = 0;
  for (const quad of quads) {
    const [s, o] = [quad.subject.value, quad.object.value];
    if (quad.predicate.value !== `${SKOS}related` || !concepts.has(s) || !concepts.has(o) || s === o)
      continue;
    if (pairs.has(pairKey(s, o))) continue;
    pairs.add(pairKey(s, o));
    related++;
  }
  return { concepts, labels, broader, related };
}

it('imports the UNESCO Thesaurus in seconds, as the file counts it, and exports the same concepts', async () => {
  const file = await readFile(UNESCO_THESAURUS);
  const want = expected(turtleQuads(file.toString('utf8')));
  expect(want.concepts.size).toBeGreaterThan(4400);

  const started = performance.now();
  const answer = await importSkos(server, token, file, 'unesco-thesaurus.ttl');
  const seconds = (performance.now() - started) / 1000;
  expect(answer.status, answer.message).toBe(200);
  const summary = answer.summary!;
  const labelCount = [...want.labels.values()].reduce((sum, list) => sum + list.length, 0);
  console.log(
    `UNESCO Thesaurus: ${summary.concepts} concepts, ${summary.terms} terms imported in ${seconds.toFixed(1)} s (${summary.errorCount} notes)`,
  );
  expect(summary).toMatchObject({ concepts: want.concepts.size, terms: labelCount, skipped: 0 });
  const id = summary.dictionaryId;
  const [dictionary] = await rows<{ name: string }>(server.t, 'select name from dictionaries where id = ?', [
    id,
  ]);
  expect(dictionary?.name).toBe('UNESCO Thesaurus');

  // Terms per language, against the labels per language tag of the file.
  const perLanguage = await rows<{ language_code: string; n: number }>(
    server.t,
    'select language_code, count(*)::int as n from terms where dictionary_id = ? and not deleted group by 1 order by 1',
    [id],
  );
  const fileLanguages = new Map<string, number>();
  for (const list of want.labels.values()) {
    for (const label of list) {
      const lang = label.split('|')[1]!;
      fileLanguages.set(lang, (fileLanguages.get(lang) ?? 0) + 1);
    }
  }
  const code3: Record<string, string> = { en: 'eng', fr: 'fra', es: 'spa', ru: 'rus', ar: 'ara' };
  expect(Object.fromEntries(perLanguage.map((r) => [r.language_code, r.n]))).toEqual(
    Object.fromEntries([...fileLanguages].map(([lang, n]) => [code3[lang] ?? lang, n])),
  );
  const relations = await rows<{ type: number; n: number }>(
    server.t,
    'select type, count(*)::int as n from concept_relations where dictionary_id = ? group by 1 order by 1',
    [id],
  );
  expect(relations).toEqual([
    { type: 0, n: want.broader.size },
    { type: 4, n: want.related },
  ]);
  const [domains] = await rows<{ n: number }>(
    server.t,
    'select count(*)::int as n from domains where dictionary_id = ? and not deleted',
    [id],
  );
  expect(domains?.n).toBeGreaterThan(50);

  const exportStarted = performance.now();
  const exported = await exportSkos(server, token, id);
  console.log(
    `UNESCO Thesaurus: exported as Turtle in ${((performance.now() - exportStarted) / 1000).toFixed(1)} s, ${exported.text.length} characters`,
  );
  expect(exported.status).toBe(200);
  const again = conceptsOf(turtleQuads(exported.text));
  expect(new Set(again.keys())).toEqual(want.concepts);
  const differing = [...want.labels].filter(
    ([iri, labels]) =>
      JSON.stringify(again.get(iri)?.labels.filter((l) => l.includes('Label|'))) !== JSON.stringify(labels),
  );
  expect(differing.slice(0, 3)).toEqual([]);
  const broaderAgain = new Set([...again].flatMap(([iri, c]) => c.broader.map((b) => `${iri} ${b}`)));
  expect(broaderAgain).toEqual(want.broader);
}, 600_000);
