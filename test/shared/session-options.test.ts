/**
 * Every pooled session runs with the settings of src/db/orm.ts (random_page_cost 1.1, gin_pending_list_limit
 * 256 kB), on the ORM's own statements and on boundRows' direct pooled reads alike.
 */
import { describe, expect, it } from 'vitest';
import { boundRows } from '../../src/shared/sql.js';
import { useTestOrm } from '../helpers/test-orm.js';

describe('pooled session settings', () => {
  const orm = useTestOrm();

  it('sets random_page_cost and gin_pending_list_limit on every connection the pool opens', async () => {
    const em = orm().em.fork();
    const [viaOrm] = await em.execute<{ random_page_cost: string }[]>('show random_page_cost');
    const [direct] = await boundRows<{ random_page_cost: string }>(
      em,
      { text: 'show random_page_cost', params: [] },
      { prepared: true },
    );
    const [server] = await em.execute<{ setting: string }[]>(
      `select reset_val as setting from pg_settings where name = 'random_page_cost'`,
    );
    expect([viaOrm?.random_page_cost, direct?.random_page_cost]).toEqual(['1.1', '1.1']);
    const [pending] = await em.execute<{ gin_pending_list_limit: string }[]>('show gin_pending_list_limit');
    expect(pending?.gin_pending_list_limit).toBe('256kB');
    // The session's value comes from the connection, whatever the server's default.
    expect(server?.setting).toBe('1.1');
  });
});
