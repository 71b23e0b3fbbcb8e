/**
 * Real multilingual data for the search suites, and an oracle that answers term searches from the
 * stored rows alone: the Icelandic Term Bank TBX files and a dictionary of CLDR emoji annotations
 * (Japanese, Chinese in both scripts, Korean, Arabic, Hebrew, Persian, English, and the symbols
 * themselves), both imported through POST /dictionaries/import-tbx.
 *
 * The oracle takes folded and lower-cased keys from PostgreSQL (polyterm_fold and polyterm_lower are
 * the definition of folding); matching, edit distances and the order are computed here.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { TestApp } from '../helpers/app.js';
import { type JobBody, rows } from '../helpers/structure.js';
import { byListOrder } from './search-helpers.js';

// ---------------------------------------------------------------- import over the socket

interface ImportSummary {
  dictionaryId: number;
  concepts: number;
  terms: number;
  errors: { line: number; message: string }[];
}

async function getJson<T>(base: string, token: string, path: string, method = 'GET'): Promise<T> {
  const response = await fetch(`${base}/api/v4${path}`, { method, headers: { 'x-auth-token': token } });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/** Polls a job until it leaves RUNNING; throws unless it is DONE. */
export async function finishedJob(base: string, token: string, id: number, timeoutMs = 240_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await getJson<JobBody>(base, token, `/jobs/${id}`);
    if (job.status === 'DONE') return job;
    if (job.status !== 'RUNNING') throw new Error(`job ${id} ${job.status}: ${job.message}`);
    if (Date.now() > deadline) throw new Error(`job ${id} still running after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Imports a TBX file into a new dictionary (multipart upload, then the job); answers its summary. */
export async function importTbx(
  base: string,
  token: string,
  content: string | Buffer,
  name: string,
): Promise<ImportSummary> {
  const form = new FormData();
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  form.append('file', new Blob([new Uint8Array(bytes)]), `${name}.tbx`);
  const response = await fetch(`${base}/api/v4/dictionaries/import-tbx?${new URLSearchParams({ name })}`, {
    method: 'POST',
    headers: { 'x-auth-token': token },
    body: form,
  });
  const text = await response.text();
  if (response.status !== 200 && response.status !== 202) {
    throw new Error(`import ${name}: ${response.status} ${text}`);
  }
  const answer = JSON.parse(text) as { jobTaskId?: number; result?: unknown };
  const result =
    answer.jobTaskId === undefined
      ? answer.result
      : (await finishedJob(base, token, answer.jobTaskId)).result;
  const summary = result as unknown as ImportSummary;
  if (summary.errors.length) throw new Error(`import ${name}: ${JSON.stringify(summary.errors[0])}`);
  return summary;
}

/**
 * Waits until the server's outbox is empty (/ready pendingChanges 0) and its engine serves search (not
 * PostgreSQL in its place: an Elasticsearch that was too busy to answer in time), or the time is up.
 */
export async function outboxDrained(base: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await fetch(`${base}/ready`);
    const body = (await response.json()) as {
      search?: { engine?: string; servedBy?: string; pendingChanges?: number };
    };
    if (body.search?.pendingChanges === 0 && body.search.servedBy === body.search.engine) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

// ---------------------------------------------------------------- Icelandic Term Bank

/** The Nordic files' tags and the ISO 639-2 codes their terms carry. */
const CODE_OF_TAG: Record<string, string> = {
  is: 'isl',
  en: 'eng',
  dk: 'dan',
  sf: 'fin',
  no: 'nor',
  nn: 'nno',
  sv: 'swe',
  fo: 'fao',
  gl: 'kal',
  de: 'deu',
  fr: 'fra',
  es: 'spa',
  pt: 'por',
  la: 'lat',
};

/** Terms per language of a term bank file, counted with plain regular expressions. */
export function countTermBankFile(xml: string): Record<string, number> {
  const terms: Record<string, number> = {};
  for (const match of xml.matchAll(/<langSet xml:lang="([^"]+)">([\s\S]*?)<\/langSet>/g)) {
    const code = CODE_OF_TAG[match[1]!] ?? match[1]!;
    terms[code] = (terms[code] ?? 0) + (match[2]!.match(/<term[\s>]/g) ?? []).length;
  }
  return terms;
}

// ---------------------------------------------------------------- CLDR annotations

/** The CLDR locales used, with the xml:lang they are imported as and the stored language and script. */
export const CLDR_LOCALES = [
  { locale: 'en', tag: 'en', lang: 'eng', script: null },
  { locale: 'ja', tag: 'ja', lang: 'jpn', script: null },
  { locale: 'zh', tag: 'zh-Hans', lang: 'zho', script: 'hans' },
  { locale: 'zh-Hant', tag: 'zh-Hant', lang: 'zho', script: 'hant' },
  { locale: 'ko', tag: 'ko', lang: 'kor', script: null },
  { locale: 'ar', tag: 'ar', lang: 'ara', script: null },
  { locale: 'he', tag: 'he', lang: 'heb', script: null },
  { locale: 'fa', tag: 'fa', lang: 'fas', script: null },
] as const;

/** The emoji and symbols themselves are terms of "no linguistic content" (many are astral-plane). */
export const SYMBOL_LANG = 'zxx';

interface Annotation {
  default?: string[];
  tts?: string[];
}

/** The folder of the cldr-annotations-full package (its LICENSE is the Unicode License v3). */
export function cldrPackageDir(): string {
  const require = createRequire(import.meta.url);
  return dirname(require.resolve('cldr-annotations-full/package.json'));
}

function annotationsOf(locale: string): Record<string, Annotation> {
  const file = join(cldrPackageDir(), 'annotations', locale, 'annotations.json');
  const json = JSON.parse(readFileSync(file, 'utf8')) as {
    annotations: { annotations: Record<string, Annotation> };
  };
  return json.annotations.annotations;
}

const xmlEscaped = (text: string) =>
  text.replace(/[&<>"]/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[char]!);

const hexOf = (text: string) => [...text].map((char) => char.codePointAt(0)!.toString(16)).join('-');

export interface CldrDictionary {
  tbx: string;
  /** The names each language (and script) should hold: key `lang` or `lang/script`. */
  names: Map<string, string[]>;
  concepts: number;
}

/**
 * A TBX (v3 DCA) file with one concept per `stride`-th annotated character: the tts name and the first
 * `keywords` other keywords per locale as terms, and the character itself as a zxx term.
 */
export function cldrDictionary(stride: number, keywords: number): CldrDictionary {
  const byLocale = new Map(CLDR_LOCALES.map((entry) => [entry.locale, annotationsOf(entry.locale)]));
  const english = byLocale.get('en')!;
  const characters = Object.keys(english).filter((_, index) => index % stride === 0);
  const names = new Map<string, string[]>();
  const add = (key: string, name: string) => names.set(key, [...(names.get(key) ?? []), name]);
  const entries: string[] = [];
  for (const character of characters) {
    const id = `cldr-${hexOf(character)}`;
    const langSecs = [
      `<langSec xml:lang="zxx"><termSec><term id="${id}-zxx">${xmlEscaped(character)}</term></termSec></langSec>`,
    ];
    add(SYMBOL_LANG, character);
    for (const { locale, tag, lang, script } of CLDR_LOCALES) {
      const annotation = byLocale.get(locale)![character];
      if (!annotation) continue;
      const tts = annotation.tts ?? [];
      const others = (annotation.default ?? []).filter((word) => !tts.includes(word)).slice(0, keywords);
      const terms = [...new Set([...tts, ...others].map((name) => name.trim()).filter(Boolean))];
      if (terms.length === 0) continue;
      const termSecs = terms.map(
        (name, index) => `<termSec><term id="${id}-${tag}-${index}">${xmlEscaped(name)}</term></termSec>`,
      );
      langSecs.push(`<langSec xml:lang="${tag}">${termSecs.join('')}</langSec>`);
      for (const name of terms) add(script ? `${lang}/${script}` : lang, name);
    }
    entries.push(`<conceptEntry id="${id}">${langSecs.join('')}</conceptEntry>`);
  }
  const tbx = `<?xml version="1.0" encoding="UTF-8"?>
<tbx type="TBX-Basic" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2">
<tbxHeader><fileDesc><sourceDesc><p>CLDR annotations (npm cldr-annotations-full), Unicode License v3</p></sourceDesc></fileDesc></tbxHeader>
<text><body>
${entries.join('\n')}
</body></text>
</tbx>
`;
  return { tbx, names, concepts: characters.length };
}

// ---------------------------------------------------------------- the oracle

export interface StoredTerm {
  id: number;
  oid: string | null;
  name: string;
  lower: string;
  folded: string;
  dictionaryId: number;
  lang: string;
  region: string | null;
  script: string | null;
}

/** Every live term of these dictionaries with the database's own keys, in the list order (byListOrder). */
export async function storedTerms(t: TestApp, dictionaryIds: number[]): Promise<StoredTerm[]> {
  const stored = await rows<StoredTerm>(
    t,
    `select t.id, t.oid, t.name, polyterm_lower(t.name) as lower, polyterm_fold(t.name) as folded,
            t.dictionary_id as "dictionaryId", t.language_code as lang,
            lower(t.region_code) as region, lower(t.script_code) as script
       from terms t join concepts c on c.id = t.concept_id
      where t.dictionary_id in (?) and not t.deleted and not c.deleted`,
    [dictionaryIds],
  );
  // Sorted once here: every expected list is a filter of this array, so it keeps the order.
  return stored.sort(byListOrder);
}

/** polyterm_lower and polyterm_fold of query texts, as the server computes them. */
export async function keysOf(t: TestApp, texts: string[]) {
  const unique = [...new Set(texts)];
  const keys = new Map<string, { lower: string; folded: string }>();
  if (unique.length === 0) return keys;
  const answer = await rows<{ text: string; lower: string; folded: string }>(
    t,
    'select x as text, polyterm_lower(x) as lower, polyterm_fold(x) as folded from unnest(array[?]::text[]) x',
    [unique],
  );
  for (const row of answer) keys.set(row.text, { lower: row.lower, folded: row.folded });
  return keys;
}

/** Levenshtein distance by code point (no transpositions). */
export function levenshtein(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[y.length]!;
}

export type Mode = 'PREFIX' | 'SUBSTRING' | 'EXACT';

export interface OracleQuery {
  dictionaryIds: number[];
  lang: string;
  script?: string | null;
  region?: string | null;
  /** The text as sent (trimmed and keyed like the server does). */
  name: string;
  mode: Mode;
  normalized: boolean;
  fuzziness: 0 | 1 | 2;
}

/** Longest folded text a fuzzy match is tried for (as search-plan.ts). */
const FUZZY_MAX_LENGTH = 253;

/** The whole ordered list a query should answer, from the stored terms (in list order) and the keys. */
export function expectedList(
  terms: readonly StoredTerm[],
  query: OracleQuery,
  keys: Map<string, { lower: string; folded: string }>,
): StoredTerm[] {
  const text = query.name.trim();
  const key = keys.get(text);
  if (text && !key) throw new Error(`no keys for "${text}"`);
  const wanted = query.normalized ? key?.folded : key?.lower;
  const matches = (term: StoredTerm) => {
    if (!text) return true;
    const value = query.normalized ? term.folded : term.lower;
    const byName =
      query.mode === 'EXACT'
        ? value === wanted
        : query.mode === 'PREFIX'
          ? value.startsWith(wanted!)
          : value.includes(wanted!);
    if (byName) return true;
    const target = key!.folded;
    const length = [...target].length;
    // A text that folds to nothing (a lone combining mark) has no fuzzy part (docs/search.md).
    if (query.fuzziness === 0 || length === 0 || length > FUZZY_MAX_LENGTH) return false;
    return (
      Math.abs([...term.folded].length - length) <= query.fuzziness &&
      levenshtein(term.folded, target) <= query.fuzziness
    );
  };
  return terms.filter(
    (term) =>
      query.dictionaryIds.includes(term.dictionaryId) &&
      term.lang === query.lang &&
      (query.script == null || term.script === query.script.toLowerCase()) &&
      (query.region == null || term.region === query.region.toLowerCase()) &&
      matches(term),
  );
}

/** A small seeded generator (mulberry32), so a failing random query can be replayed. */
export function seeded(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (below: number) => Math.floor(next() * below),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}
