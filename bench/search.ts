/**
 * Term search on both engines at scale (not a test: it prints figures).
 *
 *   npm run bench:search                                        # 1,000,000 terms, 15 s per run
 *   BENCH_TERMS=100000 BENCH_DURATION=10 npm run bench:search   # smaller run
 *
 * Needs a PostgreSQL server: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres);
 * a fresh database is created on it and dropped afterwards. Elasticsearch: BENCH_ELASTICSEARCH_URL, or
 * one started here with scripts/elasticsearch.ts (heap POLYTERM_ES_JAVA_OPTS, default 1 GiB here).
 * BENCH_CONNECTIONS (8) sets autocannon's connections; BENCH_CPU_PROF=<folder> profiles both servers.
 *
 * The terms (10 languages) are made of the Icelandic Term Bank's vocabulary: its real terms, then the
 * same terms qualified by words of their language until every name is unique in its language. The
 * servers run as child processes (`node --import tsx src/server.ts`), so their RSS is their own: one
 * without ELASTICSEARCH_URL (PostgreSQL engine) loads the TBX file; one with it then drains the outbox
 * the import left (outbox -> Elasticsearch bulk rate) and rebuilds the index (POST
 * /dictionaries/reindex/{id}: PostgreSQL -> Elasticsearch bulk rate). Each query kind then runs with
 * rotating texts against our REST endpoint on both servers and against Elasticsearch directly with the
 * query elasticsearch-search.ts builds, on the index merged into one segment and the database vacuumed
 * (as both are at rest). A bare Node pass-through to Elasticsearch (bench/pass-through.ts: no token,
 * no permissions, no database) runs the direct queries too: the floor of any Node server on our stack.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, openAsBlob, readdirSync, readFileSync } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { type RunningElasticsearch, startElasticsearch } from '../scripts/elasticsearch.js';
import { termSearchRequest } from '../src/modules/search/elasticsearch-search.js';
import type { SearchPlan } from '../src/modules/search/search-plan.js';
import { escapeXmlText } from '../src/modules/tbx/tbx-writer.js';
import { ICELANDIC_TERM_BANK_DIR } from '../test/helpers/datasets.js';
import { createBenchDatabase } from './bench-database.js';

const TERMS = Number(process.env.BENCH_TERMS ?? 1_000_000);
const DURATION = Number(process.env.BENCH_DURATION ?? 15);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const ADMIN_PASSWORD = 'bench-Password-1';
const PAGE_SIZE = 20;
/** TBX tag (as the term bank writes it) -> the tag we write and the ISO 639-2 code Polyterm stores. */
const LANGUAGES = [
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
const TEXTS_PER_LANGUAGE = 10;
const TARGETS = { p50: 15, p99: 60, ratio: 0.7, pgP50: 30 };

const root = fileURLToPath(new URL('..', import.meta.url));

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
/** Set by Ctrl-C: every wait then throws, so that the clean-up in main() runs. */
let aborted = false;
const sleep = async (ms: number) => {
  await new Promise((resolve) => setTimeout(resolve, ms));
  if (aborted) throw new Error('interrupted');
};
/** How long the outbox may stay without progress before the bench gives up. */
const STALL_MS = 120_000;

/** Fisher-Yates with the given generator. */
function shuffled<T>(list: readonly T[], next: () => number): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** A small seeded generator, so that every run loads the same terms and asks the same texts. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------------------------------------------------------------------------------------------------
// Vocabulary and terms

interface Vocabulary {
  terms: string[];
  words: string[];
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
async function writeFile(file: string, names: Map<string, string[]>, concepts: number) {
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
      if (name === undefined || written++ >= TERMS) continue;
      entry += `<langSec xml:lang="${language.tag}"><termSec><term>${escapeXmlText(name)}</term></termSec></langSec>`;
    }
    await write(`${entry}</conceptEntry>\n`);
  }
  await write('</body></text></tbx>\n');
  out.end();
  await once(out, 'finish');
}

// ---------------------------------------------------------------------------------------------------
// Query texts

type KindName =
  | 'prefix'
  | 'substring'
  | 'prefix, not normalized'
  | 'prefix, normalized (typed loosely)'
  | 'fuzzy';

interface QueryText {
  lang: string;
  text: string;
}

