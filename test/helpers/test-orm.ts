import { afterAll, beforeAll, inject } from 'vitest';
import { type MikroORM, openOrm } from '../../src/db/orm.js';

/**
 * An ORM on this run's test database for the describe block (or file) that calls it: opened before its
 * tests, closed after them. Call the returned function inside tests.
 */
export function useTestOrm(): () => MikroORM {
  let orm: MikroORM | undefined;
  beforeAll(async () => {
    orm = await openOrm(inject('databaseUrl'));
  });
  afterAll(() => orm?.close(true));
  return () => {
    if (!orm) throw new Error('the test ORM opens in beforeAll');
    return orm;
  };
}
