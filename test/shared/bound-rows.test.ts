/**
 * boundRows (src/shared/sql.ts): parameters bound, not inlined; an array is one parameter; inside a
 * transaction the statement runs on the transaction's connection; `prepared` makes the connection
 * keep the statement, so that it is parsed and planned once, not on every request.
 */
import { describe, expect, it } from 'vitest';
import { boundRows } from '../../src/shared/sql.js';
import { useTestOrm } from '../helpers/test-orm.js';

describe('boundRows', () => {
  const orm = useTestOrm();

  it('binds values of any shape, an array as one parameter', async () => {
    const rows = await boundRows<{ n: number; text: string; hit: boolean }>(orm().em.fork(), {
      text: `select array_length(?::int[], 1) as n, ?::text as text, 3 = any(?::int[]) as hit`,
      params: [[1, 2, 3], "it's; drop table x --", [3]],
    });
    expect(rows).toEqual([{ n: 3, text: "it's; drop table x --", hit: true }]);
  });

  it('keeps a prepared statement on the connection and reuses it with other values', async () => {
    const query = (value: number) => ({
      text: 'select ?::int + 1 as next /* bound-rows test */',
      params: [value],
    });
    await orm()
      .em.fork()
      .transactional(async (em) => {
        const first = await boundRows<{ next: number }>(em, query(1), { prepared: true });
        const second = await boundRows<{ next: number }>(em, query(41), { prepared: true });
        expect([first[0]?.next, second[0]?.next]).toEqual([2, 42]);
        const kept = await boundRows<{ statement: string }>(em, {
          text: `select statement from pg_prepared_statements where statement like ?`,
          params: ['%bound-rows test%'],
        });
        expect(kept).toHaveLength(1);
      });
  });

  it('runs a prepared read outside a transaction on a pooled connection, as knex would', async () => {
    const em = orm().em.fork();
    const rows = await boundRows<{ n: number; has: boolean; text: string }>(
      em,
      {
        text: `select array_length(?::int[], 1) as n, '{"a": 1}'::jsonb \\? ? as has, ?::text as text /* direct */`,
        params: [[4, 5], 'a', "o'clock?"],
      },
      { prepared: true },
    );
    expect(rows).toEqual([{ n: 2, has: true, text: "o'clock?" }]);
  });

  it('gives the connection back to the pool, also when the statement fails', async () => {
    const em = orm().em.fork();
    const failing = { text: 'select 1 / ?::int as x /* direct failing */', params: [0] };
    // More calls than the pool has connections: a connection kept by a failure would hang the last ones.
    for (let i = 0; i < 30; i++) {
      await expect(boundRows(em, failing, { prepared: true })).rejects.toThrow(/division by zero/);
    }
    const many = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        boundRows<{ x: number }>(
          em,
          { text: 'select ?::int as x /* direct many */', params: [i] },
          { prepared: true },
        ),
      ),
    );
    expect(many.map((rows) => rows[0]?.x)).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });

  it('refuses knex identifier placeholders in a prepared read', async () => {
    await expect(
      boundRows(orm().em.fork(), { text: 'select ?? from clients', params: ['id'] }, { prepared: true }),
    ).rejects.toThrow(/not supported/);
  });

  it('runs in the transaction of the manager it is given', async () => {
    const table = `bound_rows_${process.pid}`;
    await orm()
      .em.fork()
      .transactional(async (em) => {
        await boundRows(em, { text: `create temporary table ${table} (id int) on commit drop`, params: [] });
        await boundRows(em, { text: `insert into ${table} values (?)`, params: [7] });
        const rows = await boundRows<{ id: number }>(em, { text: `select id from ${table}`, params: [] });
        expect(rows).toEqual([{ id: 7 }]);
      });
  });
});
