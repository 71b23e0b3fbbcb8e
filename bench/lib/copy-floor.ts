/**
 * PostgreSQL's own speed on an import's rows (issue 43): the rows an import wrote for a dictionary are
 * read back (COPY ... TO, not timed) with their keys moved to a scratch dictionary, then COPY'd FROM
 * STDIN into the same tables, with the same indexes, constraints and triggers, in one transaction. The
 * rows the triggers write (search outbox, event drafts, and the events published at the commit) come
 * from the triggers, as during the import. That time is the floor an import through SQL cannot beat;
 * bench/tbx.ts prints the import's rate as a share of it.
 *
 * The same rows also price single triggers: the table's COPY with the trigger enabled and disabled
 * (ALTER TABLE ... DISABLE TRIGGER in a transaction that is rolled back), per 100,000 terms.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { cpuSecondsOf } from '../process-cpu.js';

/** The tables an import into a new dictionary writes itself, in foreign-key order. */
const TABLES = [
  'concepts',
  'terms',
  'concept_domains',
  'concept_language_fields',
  'concept_history',
  'workflow_entry_states',
] as const;
type Table = (typeof TABLES)[number];

/** Where the scratch rows go: new ids above every existing one, and the scratch dictionary. */
interface Shift {
  dictionaryId: number;
  sectionId: number;
  /** Added to each table's ids (a table without its own id: none). */
  ids: Partial<Record<Table, number>>;
}

export interface FloorRun {
  seconds: number;
  /** CPU time of the COPY's own PostgreSQL backend (the shared server's other work left out). */
  cpuSeconds: number;
  rows: Record<string, number>;
}

export class CopyFloor {
  private constructor(
    private readonly client: pg.Client,
    private readonly dir: string,
    private readonly shift: Shift,
    private readonly rows: Record<Table, number>,
    private readonly dictionaryId: number,
    private readonly lastConceptId: number | null,
  ) {}

  /** Reads the dictionary's rows into files (COPY TO), their keys moved to the scratch dictionary. */
  static async prepare(
    databaseUrl: string | URL,
    dictionaryId: number,
    /** Only the first concepts (and what belongs to them): trigger costs on a sample. */
    conceptLimit?: number,
  ): Promise<CopyFloor> {
    const client = new pg.Client({ connectionString: databaseUrl.toString() });
    await client.connect();
    const dir = await mkdtemp(path.join(tmpdir(), 'polyterm-copy-floor-'));
    const next = async (table: string) =>
      Number((await client.query(`select coalesce(max(id), 0) + 1 as n from ${table}`)).rows[0].n);
    const min = async (table: string) =>
      Number(
        (
          await client.query(`select coalesce(min(id), 0) as n from ${table} where dictionary_id = $1`, [
            dictionaryId,
          ])
        ).rows[0].n,
      );
    const shift: Shift = {
      dictionaryId: await next('dictionaries'),
      sectionId: await next('sections'),
      ids: {},
    };
    for (const table of [
      'concepts',
      'terms',
      'concept_language_fields',
      'concept_history',
      'workflow_entry_states',
    ] as const)
      shift.ids[table] = (await next(table)) - (await min(table));
    const rows = {} as Record<Table, number>;
    const last = conceptLimit
      ? await client.query('select id from concepts where dictionary_id = $1 order by id offset $2 limit 1', [
          dictionaryId,
          conceptLimit - 1,
        ])
      : null;
    const lastConceptId = last?.rows[0] ? Number(last.rows[0].id) : null;
    const floor = new CopyFloor(client, dir, shift, rows, dictionaryId, lastConceptId);
    for (const table of TABLES) rows[table] = await floor.export(table, []);
    return floor;
  }

  /** Writes a table's rows to its file (less the omitted columns); answers how many. */
  private async export(table: Table, omit: readonly string[]): Promise<number> {
    const { select, where } = await selectOf(
      this.client,
      table,
      this.dictionaryId,
      this.shift,
      omit,
      this.lastConceptId,
    );
    await pipeline(
      this.client.query(copyTo(`copy (${select}) to stdout`)),
      createWriteStream(this.fileOf(table, omit)),
    );
    return Number((await this.client.query(`select count(*) as n from ${table} where ${where}`)).rows[0].n);
  }

  private fileOf(table: Table, omit: readonly string[]) {
    return path.join(this.dir, `${[table, ...omit].join('-')}.copy`);
  }

  get terms() {
    return this.rows.terms;
  }

  /**
   * Prices one trigger: the COPY of its table's rows with the trigger enabled, then disabled (twice,
   * alternating, the faster of each kept), each in a transaction rolled back. Events are published at
   * the commit: `withDeferred` runs the deferred triggers before the clock stops (SET CONSTRAINTS ALL
   * IMMEDIATE). Answers seconds per 100,000 terms.
   */
  async triggerCost(
    table: Table,
    trigger: string,
    { withDeferred = false, omit = [] as string[] } = {},
  ): Promise<number> {
    if (omit.length) await this.export(table, omit);
    const timed = async (enabled: boolean) => {
      await this.client.query('begin');
      try {
        await this.scratchDictionary();
        for (const before of TABLES.slice(0, TABLES.indexOf(table))) await this.copy(before);
        if (!enabled) await this.client.query(`alter table ${table} disable trigger ${trigger}`);
        const started = performance.now();
        await this.copy(table, omit);
        if (withDeferred) await this.client.query('set constraints all immediate');
        return (performance.now() - started) / 1000;
      } finally {
        await this.client.query('rollback');
      }
    };
    const on: number[] = [];
    const off: number[] = [];
    for (let round = 0; round < 2; round++) {
      on.push(await timed(true));
      off.push(await timed(false));
    }
    return ((Math.min(...on) - Math.min(...off)) * 100_000) / Math.max(1, this.rows.terms);
  }