interface Kind {
  name: KindName;
  options: { mode: 'PREFIX' | 'SUBSTRING'; normalized: boolean; fuzzy: boolean; fuzziness?: number };
  texts: QueryText[];
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
/** What a user in a hurry types: upper case, no accents (normalized search folds both away). */
const loosely = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toUpperCase();

function queryKinds(vocabulary: Map<string, Vocabulary>, names: Map<string, string[]>): Kind[] {
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

// ---------------------------------------------------------------------------------------------------
// Child servers

interface Child {
  name: string;
  process: ChildProcess;
  url: string;
  peakRss: number;
  stopSampling: () => void;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** VmRSS and VmHWM (peak) of a process, in bytes. */
function memoryOf(pid: number): { rss: number; hwm: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) =>
      Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return { rss: 0, hwm: 0 };
  }
}

/** The server itself (node with the tsx loader, no wrapper process), so /proc/<pid> is the server alone. */
/** Every server spawned, ready or not, so that the clean-up stops them all. */
const spawned = new Set<ChildProcess>();

async function startServer(
  name: string,
  env: Record<string, string>,
  script = 'src/server.ts',
): Promise<Child> {
  const port = await freePort();
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' };
  if (!env.ELASTICSEARCH_URL) delete childEnv.ELASTICSEARCH_URL;
  // BENCH_CPU_PROF=<folder>: each server writes V8 CPU profiles into <folder>/<name> when it stops
  // (one per thread: the largest is the main thread's; the loader thread's is small).
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF, name)}`]
    : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', script], {
    cwd: root,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  spawned.add(child);
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream! }).on('line', (line) =>
      process.stderr.write(`  [${name}] ${line.length > 400 ? `${line.slice(0, 400)}...` : line}\n`),
    );
  }
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} server exited (${child.exitCode})`);
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error(`${name} server did not start`);
    await sleep(200);
  }
  const server: Child = { name, process: child, url, peakRss: 0, stopSampling: () => {} };
  const timer = setInterval(() => {
    server.peakRss = Math.max(server.peakRss, memoryOf(child.pid!).rss);
  }, 200);
  server.stopSampling = () => clearInterval(timer);
  return server;
}

async function stopProcess(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const killed = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(killed);
}

/** Current and peak RSS of a child; the peak since the last call is kept in `peakRss`. */
function rssLine(server: Child) {
  const { rss, hwm } = memoryOf(server.process.pid!);
  return `${server.name} server RSS ${mb(rss)} now, peak ${mb(Math.max(server.peakRss, rss))} (VmHWM ${mb(hwm)})`;
}

// ---------------------------------------------------------------------------------------------------
// REST helpers

