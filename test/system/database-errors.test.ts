/**
 * Which database failures answer 503 ("nothing was written; retry"), which 504 ("the commit went
 * unconfirmed"), and which neither: an error the request itself caused (bad input, a constraint, a
 * syntax error) must never pass for an unavailable database, or its caller would retry it forever.
 */
import { DriverException } from '@mikro-orm/core';
import { describe, expect, it } from 'vitest';
import { databaseOutageError, isCommitUnknown, isDatabaseUnavailable } from '../../src/db/errors.js';
import { StatementTimeoutError } from '../../src/db/timeouts.js';
import { useTestOrm } from '../helpers/test-orm.js';

/** An error as pg builds it: a message and a code (SQLSTATE or errno). */
const failure = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});

describe('database error classification', () => {
  const orm = useTestOrm();
  const failing = (work: () => Promise<unknown>) =>
    work().then(
      () => {
        throw new Error('the statement succeeded');
      },
      (error: unknown) => error as Error & { code?: string },
    );

  it('never takes an error of the request itself for an unavailable database', async () => {
    const em = orm().em.fork();
    const caused = {
      // A NUL character as a bound parameter (22021), and inlined into SQL text, as em.execute does
      // with its parameters (08P01, a protocol violation).
      '22021': await failing(async () => em.getConnection().getKnex().raw('select ?::text as x', ['a\0b'])),
      '08P01': await failing(() => em.execute('select ? as x', ['a\0b'])),
      '22P02': await failing(() => em.execute(`select 'x'::int as x`)),
      '22012': await failing(() => em.execute('select 1 / 0 as x')),
      '42601': await failing(() => em.execute('select from nowhere at all')),
      '42P01': await failing(() => em.execute('select * from no_such_table')),
      '23505': await failing(() =>
        em.transactional(async (tem) => {
          await tem.execute('create temp table twice (x int unique) on commit drop');
          await tem.execute('insert into twice values (1), (1)');
        }),
      ),
    };
    for (const [code, error] of Object.entries(caused)) {
      expect(error.code, code).toBe(code);
      expect(isDatabaseUnavailable(error), code).toBe(false);
      expect(isCommitUnknown(error), code).toBe(false);
      expect(databaseOutageError(error)?.code, code).not.toBe('SERVICE_UNAVAILABLE');
    }
    // The connection stays usable after each of them.
    expect(await em.execute('select 1 as one')).toEqual([{ one: 1 }]);
  });

  it('recognizes connection failures, server shutdowns and timeouts, also wrapped by MikroORM', () => {
    const unavailable = [
      failure('connection failure', '08006'),
      failure('could not connect', '08001'),
      failure('terminating connection due to administrator command', '57P01'),
      failure('the database system is starting up', '57P03'),
      failure('sorry, too many clients already', '53300'),
      failure('canceling statement due to statement timeout', '57014'),
      failure('connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED'),
      failure('read ECONNRESET', 'ECONNRESET'),
      failure('timeout expired'),
      failure('Connection terminated unexpectedly'),
      failure('Client was closed and is not queryable'),
      Object.assign(failure('Knex: Timeout acquiring a connection. The pool is probably full.'), {
        name: 'KnexTimeoutError',
      }),
      new StatementTimeoutError(5000, false),
    ];
    for (const error of unavailable) {
      for (const seen of [error, new DriverException(error), new Error('outer', { cause: error })]) {
        expect(isDatabaseUnavailable(seen), error.message).toBe(true);
        expect(databaseOutageError(seen), error.message).toMatchObject({
          code: 'SERVICE_UNAVAILABLE',
          retryAfterSeconds: 1,
        });
      }
    }
  });

  it('matches messages only on errors without a code', () => {
    expect(isDatabaseUnavailable(failure('Connection terminated by the query', '42601'))).toBe(false);
    expect(isDatabaseUnavailable(failure('timeout expired', '22023'))).toBe(false);
  });

  it('answers a commit that went unconfirmed 504, never 503', () => {
    const unconfirmed = new StatementTimeoutError(5000, true);
    const dropped = failure('Connection terminated unexpectedly', '08007');
    for (const error of [unconfirmed, dropped, new DriverException(unconfirmed)]) {
      expect(isDatabaseUnavailable(error)).toBe(false);
      expect(isCommitUnknown(error)).toBe(true);
      expect(databaseOutageError(error)).toMatchObject({ code: 'GATEWAY_TIMEOUT' });
    }
    // Whatever its cause: the outcome stays unknown.
    const wrapped = Object.assign(new Error('commit', { cause: new StatementTimeoutError(5000, false) }), {
      code: '08007',
    });
    expect(isDatabaseUnavailable(wrapped)).toBe(false);
  });
});
