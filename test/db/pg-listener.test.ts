import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { notify, PgListener } from '../../src/db/pg-listener.js';
import { uniqueSuffix } from '../factories/tenant.js';
import { useTestOrm } from '../helpers/test-orm.js';

const until = async (check: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('the shared LISTEN connection', () => {
  const orm = useTestOrm();

  it('delivers a notification at commit, never for a rollback, and comes back after losing its connection', async () => {
    const listener = new PgListener(orm().config.get('clientUrl') as string);
    const channel = `test_listener_${uniqueSuffix()}`;
    const received: string[] = [];
    let resets = 0;
    listener.onReset(() => resets++);
    try {
      await listener.listen(channel, (payload) => received.push(payload));
      expect(listener.connected).toBe(true);

      await orm()
        .em.fork()
        .transactional(async (em) => notify(em, channel, 'committed'));
      await expect(
        orm()
          .em.fork()
          .transactional(async (em) => {
            await notify(em, channel, 'rolled back');
            throw new Error('roll back');
          }),
      ).rejects.toThrow('roll back');
      await orm()
        .em.fork()
        .transactional(async (em) => notify(em, channel, 'second'));
      await until(() => received.length >= 2);
      expect(received).toEqual(['committed', 'second']);

      // The server ends the listener's session: it reports the loss, reconnects and listens again.
      const resetsBefore = resets;
      const admin = new pg.Client({ connectionString: orm().config.get('clientUrl') as string });
      await admin.connect();
      await admin.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'polyterm-listener' and query like $1",
        [`%${channel}%`],
      );
      await admin.end();
      await until(() => resets >= resetsBefore + 2 && listener.connected);
      await orm()
        .em.fork()
        .transactional(async (em) => notify(em, channel, 'after reconnect'));
      await until(() => received.includes('after reconnect'));
    } finally {
      await listener.close();
    }
    await expect(listener.listen('Not A Channel', () => undefined)).rejects.toThrow('invalid');
  });
});
