/**
 * From spans and the terms their keys found to matches: the kind and score of each (span, term), one
 * entry per concept (homonyms are the other concepts), the concept's preferred terms and translations,
 * and the choice among overlapping spans (longest-leftmost, or all).
 */

import type { TermRow } from './candidate-lookup.js';
import type { MatchEntry, MatchKind, TermRef } from './decoration.schema.js';
import { statusRank, termStatusOf } from './term-status.js';
import { normalizeSpaces, type Span } from './text-spans.js';

export interface Candidate {
  span: Span;
  term: TermRow;
  kind: MatchKind;
  score: number;
  /** How well a stemmed match matches (MATCH_LEVEL; 0 for the other kinds): the lower, the better. */
  level: number;
}

/**
 * Stemmed matches in a language stemmed by a lexicon (Icelandic) rank by what the Hunspell lemmas say:
 * the text's words are forms of the term as written ("Sendu" of *senda*); or the text's words and the
 * term's are forms of the same lemmas ("hraður" and *Hratt*, both of *hraður*); or they only share the
 * stem key (Hunspell knows neither, or a lemma differs: "Sendu" and *sendandi*, the text's word a form
 * of *senda*, the term's name a noun Hunspell reads as senda's participle). Elsewhere every stemmed
 * match is `key`: Snowball has no lemmas.
 */
export const MATCH_LEVEL = { citation: 1, lemma: 2, key: 3 } as const;

const KIND_RANK: Record<MatchKind, number> = {
  exact: 0,
  'case-folded': 1,
  'accent-folded': 2,
  stemmed: 3,
  fuzzy: 4,
};
const FOLDED_SCORES: Record<Exclude<MatchKind, 'stemmed' | 'fuzzy'>, number> = {
  exact: 1,
  'case-folded': 0.95,
  'accent-folded': 0.9,
};
/** Names starting or ending with punctuation ("C++", ".NET") lose it in their stem key: folded only. */
const PUNCTUATION_AT_ENDS = /^[\p{P}\p{S}]|[\p{P}\p{S}]$/u;

/** How a span matches a term whose folded name equals the span's. */
export function foldedKind(span: Span, term: TermRow): Exclude<MatchKind, 'stemmed' | 'fuzzy'> {
  const name = normalizeSpaces(term.name);
  if (span.surface === name) return 'exact';
  if (span.surface.toLowerCase() === name.toLowerCase()) return 'case-folded';
  return 'accent-folded';
}

function commonStart(a: string, b: string): number {
  let common = 0;
  while (common < a.length && common < b.length && a[common] === b[common]) common++;
  return common;
}

/** `base` plus up to `range`, more the longer the folded forms' common beginning. */
function scoreBetween(span: Span, term: TermRow, base: number, range: number): number {
  const common = commonStart(span.folded, term.folded);
  return (
    Math.round((base + (range * common) / Math.max(span.folded.length, term.folded.length, 1)) * 1000) / 1000
  );
}

/** Fuzzy matches: one word and a one-word name, one the other plus up to this many letters. */
export const FUZZY_EXTRA = 3;
/** ...both at least this long (shorter words are too often the start of other words). */
export const FUZZY_MIN_LENGTH = 4;

/** A fuzzy candidate (veira ~ veiran, tölvupóstur ~ tölvupóst), or null when the forms are too far apart. */
export function fuzzyCandidate(span: Span, term: TermRow): Candidate | null {
  if (!caseAllowed(span, term)) return null;
  if (span.attached || span.firstToken !== span.lastToken || term.folded.includes(' ')) return null;
  const [shorter, longer] =
    span.folded.length <= term.folded.length ? [span.folded, term.folded] : [term.folded, span.folded];
  if ([...shorter].length < FUZZY_MIN_LENGTH || [...longer].length - [...shorter].length > FUZZY_EXTRA)
    return null;
  if (shorter === longer || !longer.startsWith(shorter)) return null;
  return { span, term, kind: 'fuzzy', score: scoreBetween(span, term, 0.4, 0.2), level: 0 };
}

const LETTERS = /\p{L}/gu;
const LOWER = /\p{Ll}/u;

/** A name of two letters or more, all of them capitals ("IT", "AIDS", "ИИ"): an acronym. */
export function isAcronym(name: string): boolean {
  const letters = name.match(LETTERS) ?? [];
  return letters.length >= 2 && !letters.some((letter) => LOWER.test(letter)) && /\p{Lu}/u.test(name);
}

/**
 * An acronym matches only text written in capitals too (a plural s aside: "ATMs"), so "it" is not IT
 * and "aids" not AIDS; the dictionary's `acronymCase: 'fold'` lets it match any case.
 */
function caseAllowed(span: Span, term: TermRow): boolean {
  if (term.acronymFolds || !isAcronym(term.name)) return true;
  return !LOWER.test(span.surface.replace(/s$/u, ''));
}

export function foldedCandidate(span: Span, term: TermRow): Candidate | null {
  if (!caseAllowed(span, term)) return null;
  const kind = foldedKind(span, term);
  return { span, term, kind, score: FOLDED_SCORES[kind], level: 0 };
}

/** The level of a stemmed match from the span's lemma key (null: no lexicon) and the term's keys. */
export function stemLevel(spanLemma: string | null, term: TermRow): number {
  if (!spanLemma) return MATCH_LEVEL.key;
  if (spanLemma === term.citationKey) return MATCH_LEVEL.citation;
  return spanLemma === term.lemmaKey ? MATCH_LEVEL.lemma : MATCH_LEVEL.key;
}

