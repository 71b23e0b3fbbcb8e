/**
 * What bench/search asks: the query kinds with their rotating texts drawn from the synthetic terms, and
 * each text as a body for our REST endpoint and as the exact request our Elasticsearch engine sends.
 */
import { PostgreSqlPlatform } from '@mikro-orm/postgresql';
import type pg from 'pg';
import { termSearchRequest } from '../src/modules/search/elasticsearch-search.js';
import { PostgresSearch } from '../src/modules/search/postgres-search.js';
import type { SearchPlan } from '../src/modules/search/search-plan.js';
import type { WorkflowScope } from '../src/modules/search/search-workflow.js';
import { random } from './lib/seeded-random.js';
import { LANGUAGES, type SyntheticTerms } from './lib/synthetic-terms.js';

export const PAGE_SIZE = 20;
const TEXTS_PER_LANGUAGE = 10;

type KindName =
  | 'prefix'
  | 'substring'
  | 'prefix, not normalized'
  | 'prefix, normalized (typed loosely)'
  | 'fuzzy';

export interface QueryText {
  lang: string;
  text: string;
}

export interface Kind {
  name: KindName;
  options: { mode: 'PREFIX' | 'SUBSTRING'; normalized: boolean; fuzzy: boolean; fuzziness?: number };
  texts: QueryText[];
}

/** A text as a JSON request body (or, for PostgreSQL direct, an SQL statement). */
export type BodyOf = (kind: Kind, text: QueryText) => string;

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
/** What a user in a hurry types: upper case, no accents (normalized search folds both away). */
const loosely = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toUpperCase();

export function queryKinds({ vocabulary, names }: SyntheticTerms): Kind[] {
  const next = random(7);
  const texts = (make: (words: string[], names: string[]) => string | null): QueryText[] =>
    LANGUAGES.flatMap((language) => {
      const words = vocabulary.get(language.tag)!.words;
      const out: QueryText[] = [];
      for (let tries = 0; out.length < TEXTS_PER_LANGUAGE && tries < 10_000; tries++) {
        const text = make(words, names.get(language.tag)!);
        if (text) out.push({ lang: language.code, text });
      }
      return out;
    });
  const word = (words: string[], min: number) => {
    const chosen = words[Math.floor(next() * words.length)]!;
    return [...chosen].length >= min ? [...chosen] : null;
  };
  const prefix = (words: string[]) => {
    const chars = word(words, 4);
    return chars ? chars.slice(0, 3 + Math.floor(next() * 3)).join('') : null;
  };
  return [
    {
      name: 'prefix',
      options: { mode: 'PREFIX', normalized: true, fuzzy: false },
      texts: texts((words) => {
        const text = prefix(words);
        return text && next() < 0.5 ? capitalized(text) : text;
      }),
    },
    {
      name: 'substring',
      options: { mode: 'SUBSTRING', normalized: true, fuzzy: false },
      texts: texts((words) => {
        const chars = word(words, 7);
        if (!chars) return null;
        const start = 1 + Math.floor(next() * (chars.length - 6));
        return chars.slice(start, start + 4 + Math.floor(next() * 2)).join('');
      }),
    },
    {
      name: 'prefix, normalized (typed loosely)',
      options: { mode: 'PREFIX', normalized: true, fuzzy: false },
      texts: texts((words) => {
        const text = prefix(words);
        return text && loosely(text);
      }),
    },
    {
      name: 'prefix, not normalized',
      options: { mode: 'PREFIX', normalized: false, fuzzy: false },
      texts: texts((words) => prefix(words)?.toLowerCase() ?? null),
    },
    {
      // A whole term with one typo: prefix matches plus folded names one edit away.
      name: 'fuzzy',
      options: { mode: 'PREFIX', normalized: true, fuzzy: true, fuzziness: 1 },
      texts: texts((_words, list) => {
        const chars = [...list[Math.floor(next() * list.length)]!];
        if (chars.length < 5 || chars.length > 30) return null;
        const at = 1 + Math.floor(next() * (chars.length - 1));
        if (chars[at] === ' ') return null;
        chars[at] = chars[at] === 'e' ? 'a' : 'e';
        return chars.join('');
      }),
    },
  ];
}

/**
 * The bodies of every text: `rest` for POST /api/v4/terms/search, `direct` for Elasticsearch's
 * _search. The direct one needs the text's keys as PostgreSQL computes them, and the dictionary's scope.
 */
