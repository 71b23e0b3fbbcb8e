/**
 * polyterm_lemma_citation_keys (Migration20270107170000, one pass for the imports and the row trigger)
 * answers exactly what the two polyterm_lemma_keys calls it replaces answer (lemma keys, then citation
 * keys), on every term name of the Icelandic Term Bank plus English and German names, under Icelandic
 * stemming settings with protected words and overrides, in one call and in import-sized batches.
 */
import { readdir, readFile } from 'node:fs/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ICELANDIC_TERM_BANK_DIR } from '../helpers/datasets.js';

/** The <term> texts of a TBX file, entities decoded (the import reads them the same way). */
function termNames(tbx: string): string[] {
  return [...tbx.matchAll(/<term\b[^>]*>([^<]*)<\/term>/g)].map((match) =>
    match[1]!
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, '&'),
  );
}

// No stemming settings row exists for this dictionary outside the test's transaction.
const DICTIONARY = -7_000_001;

describe('polyterm_lemma_citation_keys', () => {
  let client: pg.Client;
  let names: string[] = [];

  beforeAll(async () => {
    for (const file of (await readdir(ICELANDIC_TERM_BANK_DIR)).filter((f) => f.endsWith('.tbx')).sort()) {
      names.push(...termNames(await readFile(`${ICELANDIC_TERM_BANK_DIR}${file}`, 'utf8')));
    }
    names = [
      ...names,
      // English and German names, and the edge cases of splitting: empty, punctuation only, doubled spaces.
      'fuel pump',
      'Kraftstoffpumpe',
      'Häuser am Straßenrand',
      'mice and men',
      'e-mail (electronic mail)',
      '',
      ' -- ',
      'Netið  og   netsins',
      'NETIÐ',
    ];
    client = new pg.Client({ connectionString: inject('databaseUrl') });
    await client.connect();
    await client.query('begin');
    // Settings for a dictionary that does not exist: foreign keys are not checked in this transaction,
    // which is rolled back.
    await client.query(`set local session_replication_role = replica`);
  }, 120_000);
  afterAll(async () => {
    await client?.query('rollback');
    await client?.end();
  });

  async function compare(language: string, texts: (string | null)[]) {
    const { rows } = await client.query<{
      lemma: string[] | null;
      citation: string[] | null;
      new_lemma: string[] | null;
      new_citation: string[] | null;
    }>(
      `select polyterm_lemma_keys($1, $2, $3) as lemma, polyterm_lemma_keys($1, $2, $3, true) as citation,
              k.lemma_keys as new_lemma, k.citation_keys as new_citation
         from polyterm_lemma_citation_keys($1, $2, $3) k`,
      [DICTIONARY, language, texts],
    );
    const row = rows[0]!;
    expect(row.new_lemma).toEqual(row.lemma);
    expect(row.new_citation).toEqual(row.citation);
    return row;
  }

  it('reads the term bank (the test has data to compare)', () => {
    expect(names.length).toBeGreaterThan(30_000);
  });

  it('agrees with polyterm_lemma_keys under the language defaults', async () => {
    const row = await compare('is', names);
    expect(row.lemma).toHaveLength(names.length);
    // The keys differ from the names folded somewhere (the lexicon did lemmatise).
    expect(row.lemma!.some((key, index) => key !== row.citation![index])).toBe(true);
  });

  it('agrees with protected words and overrides, in import-sized batches', async () => {
    // The most frequent folded words protected, and a few words overridden (one to a word with an article).
    const { rows: frequent } = await client.query<{ word: string }>(
      `select w as word from unnest($1::text[]) n, unnest(polyterm_words(n)) w
        group by w order by count(*) desc, w limit 40`,
      [names],
    );
    expect(frequent.length).toBe(40);
    const protectedWords = frequent.slice(0, 20).map((row) => row.word);
    const overrides = Object.fromEntries(
      frequent.slice(20, 30).map((row, index) => [row.word, index % 2 === 0 ? 'Netið' : 'húsanna']),
    );
    await client.query(
      `insert into stemming_settings (client_id, dictionary_id, language_code, algorithm, protected_words, overrides)
       values (-1, $1, 'isl', null, $2, $3)`,
      [DICTIONARY, protectedWords, JSON.stringify(overrides)],
    );
    for (let at = 0; at < names.length; at += 2000) {
      const row = await compare(at === 0 ? 'ISL' : 'isl', [...names.slice(at, at + 2000), null]);
      expect(row.lemma!.at(-1)).toBe('');
    }
    // A protected word is keyed as written (folded), in both keys.
    const only = await compare('isl', [protectedWords[0]!]);
    expect(only.new_lemma).toEqual([protectedWords[0]]);
  }, 300_000);

  it('answers null for languages no lexicon stems, and empty arrays for no texts', async () => {
    for (const language of ['en', 'de']) {
      const row = await compare(language, names.slice(0, 500));
      expect(row.new_lemma).toBeNull();
      expect(row.new_citation).toBeNull();
    }
    const row = await compare('is', []);
    expect(row.new_lemma).toEqual([]);
  });
});
