/**
 * The synthetic term bank of the benchmarks: the Icelandic Term Bank's real terms in 10 languages, then
 * the same terms qualified by words of their language until every name is unique, written as TBX.
 */
import { once } from 'node:events';
import { createWriteStream, readdirSync, readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { escapeXmlText } from '../../src/modules/tbx/tbx-writer.js';
import { ICELANDIC_TERM_BANK_DIR } from '../../test/helpers/datasets.js';
import { mb, seconds } from './report.js';
import { random, shuffled } from './seeded-random.js';

/** TBX tag (as the term bank writes it) -> the tag we write and the ISO 639-2 code Polyterm stores. */
export const LANGUAGES = [
  { source: 'is', tag: 'is', code: 'isl' },
  { source: 'en', tag: 'en', code: 'eng' },
  { source: 'dk', tag: 'da', code: 'dan' },
  { source: 'sv', tag: 'sv', code: 'swe' },
  { source: 'no', tag: 'no', code: 'nor' },
  { source: 'sf', tag: 'fi', code: 'fin' },
  { source: 'de', tag: 'de', code: 'deu' },
  { source: 'fr', tag: 'fr', code: 'fra' },
  { source: 'es', tag: 'es', code: 'spa' },
  { source: 'pt', tag: 'pt', code: 'por' },
] as const;

export interface Vocabulary {
  terms: string[];
  words: string[];
}

/** What writeSyntheticTbx wrote: each language's vocabulary and its names, by TBX tag. */
export interface SyntheticTerms {
  vocabulary: Map<string, Vocabulary>;
  names: Map<string, string[]>;
}

/** Writes `terms` terms in LANGUAGES into a TBX file and prints what it wrote. */
export async function writeSyntheticTbx(file: string, terms: number): Promise<SyntheticTerms> {
  const started = Date.now();
  const vocabulary = readVocabulary();
  const concepts = Math.ceil(terms / LANGUAGES.length);
  const names = new Map(
    LANGUAGES.map((language, i) => [
      language.tag,
      namesOf(vocabulary.get(language.tag)!, concepts, 1000 + i),
    ]),
  );
  await writeFile(file, names, concepts, terms);
  console.log(
    `file: ${terms} terms in ${LANGUAGES.length} languages (${LANGUAGES.map((l) => `${l.tag} ${vocabulary.get(l.tag)!.terms.length}`).join(', ')} real terms), ${concepts} concepts, ${mb((await stat(file)).size)} written in ${seconds(Date.now() - started)}`,
  );
  return { vocabulary, names };
}

const unescapeXml = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/** Each language's terms and words in the term bank's TBX files (a plain scan: the files are regular). */
function readVocabulary(): Map<string, Vocabulary> {
  const terms = new Map<string, Set<string>>(LANGUAGES.map((l) => [l.source, new Set<string>()]));
  const files = readdirSync(ICELANDIC_TERM_BANK_DIR).filter((name) => name.endsWith('.tbx'));
  if (files.length === 0) throw new Error(`no TBX files in ${ICELANDIC_TERM_BANK_DIR}`);
  for (const file of files) {
    const xml = readFileSync(path.join(ICELANDIC_TERM_BANK_DIR, file), 'utf8');
    for (const langSet of xml.matchAll(/<langSet xml:lang="([^"]+)">([\s\S]*?)<\/langSet>/g)) {
      const set = terms.get(langSet[1]!.toLowerCase());
      if (!set) continue;
      for (const term of langSet[2]!.matchAll(/<term\b[^>]*>([^<]+)<\/term>/g)) {
        const name = unescapeXml(term[1]!).trim().replace(/\s+/g, ' ');
        // Notes and numbering ("3. instans bevilling") are not what users type.
        if (name.length >= 2 && name.length <= 60 && /^\p{L}[\p{L}\p{M} '-]*$/u.test(name)) set.add(name);
      }
    }
  }
  const vocabulary = new Map<string, Vocabulary>();
  for (const language of LANGUAGES) {
    const list = [...terms.get(language.source)!];
    const words = new Set(
      list
        .flatMap((term) => term.split(/[ -]+/))
        .filter((word) => [...word].length >= 3 && /^\p{L}+$/u.test(word)),
    );
    if (list.length < 50) throw new Error(`too few ${language.source} terms in the term bank`);
    vocabulary.set(language.tag, { terms: list, words: [...words] });
  }
  return vocabulary;
}

/**
 * `count` unique names of one language: the real terms first, then real terms qualified by one or more
 * of the language's words ("kosningaaldur sjóður"), as large term banks hold many compounds.
 */
function namesOf(vocabulary: Vocabulary, count: number, seed: number): string[] {
  const next = random(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const names = new Set<string>();
  const real = shuffled(vocabulary.terms, next);
  for (const term of real) {
    if (names.size >= count) break;
    names.add(term);
  }
  while (names.size < count) {
    let name = `${pick(vocabulary.terms)} ${pick(vocabulary.words)}`;
    while (names.has(name)) name += ` ${pick(vocabulary.words)}`;
    names.add(name);
  }
  return shuffled([...names], next);
}

/** Writes a TBX v3 DCA file: one concept per language round, each concept with a term per language. */
async function writeFile(file: string, names: Map<string, string[]>, concepts: number, terms: number) {
  const out = createWriteStream(file);
  const write = async (chunk: string) => {
    if (!out.write(chunk)) await once(out, 'drain');
  };
  await write(
    '<?xml version="1.0" encoding="UTF-8"?>\n<tbx type="TBX-Basic" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2"><tbxHeader><fileDesc><sourceDesc><p>Search bench</p></sourceDesc></fileDesc></tbxHeader><text><body>\n',
  );
  let written = 0;
  for (let c = 0; c < concepts; c++) {
    let entry = `<conceptEntry id="c${c + 1}">`;
    for (const language of LANGUAGES) {
      const name = names.get(language.tag)![c];
      if (name === undefined || written++ >= terms) continue;
      entry += `<langSec xml:lang="${language.tag}"><termSec><term>${escapeXmlText(name)}</term></termSec></langSec>`;
    }
    await write(`${entry}</conceptEntry>\n`);
  }
  await write('</body></text></tbx>\n');
  out.end();
  await once(out, 'finish');
}
