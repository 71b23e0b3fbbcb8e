/**
 * The one list of elided articles and pronouns (French l' d' qu'..., Italian and Catalan alike), as
 * Lucene's French, Italian and Catalan analysers list them. Both sides read it: text-tokens.ts leaves
 * them out of a text's words, and the stem-key migrations generate polyterm_stem_keys' pattern from it
 * (Migration20261221090000), so a term name and a text lose the same words. Migrations that already ran
 * keep the SQL they generated: a change here needs a new migration rewriting polyterm_stem_keys.
 */
export interface Elision {
  /** ISO 639-1 and 639-2 codes of the language. */
  codes: readonly string[];
  /** The elided words, without their apostrophe. */
  words: readonly string[];
}

export const ELISIONS: readonly Elision[] = [
  {
    codes: ['fr', 'fra', 'fre'],
    words: ['l', 'm', 't', 'qu', 'n', 's', 'j', 'd', 'c', 'jusqu', 'quoiqu', 'lorsqu', 'puisqu'],
  },
  {
    codes: ['it', 'ita'],
    words: [
      'c',
      'l',
      'all',
      'dall',
      'dell',
      'nell',
      'sull',
      'coll',
      'pell',
      'gl',
      'agl',
      'dagl',
      'degl',
      'negl',
      'sugl',
      'un',
      'm',
      't',
      's',
      'v',
      'd',
    ],
  },
  { codes: ['ca', 'cat'], words: ['d', 'l', 'm', 'n', 's', 't'] },
];

/** The apostrophes an elided word ends with. */
export const APOSTROPHES = "'\u2019";