/**
 * A stemmed candidate, or null for names whose stem key does not stand for them. `spanLemma`: the
 * span's lemma key under the term's dictionary's settings (null where no lexicon stems the language).
 */
export function stemmedCandidate(
  span: Span,
  term: TermRow,
  spanLemma: string | null = null,
): Candidate | null {
  if (span.attached || !term.stemKey || PUNCTUATION_AT_ENDS.test(term.name)) return null;
  if (!caseAllowed(span, term)) return null;
  const score = scoreBetween(span, term, 0.6, 0.2);
  return { span, term, kind: 'stemmed', score, level: stemLevel(spanLemma, term) };
}

const better = (a: Candidate, b: Candidate) =>
  KIND_RANK[a.kind] - KIND_RANK[b.kind] ||
  a.level - b.level ||
  b.score - a.score ||
  statusRank(termStatusOf(a.term.usage, a.term.workflowCategory)) -
    statusRank(termStatusOf(b.term.usage, b.term.workflowCategory)) ||
  a.term.id - b.term.id;

/** The candidates of one span: the best per concept, best first (the first is the match, the rest homonyms). */
export interface SpanMatch {
  span: Span;
  candidates: Candidate[];
}

export function groupBySpan(candidates: readonly Candidate[]): SpanMatch[] {
  const bySpan = new Map<string, Map<number, Candidate>>();
  const spans = new Map<string, Span>();
  for (const candidate of candidates) {
    const key = `${candidate.span.start}:${candidate.span.end}`;
    spans.set(key, spans.get(key) ?? candidate.span);
    const perConcept = bySpan.get(key) ?? new Map<number, Candidate>();
    bySpan.set(key, perConcept);
    const current = perConcept.get(candidate.term.conceptId);
    if (!current || better(candidate, current) < 0) perConcept.set(candidate.term.conceptId, candidate);
  }
  return [...bySpan].map(([key, perConcept]) => {
    const candidates = [...perConcept.values()].sort(better);
    // Another concept stands beside the match only when it matches as well: the same kind (an exact
    // match brings no concept whose term merely shares its stem) and, stemmed, the same level (a form
    // of the term as written brings no concept whose term only shares the key).
    const [best] = candidates;
    return {
      span: spans.get(key)!,
      candidates: candidates.filter((c) => c.kind === best!.kind && c.level === best!.level),
    };
  });
}

/**
 * Longest-leftmost: spans by start, then longest, then best kind; a span overlapping one already taken
 * is left out. With `all`, every span, in the same order.
 */
export function chooseSpans(matches: readonly SpanMatch[], overlap: 'longest' | 'all'): SpanMatch[] {
  const ordered = [...matches].sort(
    (a, b) =>
      a.span.start - b.span.start ||
      b.span.end - a.span.end ||
      KIND_RANK[a.candidates[0]!.kind] - KIND_RANK[b.candidates[0]!.kind],
  );
  if (overlap === 'all') return ordered;
  const chosen: SpanMatch[] = [];
  let reached = -1;
  for (const match of ordered) {
    if (match.span.start < reached) continue;
    chosen.push(match);
    reached = match.span.end;
  }
  return chosen;
}

const refOf = (term: TermRow): TermRef => ({
  termId: term.id,
  name: term.name,
  langCode: term.langCode,
  status: termStatusOf(term.usage, term.workflowCategory),
});

const byRecommendation = (a: TermRef, b: TermRef) =>
  statusRank(a.status) - statusRank(b.status) || a.name.localeCompare(b.name) || a.termId - b.termId;

/** The terms of each concept, from the lookup's rows (matched and related). */
export function termsByConcept(rows: readonly TermRow[]): Map<number, TermRow[]> {
  const byConcept = new Map<number, TermRow[]>();
  const seen = new Set<number>();
  for (const row of rows) {
    if (seen.has(row.id)) continue;
    seen.add(row.id);
    const list = byConcept.get(row.conceptId) ?? [];
    list.push(row);
    byConcept.set(row.conceptId, list);
  }
  return byConcept;
}

/** The terms of a concept in a language, most recommended first. */
export function conceptTerms(
  byConcept: Map<number, TermRow[]>,
  conceptId: number,
  language: string,
): TermRef[] {
  return (byConcept.get(conceptId) ?? [])
    .filter((term) => term.langCode.toLowerCase() === language)
    .map(refOf)
    .sort(byRecommendation);
}

export function entryOf(
  candidate: Candidate,
  byConcept: Map<number, TermRow[]>,
  sourceLang: string,
  targetLangs: readonly string[],
): MatchEntry {
  const { term } = candidate;
  const status = termStatusOf(term.usage, term.workflowCategory);
  return {
    conceptId: term.conceptId,
    termId: term.id,
    dictionaryId: term.dictionaryId,
    term: term.name,
    kind: candidate.kind,
    score: candidate.score,
    status,
    preferred:
      status === 'preferred'
        ? []
        : conceptTerms(byConcept, term.conceptId, sourceLang).filter((ref) => ref.status === 'preferred'),
    translations: Object.fromEntries(
      targetLangs.map((language) => [language, conceptTerms(byConcept, term.conceptId, language)]),
    ),
  };
}