export async function queryBodies(
  db: pg.Client,
  dictionaryId: number,
  kinds: Kind[],
  /** BENCH_WORKFLOW: the workflow part of the plan (bench/lib/bench-workflow.ts). */
  workflow: WorkflowScope | null = null,
): Promise<{ rest: BodyOf; direct: BodyOf; sql: BodyOf }> {
  const scope = await searchScope(db, dictionaryId);
  const keysOf = new Map<string, Keys>();
  for (const kind of kinds) {
    for (const text of kind.texts) {
      const row = (
        await db.query<Keys>('select polyterm_lower($1) as lower, polyterm_fold($1) as folded', [
          text.text.trim(),
        ])
      ).rows[0]!;
      keysOf.set(text.text, row);
    }
  }
  const statements = new Map<string, string>();
  for (const kind of kinds) {
    for (const text of kind.texts) {
      const plan = planOf(scope, kind, text, keysOf.get(text.text)!, workflow);
      statements.set(`${kind.name}\u0000${text.lang}\u0000${text.text}`, await pageStatement(plan));
    }
  }
  return {
    rest: (kind, text) => JSON.stringify(restBody(dictionaryId, kind, text)),
    direct: (kind, text) =>
      JSON.stringify(
        termSearchRequest(...firstPage(planOf(scope, kind, text, keysOf.get(text.text)!, workflow))),
      ),
    sql: (kind, text) => statements.get(`${kind.name}\u0000${text.lang}\u0000${text.text}`)!,
  };
}

// ---------------------------------------------------------------------------------------------------
// The query elasticsearch-search.ts sends (textQuery + find, first page ascending, with the total)

interface Keys {
  lower: string;
  folded: string;
}

interface SearchScope {
  clientId: number;
  dictionaryId: number;
  sectionIds: number[];
}

async function searchScope(db: pg.Client, dictionaryId: number): Promise<SearchScope> {
  return {
    dictionaryId,
    clientId: (
      await db.query<{ client_id: number }>('select client_id from dictionaries where id = $1', [
        dictionaryId,
      ])
    ).rows[0]!.client_id,
    sectionIds: (
      await db.query<{ id: number }>(
        'select id from sections where dictionary_id = $1 and not deleted order by id',
        [dictionaryId],
      )
    ).rows.map((row) => row.id),
  };
}

/** The plan our engines get for the first page of a text (src/modules/search/search-request.ts). */
function planOf(
  scope: SearchScope,
  kind: Kind,
  text: QueryText,
  keys: Keys,
  workflow: WorkflowScope | null,
): SearchPlan {
  return {
    clientId: scope.clientId,
    dictionaryIds: [scope.dictionaryId],
    sectionIds: scope.sectionIds,
    domainIds: null,
    languageCode: text.lang,
    regionCode: null,
    scriptCode: null,
    restriction: null,
    workflow,
    // With the workflow on, hits carry their states (for the list's style), as the server asks.
    stateSources: (workflow?.governed ?? []).map(({ dictionaryId, workflowId, unit }) => ({
      dictionaryId,
      workflowId,
      unit,
    })),
    text: {
      name: {
        mode: kind.options.mode,
        on: kind.options.normalized ? 'folded' : 'lower',
        text: kind.options.normalized ? keys.folded : keys.lower,
      },
      fuzzy: kind.options.fuzzy ? { text: keys.folded, distance: kind.options.fuzziness ?? 1 } : null,
      values: null,
    },
  };
}

/** The first page, ascending, with the total: what both engines are asked for a new search. */
const firstPage = (plan: SearchPlan) =>
  [plan, { direction: 'asc' as const, bound: null, limit: PAGE_SIZE + 1 }, true] as const;

const platform = new PostgreSqlPlatform();

/**
 * Exactly the statement our PostgreSQL engine sends for the first page, parameters inlined as MikroORM
 * inlines them (platform.formatQuery): the engine runs against an entity manager that only records it.
 */
async function pageStatement(plan: SearchPlan): Promise<string> {
  let statement = '';
  const recorder = {
    execute: async (text: string, params: unknown[]) => {
      statement = platform.formatQuery(text, params);
      return [];
    },
  };
  // The engine's page and total run in one statement (postgres-search.ts); its answer is not needed here.
  await new PostgresSearch(() => recorder as never).find(...firstPage(plan));
  return statement;
}

const restBody = (dictionaryId: number, kind: Kind, text: QueryText) => ({
  dictionaryIds: [dictionaryId],
  sectionOids: [],
  langCode: text.lang,
  name: text.text,
  pageSize: PAGE_SIZE,
  searchOptions: kind.options,
});