async function login(server: Child): Promise<Record<string, string>> {
  const answer = await fetch(`${server.url}/api/v4/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  if (!answer.ok) throw new Error(`login: ${answer.status} ${await answer.text()}`);
  const token = ((await answer.json()) as { token: { token: string } }).token.token;
  return { 'X-Auth-Token': token };
}

/** Runs a job-capable call to its end (answered at once, or polled through GET /jobs/{id}). */
async function runJob<T>(server: Child, headers: Record<string, string>, answer: Response): Promise<T> {
  const body = (await answer.json()) as { jobTaskId?: number; result?: T };
  if (!answer.ok) throw new Error(`${answer.url}: ${answer.status} ${JSON.stringify(body)}`);
  if (body.jobTaskId === undefined) return body.result as T;
  for (;;) {
    await sleep(250);
    const job = (await (await fetch(`${server.url}/api/v4/jobs/${body.jobTaskId}`, { headers })).json()) as {
      status: string;
      result: T;
      message: string | null;
    };
    if (job.status === 'FAILED') throw new Error(`job failed: ${job.message}`);
    if (job.status === 'DONE') return job.result;
  }
}

async function pendingChanges(server: Child): Promise<number | null> {
  try {
    const ready = (await (await fetch(`${server.url}/ready`)).json()) as {
      search?: { pendingChanges: number };
    };
    return ready.search?.pendingChanges ?? null;
  } catch {
    return null;
  }
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

/** Exactly the request our Elasticsearch engine sends for the first page (src/modules/search). */
function directQuery(scope: SearchScope, kind: Kind, text: QueryText, keys: Keys): object {
  const plan: SearchPlan = {
    clientId: scope.clientId,
    dictionaryIds: [scope.dictionaryId],
    sectionIds: scope.sectionIds,
    domainIds: null,
    languageCode: text.lang,
    regionCode: null,
    scriptCode: null,
    restriction: null,
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
  return termSearchRequest(plan, { direction: 'asc', bound: null, limit: PAGE_SIZE + 1 }, true);
}

const restBody = (dictionaryId: number, kind: Kind, text: QueryText) => ({
  dictionaryIds: [dictionaryId],
  langCode: text.lang,
  name: text.text,
  pageSize: PAGE_SIZE,
  searchOptions: kind.options,
});

// ---------------------------------------------------------------------------------------------------
// Load runs

interface Figures {
  p50: number;
  p99: number;
  rps: number;
  errors: number;
}

/** autocannon over rotating bodies (one shared counter, so connections do not ask the same in step). */
async function hammer(
  url: string,
  headers: Record<string, string>,
  bodies: string[],
  duration: number,
): Promise<Figures> {
  let next = 0;
  const result = await autocannon({
    url,
    method: 'POST',
    connections: CONNECTIONS,
    duration,
    headers: { ...headers, 'content-type': 'application/json' },
    requests: [{ setupRequest: (request) => ({ ...request, body: bodies[next++ % bodies.length] }) }],
  });
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    rps: result.requests.average,
    errors: result.errors + result.non2xx + result.timeouts,
  };
}

/** Deletes the index behind the alias `name` (or the index of that name). */
async function deleteIndex(esUrl: string, name: string) {
  const aliases = await fetch(`${esUrl}/_alias/${name}`);
  const indices = aliases.ok ? Object.keys((await aliases.json()) as object) : [name];
  for (const concrete of indices) await fetch(`${esUrl}/${concrete}`, { method: 'DELETE' });
}

const median = (values: number[]) =>
  ([...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0).toFixed(1);

const verdict = (ok: boolean) => (ok ? 'ok' : 'MISSED');

/**
 * Merges the index into one segment before any query runs: a rebuild leaves every replaced document
 * awaiting merge, and Elasticsearch merging in the background would slow both our engine and the direct
 * queries by a varying amount (up to 40% between runs before this step). An index at rest is merged.
 */
async function forceMerge(esUrl: string, index: string) {
  const started = Date.now();
  const answer = await fetch(`${esUrl}/${index}/_forcemerge?max_num_segments=1&wait_for_completion=false`, {
    method: 'POST',
  });
  const { task } = (await answer.json()) as { task: string };
  for (;;) {
    const status = (await (await fetch(`${esUrl}/_tasks/${task}`)).json()) as { completed?: boolean };
    if (status.completed) break;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  const stats = (await (await fetch(`${esUrl}/${index}/_stats/store,docs`)).json()) as {
    _all: { primaries: { store: { size_in_bytes: number }; docs: { count: number; deleted: number } } };
  };
  const primaries = stats._all.primaries;
  console.log(
    `force merge: ${seconds(Date.now() - started)}; ${primaries.docs.count} documents (+${primaries.docs.deleted} deleted), ${mb(primaries.store.size_in_bytes)} on disk, ${(primaries.store.size_in_bytes / primaries.docs.count).toFixed(0)} bytes/doc`,
  );
}

/**
 * PostgreSQL's counterpart of the merge: VACUUM (ANALYZE) of the searched tables, as autovacuum does to
 * a database at rest after a large import. It sets the visibility map (index-only counts) and merges
 * the GIN indexes' pending lists. The development machine's PostgreSQL runs with autovacuum off, where
 * a loaded database would otherwise never get it.
 */
async function vacuum(db: pg.Client) {
  const started = Date.now();
  const { rows } = await db.query<{ autovacuum: string }>('show autovacuum');
  await db.query('vacuum (analyze) terms, concepts, concept_domains');
  console.log(`vacuum (analyze): ${seconds(Date.now() - started)} (autovacuum ${rows[0]?.autovacuum})`);
}

// ---------------------------------------------------------------------------------------------------

async function main() {
  const database = await createBenchDatabase();
  const { name, url: databaseUrl } = database;
  const index = name.replace(/_/g, '-');
  const file = path.join(tmpdir(), `${name}.tbx`);
  const servers: Child[] = [];
  let elasticsearch: RunningElasticsearch | undefined;
  let db: pg.Client | undefined;
  let esUrl = process.env.BENCH_ELASTICSEARCH_URL?.replace(/\/$/, '');
  const interrupted = () => {
    aborted = true;
    process.exitCode = 130;
  };
  process.on('SIGINT', interrupted);
  process.on('SIGTERM', interrupted);

  try {
    // Elasticsearch starts while the file is written.
    process.env.POLYTERM_ES_JAVA_OPTS ??= '-Xms1g -Xmx1g';
    const esStarted = esUrl ? null : startElasticsearch();

    let started = Date.now();
    const vocabulary = readVocabulary();
    const concepts = Math.ceil(TERMS / LANGUAGES.length);
    const names = new Map(
      LANGUAGES.map((language, i) => [
        language.tag,
        namesOf(vocabulary.get(language.tag)!, concepts, 1000 + i),
      ]),
    );
    await writeFile(file, names, concepts);
    console.log(
      `file: ${TERMS} terms in ${LANGUAGES.length} languages (${LANGUAGES.map((l) => `${l.tag} ${vocabulary.get(l.tag)!.terms.length}`).join(', ')} real terms), ${concepts} concepts, ${mb((await stat(file)).size)} written in ${seconds(Date.now() - started)}`,
    );

    if (esStarted) {
      elasticsearch = await esStarted;
      esUrl = elasticsearch.url;
      console.log(`elasticsearch: started at ${esUrl} (${process.env.POLYTERM_ES_JAVA_OPTS})`);
    } else console.log(`elasticsearch: ${esUrl}`);

    const common = {
      DATABASE_URL: databaseUrl.toString(),
      ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      MAX_FILE_SIZE: String(2 * 1024 * 1024 * 1024),
    };

    // 1. Load into PostgreSQL through the PostgreSQL-engine server (no outbox drain in the import).
    const pgServer = await startServer('postgresql-engine', common);
    servers.push(pgServer);
    const pgHeaders = await login(pgServer);
    started = Date.now();
    const form = new FormData();
    form.append('file', await openAsBlob(file), 'bench.tbx');
    const imported = await runJob<{ dictionaryId: number }>(
      pgServer,
      pgHeaders,
      await fetch(`${pgServer.url}/api/v4/dictionaries/import-tbx?name=Bench&merge=NONE`, {
        method: 'POST',
        headers: pgHeaders,
        body: form,
      }),
    );
    const importMs = Date.now() - started;
    const dictionaryId = imported.dictionaryId;
    console.log(
      `load (TBX import into PostgreSQL): ${seconds(importMs)}, ${Math.round(TERMS / (importMs / 1000))} terms/s; ${rssLine(pgServer)}`,
    );

    db = new pg.Client({ connectionString: databaseUrl.toString() });
    // Dropping the database at the end ends this connection if it is still open.
    db.on('error', () => {});
    await db.connect();
    const [{ count: termCount, outbox }] = (
      await db.query<{ count: number; outbox: number }>(
        `select (select count(*)::int from terms where dictionary_id = $1 and not deleted) as count,
                (select count(*)::int from search_outbox) as outbox`,
        [dictionaryId],
      )
    ).rows as [{ count: number; outbox: number }];
    const scope: SearchScope = {
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

    // 2. The Elasticsearch-engine server drains the outbox the import left, then rebuilds the index.
    started = Date.now();
    const esServer = await startServer('elasticsearch-engine', {
      ...common,
      ELASTICSEARCH_URL: esUrl!,
      ELASTICSEARCH_INDEX: index,
    });
    servers.push(esServer);
    const listening = Date.now() - started;
    let least = Number.POSITIVE_INFINITY;
    let progressed = Date.now();
    for (;;) {
      const pending = await pendingChanges(esServer);
      if (pending === 0) break;
      if (pending !== null && pending < least) {
        least = pending;
        progressed = Date.now();
      }
      if (esServer.process.exitCode !== null) throw new Error('the Elasticsearch-engine server exited');
      if (Date.now() - progressed > STALL_MS) {
        throw new Error(`the outbox did not shrink for ${seconds(STALL_MS)} (${least} rows left)`);
      }
      await sleep(250);
    }
    const emptied = Date.now() - started;
    // Searchable means refreshed; and a server that finds no index may rebuild it besides the outbox.
    const count = async () => {
      await fetch(`${esUrl}/${index}/_refresh`, { method: 'POST' });
      const answer = (await (await fetch(`${esUrl}/${index}/_count`)).json()) as { count?: number };
      return answer.count ?? 0;
    };
    for (let documents = await count(), at = Date.now(); documents < termCount; documents = await count()) {
      if (Date.now() - at > STALL_MS) throw new Error(`only ${documents} of ${termCount} terms were indexed`);
      await sleep(500);
    }
    const drainMs = Date.now() - started;
    console.log(
      `outbox -> Elasticsearch (${outbox} outbox rows, ${termCount} documents): ${seconds(drainMs)} from server spawn (listening after ${seconds(listening)}, outbox empty after ${seconds(emptied)}), ${Math.round(termCount / ((drainMs - listening) / 1000))} docs/s after listening`,
    );

    const esHeaders = await login(esServer);
    started = Date.now();
    // The integ-test distribution has no reindex module: then the rebuild's last step (removing stale
    // documents with _delete_by_query) fails after every document was written.
    const probe = await fetch(`${esUrl}/${index}/_delete_by_query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: { match_none: {} } }),
    });
    const deleteByQuery = probe.ok;
    let reindexNote = '';
    try {
      await runJob<boolean>(
        esServer,
        esHeaders,
        await fetch(`${esServer.url}/api/v4/dictionaries/reindex/${dictionaryId}`, {
          method: 'POST',
          headers: esHeaders,
        }),
      );
    } catch (error) {
      if (deleteByQuery) throw error;
      reindexNote =
        ' (bulk phase only: the job then FAILED, this Elasticsearch has no _delete_by_query for the stale-document clean-up)';
    }
    const reindexMs = Date.now() - started;
    console.log(
      `reindex (POST /dictionaries/reindex, PostgreSQL -> Elasticsearch bulk): ${seconds(reindexMs)}, ${Math.round(termCount / (reindexMs / 1000))} docs/s${reindexNote}; ${await count()} documents`,
    );
    const stats = (await (await fetch(`${esUrl}/${index}/_stats/store,docs`)).json()) as {
      _all: { primaries: { store: { size_in_bytes: number }; docs: { count: number; deleted: number } } };
    };
    const primaries = stats._all.primaries;
    console.log(
      `index ${index}: ${primaries.docs.count} documents (+${primaries.docs.deleted} deleted awaiting merge), ${mb(primaries.store.size_in_bytes)} on disk, ${(primaries.store.size_in_bytes / primaries.docs.count).toFixed(0)} bytes/doc`,
    );
    console.log(`after load: ${rssLine(esServer)}; ${rssLine(pgServer)}`);
    await forceMerge(esUrl!, index);
    await vacuum(db);
    // The floor: a bare Node pass-through to Elasticsearch (bench/pass-through.ts).
    const passThrough = await startServer(
      'pass-through',
      { ELASTICSEARCH_URL: esUrl!, ELASTICSEARCH_INDEX: index },
      'bench/pass-through.ts',
    );
    servers.push(passThrough);

    // 3. Query texts, and a check that the direct query is the one the engine runs (same totals).
    const kinds = queryKinds(vocabulary, names);
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
    const direct = (kind: Kind, text: QueryText) =>
      JSON.stringify(directQuery(scope, kind, text, keysOf.get(text.text)!));
    const rest = (kind: Kind, text: QueryText) => JSON.stringify(restBody(dictionaryId, kind, text));
    const esSearch = `${esUrl}/${index}/_search`;
    const apiSearch = (server: Child) => `${server.url}/api/v4/terms/search`;
    for (const kind of kinds) {
      let agree = 0;
      let matches = 0;
      const took = { ours: [] as number[], pg: [] as number[], direct: [] as number[] };
      for (const text of kind.texts) {
        const post = async (url: string, body: string, headers: Record<string, string>) => {
          const at = performance.now();
          const answer = await (
            await fetch(url, {
              method: 'POST',
              headers: { ...headers, 'content-type': 'application/json' },
              body,
            })
          ).json();
          const ms = performance.now() - at;
          (url === esSearch ? took.direct : url.startsWith(pgServer.url) ? took.pg : took.ours).push(ms);
          return answer;
        };
        const ours = (await post(apiSearch(esServer), rest(kind, text), esHeaders)) as {
          total: number;
          results: { id: number }[];
        };
        const onPg = (await post(apiSearch(pgServer), rest(kind, text), pgHeaders)) as typeof ours;
        const raw = (await post(esSearch, direct(kind, text), {})) as {
          hits: { total: { value: number }; hits: { _source: { id: number } }[] };
        };
        const ids = (list: { id: number }[]) => list.map((entry) => entry.id).join(',');
        if (
          ours.total === raw.hits.total.value &&
          onPg.total === ours.total &&
          ids(ours.results) === ids(raw.hits.hits.slice(0, PAGE_SIZE).map((hit) => hit._source)) &&
          ids(onPg.results) === ids(ours.results)
        )
          agree++;
        matches += ours.total;
      }
      console.log(
        `texts "${kind.name}": ${kind.texts.length} (e.g. ${kind.texts
          .slice(0, 3)
          .concat(kind.texts.slice(-2))
          .map((t) => JSON.stringify(t.text))
          .join(
            ', ',
          )}), ${Math.round(matches / kind.texts.length)} matches on average; same first page and total on both engines and direct: ${agree}/${kind.texts.length}; one at a time: median ES engine ${median(took.ours)} ms, direct ${median(took.direct)} ms, PG engine ${median(took.pg)} ms`,
      );
    }

    // Statements per search are held by test/search/search-round-trips.test.ts (PostgreSQL's
    // statistics arrive too late and too coarsely to count them here).

    // 4. Throughput and latency.
    console.log(
      `\nautocannon: ${CONNECTIONS} connections, ${DURATION} s per run (2 s warm-up before each), page size ${PAGE_SIZE}`,
    );
    const rows: string[] = [];
    for (const kind of kinds) {
      const directBodies = kind.texts.map((t) => direct(kind, t));
      const targets: [string, string, Record<string, string>, string[]][] = [
        ['ES engine (REST)', apiSearch(esServer), esHeaders, kind.texts.map((t) => rest(kind, t))],
        ['Elasticsearch direct', esSearch, {}, directBodies],
        ['PG engine (REST)', apiSearch(pgServer), pgHeaders, kind.texts.map((t) => rest(kind, t))],
        ['Node pass-through', `${passThrough.url}/search`, {}, directBodies],
      ];
      const results: Figures[] = [];
      for (const [label, url, headers, bodies] of targets) {
        if (aborted) throw new Error('interrupted');
        await hammer(url, headers, bodies, 2);
        const figures = await hammer(url, headers, bodies, DURATION);
        results.push(figures);
        console.log(
          `  ${kind.name.padEnd(36)} ${label.padEnd(22)} p50 ${String(figures.p50).padStart(5)} ms  p99 ${String(figures.p99).padStart(5)} ms  ${figures.rps.toFixed(0).padStart(6)} req/s${figures.errors ? `  ${figures.errors} errors/non-2xx` : ''}`,
        );
      }
      const [ours, raw, onPg, floor] = results as [Figures, Figures, Figures, Figures];
      const ratio = ours.rps / raw.rps;
      const percent = (part: number, whole: number) => `${((part / whole) * 100).toFixed(0)}%`;
      rows.push(
        `| ${kind.name} | ${ours.p50} / ${ours.p99} ms, ${ours.rps.toFixed(0)} req/s | ${raw.p50} / ${raw.p99} ms, ${raw.rps.toFixed(0)} req/s | ${percent(ours.rps, raw.rps)} | ${floor.rps.toFixed(0)} req/s, ${percent(floor.rps, raw.rps)} | ${onPg.p50} / ${onPg.p99} ms, ${onPg.rps.toFixed(0)} req/s |`,
      );
      console.log(
        `  -> ES engine p50 ${ours.p50} ms (< ${TARGETS.p50}: ${verdict(ours.p50 < TARGETS.p50)}), p99 ${ours.p99} ms (< ${TARGETS.p99}: ${verdict(ours.p99 < TARGETS.p99)}), ${(ratio * 100).toFixed(0)}% of direct throughput (>= ${TARGETS.ratio * 100}%: ${verdict(ratio >= TARGETS.ratio)}; a bare Node pass-through reaches ${percent(floor.rps, raw.rps)}); PG engine p50 ${onPg.p50} ms (< ${TARGETS.pgP50}: ${verdict(onPg.p50 < TARGETS.pgP50)})`,
      );
    }
    console.log(
      `\n| ${TERMS} terms | ES engine p50 / p99, req/s | Elasticsearch direct | ours / direct | Node pass-through, its share of direct | PG engine p50 / p99, req/s |\n|---|---|---|---|---|---|\n${rows.join('\n')}`,
    );
    console.log(`\nafter search: ${rssLine(esServer)}; ${rssLine(pgServer)}`);
  } finally {
    await db?.end().catch(() => {});
    for (const server of servers) server.stopSampling();
    for (const child of spawned) await stopProcess(child).catch(() => {});
    if (elasticsearch) await elasticsearch.stop().catch(() => {});
    else if (esUrl) await deleteIndex(esUrl, index).catch(() => {});
    await rm(file, { force: true });
    const kept = await database.drop();
    console.error(`clean-up done: servers stopped, database ${name} ${kept ? 'kept' : 'dropped'}`);
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
  }
}

await main();
