/**
 * Term check (docs/decoration.md): a source segment and its translation against the termbase. Both are
 * decorated (longest-leftmost, every match kind); then forbidden and deprecated terms used on either
 * side come with their replacements, source terms whose approved translations are all missing from the
 * target are listed with them, and source terms whose concept has no term in the target language too.
 */
import type { Scope } from '../../shared/scope.js';
import { languageKey } from '../stemming/language-codes.js';
import {
  DEFAULT_KINDS,
  type Match,
  type TermCheckInput,
  type TermCheckResponse,
} from './decoration.schema.js';
import { type Lookup, lookUpSegments, matchOf } from './decoration.service.js';
import { conceptTerms } from './match-building.js';

function matchesOf(lookup: Lookup, targetLangs: readonly string[]): Match[] {
  const [only] = lookup.segments;
  return only ? only.spans.map((span) => matchOf(lookup, only.segment, span, targetLangs)) : [];
}

const checked = ({ homonyms: _h, translations: _t, ...rest }: Match) => rest;

/** POST /term-check. */
export async function checkTerms(scope: Scope, input: TermCheckInput): Promise<TermCheckResponse> {
  const targetLang = languageKey(input.targetLang);
  const common = {
    dictionaryIds: input.dictionaryIds,
    kinds: DEFAULT_KINDS,
    minScore: 0,
    overlap: 'longest' as const,
  };
  const format = input.format ?? 'text';
  const sourceLookup = await lookUpSegments(scope, {
    ...common,
    sourceLang: input.sourceLang,
    targetLangs: [targetLang],
    segments: [{ id: 'source', text: input.source, format }],
  });
  const targetLookup = await lookUpSegments(scope, {
    ...common,
    sourceLang: targetLang,
    targetLangs: [],
    segments: [{ id: 'target', text: input.target, format }],
  });
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
        (ref) => ref.status === 'preferred' || ref.status === 'admitted',
      );
      avoided.push({ ...checked(match), segment, replacements });
    }
  }
  // A concept is translated when the target uses one of its approved terms (a forbidden one is no translation).
  const approved = (entry: { status: string }) => entry.status === 'preferred' || entry.status === 'admitted';
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
