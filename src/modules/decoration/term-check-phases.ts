/**
 * Term check's answer from the lookups of its two texts (docs/decoration.md): a pure function of plain
 * data, so it runs in a decoration worker thread (decoration.worker.ts) beside the matching, not on the
 * server's event loop (issue 38). Forbidden and deprecated terms used on either side come with their
 * replacements, source terms whose approved translations are all missing from the target are listed
 * with them, and source terms whose concept has no term in the target language too.
 */
import type { Match, TermCheckResponse } from './decoration.schema.js';
import { type Lookup, matchOf } from './decoration-phases.js';
import { conceptTerms } from './match-building.js';

function matchesOf(lookup: Lookup, targetLangs: readonly string[]): Match[] {
  const [only] = lookup.segments;
  return only ? only.spans.map((span) => matchOf(lookup, only.segment, span, targetLangs)) : [];
}

const checked = ({ homonyms: _h, translations: _t, ...rest }: Match) => rest;

const approved = (entry: { status: string }) => entry.status === 'preferred' || entry.status === 'admitted';

/** The answer of POST /term-check: the source looked up with translations into `targetLang`, the target without. */
export function termCheckAnswer(
  sourceLookup: Lookup,
  targetLookup: Lookup,
  targetLang: string,
): TermCheckResponse {
  const source = matchesOf(sourceLookup, [targetLang]);
  const target = matchesOf(targetLookup, []);
  const avoided: TermCheckResponse['avoided'] = [];
  for (const [segment, matches, lookup] of [
    ['source', source, sourceLookup],
    ['target', target, targetLookup],
  ] as const) {
    for (const match of matches) {
      if (match.status !== 'forbidden' && match.status !== 'deprecated') continue;
      const replacements = conceptTerms(lookup.byConcept, match.conceptId, lookup.sourceLang).filter(
        approved,
      );
      avoided.push({ ...checked(match), segment, replacements });
    }
  }
  // A concept is translated when the target uses one of its approved terms (a forbidden one is no translation).
  const conceptsInTarget = new Set(
    target.flatMap((m) => [m, ...m.homonyms]).flatMap((entry) => (approved(entry) ? [entry.conceptId] : [])),
  );
  const missingTranslations: TermCheckResponse['missingTranslations'] = [];
  const noEquivalent: TermCheckResponse['noEquivalent'] = [];
  for (const match of source) {
    const translations = match.translations[targetLang] ?? [];
    if (!translations.length) {
      noEquivalent.push(checked(match));
      continue;
    }
    const expected = translations.filter(approved);
    if (expected.length && !conceptsInTarget.has(match.conceptId)) {
      missingTranslations.push({ ...checked(match), expected });
    }
  }
  return { avoided, missingTranslations, noEquivalent };
}

/** The answer as UTF-8 JSON, serialised in the worker like decoration's (raw-json.ts). */
export function termCheckJson(sourceLookup: Lookup, targetLookup: Lookup, targetLang: string): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(termCheckAnswer(sourceLookup, targetLookup, targetLang)));
}