  /**
   * The floor: every table's rows COPY'd in one transaction, committed (the events are published then,
   * as at an import's commit). Run it after triggerCost: it keeps the scratch ids taken.
   */
  async floor(): Promise<FloorRun> {
    const pid = Number((await this.client.query('select pg_backend_pid() as pid')).rows[0].pid);
    const cpuBefore = cpuSecondsOf([pid]);
    const started = performance.now();
    await this.client.query('begin');
    try {
      await this.scratchDictionary();
      for (const table of TABLES) await this.copy(table);
      await this.client.query('commit');
    } catch (error) {
      await this.client.query('rollback');
      throw error;
    }
    const seconds = (performance.now() - started) / 1000;
    const cpuSeconds = cpuSecondsOf([pid]) - cpuBefore;
    for (const table of ['dictionaries', 'sections', ...TABLES.filter((t) => t !== 'concept_domains')])
      await this.client.query(
        `select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from ${table}))`,
      );
    const outbox = await this.client.query(
      'select count(*)::int as n from search_outbox where concept_id >= $1',
      [this.shift.ids.concepts! + 1],
    );
    const events = await this.client.query('select count(*)::int as n from events where dictionary_id = $1', [
      this.shift.dictionaryId,
    ]);
    return {
      seconds,
      cpuSeconds,
      rows: { ...this.rows, search_outbox: outbox.rows[0].n, events: events.rows[0].n },
    };
  }

  async close() {
    await this.client.end();
    await rm(this.dir, { recursive: true, force: true });
  }

  private async scratchDictionary() {
    const { dictionaryId, sectionId } = this.shift;
    await this.client.query(
      `insert into dictionaries (id, client_id, name, created_at, changed_at)
       select $1::int, client_id, 'copy floor ' || $1::int, now(), now() from sections where id = (select min(id) from sections)`,
      [dictionaryId],
    );
    await this.client.query(
      `insert into sections (id, client_id, dictionary_id, name, created_at, changed_at)
       select $1, client_id, $2, 'copy floor', now(), now() from dictionaries where id = $2`,
      [sectionId, dictionaryId],
    );
  }

  private async copy(table: Table, omit: readonly string[] = []) {
    const columns = await insertableColumns(this.client, table, omit);
    await pipeline(
      createReadStream(this.fileOf(table, omit)),
      this.client.query(copyFrom(`copy ${table} (${columns.join(', ')}) from stdin`)),
    );
  }
}

/** The columns COPY can write (generated ones are computed by PostgreSQL, as for an insert). */
async function insertableColumns(
  client: pg.Client,
  table: string,
  omit: readonly string[] = [],
): Promise<string[]> {
  const { rows } = await client.query<{ column_name: string }>(
    `select column_name from information_schema.columns
      where table_schema = 'public' and table_name = $1 and is_generated = 'NEVER' order by ordinal_position`,
    [table],
  );
  return rows.filter((row) => !omit.includes(row.column_name)).map((row) => `"${row.column_name}"`);
}

/** The SELECT that reads a table's rows of the dictionary with their keys moved to the scratch ones. */
async function selectOf(
  client: pg.Client,
  table: Table,
  dictionaryId: number,
  shift: Shift,
  omit: readonly string[],
  lastConceptId: number | null,
) {
  const conceptShift = shift.ids.concepts!;
  const termShift = shift.ids.terms!;
  const moved: Record<string, string> = {
    dictionary_id: String(shift.dictionaryId),
    section_id: String(shift.sectionId),
    concept_id: `concept_id + ${conceptShift}`,
    ...(table === 'workflow_entry_states'
      ? { term_id: `case when term_id = 0 then 0 else term_id + ${termShift} end` }
      : {}),
    ...(shift.ids[table] !== undefined ? { id: `id + ${shift.ids[table]}` } : {}),
    ...(table === 'concepts' ? { id: `id + ${conceptShift}` } : {}),
  };
  const columns = (await insertableColumns(client, table, omit)).map((quoted) => {
    const name = quoted.slice(1, -1);
    return moved[name] ?? quoted;
  });
  const limit =
    lastConceptId === null ? '' : ` and ${table === 'concepts' ? 'id' : 'concept_id'} <= ${lastConceptId}`;
  const where =
    (table === 'concept_domains'
      ? `concept_id in (select id from concepts where dictionary_id = ${dictionaryId})`
      : `dictionary_id = ${dictionaryId}`) + limit;
  return { select: `select ${columns.join(', ')} from ${table} where ${where} order by 1`, where };
}

/**
 * CPU seconds so far of each PostgreSQL backend connected to the database (by pid): sampled before and
 * after an import, the difference is what the server's connections cost PostgreSQL, without the other
 * databases of a shared server. A backend that ended in between is missed (a lower bound).
 */
export async function backendCpu(databaseUrl: string | URL): Promise<Map<number, number>> {
  const client = new pg.Client({ connectionString: databaseUrl.toString() });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    return new Map(rows.map((row) => [row.pid, cpuSecondsOf([row.pid])]));
  } finally {
    await client.end();
  }
}

/** CPU seconds the backends spent between two backendCpu samples. */
export function backendCpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, seconds] of after) total += seconds - (before.get(pid) ?? 0);
  return total;
}
