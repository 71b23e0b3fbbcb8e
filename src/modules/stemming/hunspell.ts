/**
 * A Hunspell dictionary (.aff affix rules and .dic stems) read as rows for PostgreSQL's lexicon tables
 * (stemming_hunspell_stems, stemming_hunspell_suffixes; Migration20261230140000_isl): the database
 * finds a word's lemma by taking suffix rules off it (docs/decoration.md, "Languages without Snowball").
 * Only what lemmatising needs is kept: suffix rules (their continuation classes and morphology dropped;
 * prefix rules are not read) and the stems that carry flags (a .dic entry without flags inflects with
 * no rule, so it is no lemma of anything but itself). Flags may be single characters (the default),
 * `FLAG long` pairs, `FLAG num` numbers or `FLAG UTF-8` characters, and `AF` aliases.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export interface SuffixRule {
  flag: string;
  /** Letters the rule takes off the stem ('' for none). */
  strip: string;
  /** Letters it appends ('' for none). */
  append: string;
  /** What the stem must end with, as a PostgreSQL regular expression anchored at the end. */
  condition: string;
}

export interface HunspellLexicon {
  /** Lower-case stems and their flags. */
  stems: [string, string[]][];
  suffixes: SuffixRule[];
}

type FlagType = 'char' | 'long' | 'num' | 'utf-8';

function splitFlags(flags: string, type: FlagType): string[] {
  if (type === 'num') return flags.split(',').filter(Boolean);
  if (type === 'long') return flags.match(/../gu) ?? [];
  return [...flags];
}

const zero = (value: string) => (value === '0' ? '' : value);

export function parseHunspell(aff: string, dic: string): HunspellLexicon {
  let type: FlagType = 'char';
  const aliases: string[][] = [];
  const suffixes: SuffixRule[] = [];
  for (const line of aff.split(/\r?\n/u)) {
    const parts = line.trim().split(/\s+/u);
    if (parts[0] === 'FLAG' && parts[1]) type = parts[1].toLowerCase() as FlagType;
    // AF lines after the count line: each an alias numbered from 1.
    else if (parts[0] === 'AF' && parts.length === 2 && !/^\d+$/u.test(parts[1]!)) {
      aliases.push(splitFlags(parts[1]!, type));
    } else if (parts[0] === 'SFX' && parts.length >= 5) {
      const [, flag, strip, append, condition] = parts as [string, string, string, string, string];
      suffixes.push({
        flag,
        strip: zero(strip),
        append: zero(append.split('/')[0]!),
        condition: `${condition === '.' ? '' : condition}$`,
      });
    }
  }
  const flagsOf = (flags: string) =>
    aliases.length && /^\d+$/u.test(flags) ? (aliases[Number(flags) - 1] ?? []) : splitFlags(flags, type);
  const stems = new Map<string, Set<string>>();
  // The first line counts the entries.
  for (const line of dic.split(/\r?\n/u).slice(1)) {
    const entry = /^([^/\t ]+)\/([^\t ]+)/u.exec(line);
    if (!entry) continue;
    const stem = entry[1]!.toLowerCase();
    const flags = stems.get(stem) ?? new Set<string>();
    for (const flag of flagsOf(entry[2]!)) flags.add(flag);
    stems.set(stem, flags);
  }
  return { stems: [...stems].map(([stem, flags]) => [stem, [...flags]]), suffixes };
}

/** The .aff and .dic files of an npm dictionary package (`dictionary-is`: index.aff, index.dic). */
export function packagedHunspell(packageName: string): HunspellLexicon {
  const require = createRequire(import.meta.url);
  const read = (file: string) => readFileSync(require.resolve(`${packageName}/${file}`), 'utf8');
  return parseHunspell(read('index.aff'), read('index.dic'));
}
