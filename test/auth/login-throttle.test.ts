import { randomInt } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countAttempt,
  FORGET_AFTER_MS,
  KNOWN_ADDRESS_MS,
  loginKeys,
  MAX_WAIT_MS,
  THROTTLES,
  type ThrottleRow,
  waitAfter,
} from '../../src/modules/auth/login-throttle.js';
import { createTenant, createUser, type TestTenant, uniqueSuffix } from '../factories/tenant.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin } from '../helpers/rest.js';

/** The first wait: long enough that a loaded machine answers the next request within it. */
const FIRST_WAIT_MS = 1500;
const PAIR_FREE = THROTTLES.loginAccountAddress.free;
const ACCOUNT_FREE = THROTTLES.loginAccount.free;
const ADDRESS_FREE = THROTTLES.loginAddress.free;

let t: TestApp;
let tenant: TestTenant;

beforeAll(async () => {
  t = await buildTestApp({ LOGIN_THROTTLE_DELAY_MS: String(FIRST_WAIT_MS) });
  tenant = await createTenant(await loginSysadmin(t.app));
});
afterAll(() => t?.close());

/**
 * A client address of its own per test: the suites running beside this one log in from 127.0.0.1 and
 * must not meet these failures.
 */
const newAddress = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Credentials {
  username: string;
  password: string;
  apiKey?: string;
}

/** POST /api/v4/login from the address, as JSON (or as a form). */
function login(address: string, credentials: Credentials, as: 'json' | 'form' = 'json') {
  const body = { client: tenant.loginName, ...credentials };
  return t.app.inject({
    method: 'POST',
    url: '/api/v4/login',
    remoteAddress: address,
    ...(as === 'json'
      ? { payload: body }
      : {
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams(body).toString(),
        }),
  });
}

const wrong = (user: Credentials): Credentials => ({ ...user, password: `${user.password}-wrong` });

async function statusesOf(requests: Array<Promise<LightMyRequestResponse>>): Promise<number[]> {
  return (await Promise.all(requests)).map((response) => response.statusCode);
}

/** Fails `count` logins of the user from the address, each answered 401. */
async function failLogins(address: string, user: Credentials, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const response = await login(address, wrong(user));
    expect(response.statusCode, `failure ${i + 1}: ${response.body}`).toBe(401);
  }
}

/** Asserts a throttled answer: 429, Retry-After within the wait, our error body, no token. */
function expectThrottled(response: LightMyRequestResponse, maxWaitMs = FIRST_WAIT_MS): number {
  expect(response.statusCode, response.body).toBe(429);
  const retryAfter = Number(response.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(Math.ceil(maxWaitMs / 1000));
  const body = response.json();
  expect(body).toEqual({ code: 'TOO_MANY_REQUESTS', message: expect.stringMatching(/try again in \d+ s/) });
  expect(response.headers['set-cookie']).toBeUndefined();
  return retryAfter;
}

/** The stored wait of the account at the address: how long after its last counted attempt it ends. */
async function pairWaitMs(address: string, username: string): Promise<number | null> {
  const [pair] = loginKeys(tenant.loginName, username, address);
  const rows = await t.orm.em
    .fork()
    .getConnection()
    .execute<Array<{ wait_ms: number | null }>>(
      // blocked_until is written in ms, last_attempt_at in µs.
      `select ceil(extract(epoch from blocked_until - last_attempt_at) * 1000)::int as wait_ms
         from login_throttles where key_hash = ?`,
      [pair!.hash],
    );
  return rows[0]?.wait_ms ?? null;
}

describe('the waits', () => {
  it('are free for the first attempts, then double from the first wait up to 15 minutes', () => {
    expect([1, 2, 3, 4, 5].map((n) => waitAfter(n, 5, 1000))).toEqual([0, 0, 0, 0, 0]);
    expect([6, 7, 8, 9].map((n) => waitAfter(n, 5, 1000))).toEqual([1000, 2000, 4000, 8000]);
    expect(waitAfter(15, 5, 1000)).toBe(512_000);
    expect(waitAfter(16, 5, 1000)).toBe(MAX_WAIT_MS);
    expect(waitAfter(10_000, 5, 1000)).toBe(MAX_WAIT_MS);
  });

  it('forget attempts older than the forget period and spare an address where the account logged in', () => {
    const now = new Date('2026-01-01T12:00:00Z');
    const keys = loginKeys('client', 'user', '10.0.0.1');
    const [pair, account] = keys;
    const row = (hash: string, values: Partial<ThrottleRow>): [string, ThrottleRow] => [
      hash,
      {
        key_hash: hash,
        attempts: 0,
        last_attempt_at: null,
        blocked_until: null,
        succeeded_at: null,
        ...values,
      },
    ];
    const blockedAccount = row(account!.hash, {
      attempts: ACCOUNT_FREE + 3,
      last_attempt_at: now,
      blocked_until: new Date(now.getTime() + 60_000),
    });

    expect(countAttempt(keys, new Map([blockedAccount]), now, 1000)).toEqual({ waitMs: 60_000 });
    const known = row(pair!.hash, { succeeded_at: new Date(now.getTime() - KNOWN_ADDRESS_MS + 60_000) });
    const counted = countAttempt(keys, new Map([blockedAccount, known]), now, 1000);
    expect('counted' in counted && counted.counted.map((key) => key.attempts)).toEqual([
      1,
      ACCOUNT_FREE + 4,
      1,
    ]);
    const longAgo = row(pair!.hash, { succeeded_at: new Date(now.getTime() - KNOWN_ADDRESS_MS - 1) });
    expect(countAttempt(keys, new Map([blockedAccount, longAgo]), now, 1000)).toEqual({ waitMs: 60_000 });

    const old = row(pair!.hash, {
      attempts: 40,
      last_attempt_at: new Date(now.getTime() - FORGET_AFTER_MS - 1),
      blocked_until: new Date(now.getTime() - FORGET_AFTER_MS + 60_000),
    });
    const fresh = countAttempt(keys, new Map([old]), now, 1000);
    expect('counted' in fresh && fresh.counted[0]).toEqual({
      hash: pair!.hash,
      resetByProof: true,
      attempts: 1,
      blockedUntil: null,
    });
  });
});

describe('login throttling per account and address', () => {
  it('answers 429 with Retry-After after the free failures, even to the right password; after the wait it logs in and starts again', async () => {
    const user = await createUser(t.orm, tenant.id);
    const address = newAddress();

    // The failures beyond the free ones are still checked (401) and start a wait...
    await failLogins(address, user, PAIR_FREE + 1);
    expect(await pairWaitMs(address, user.username)).toBe(FIRST_WAIT_MS);
    // ...during which nothing is checked: a wrong password and the right one get the same 429.
    const retryAfter = expectThrottled(await login(address, wrong(user)));
    expectThrottled(await login(address, user));
    expectThrottled(await login(address, user, 'form'));

    await sleep(retryAfter * 1000);
    // The next failure doubles the wait.
    await failLogins(address, user, 1);
    expect(await pairWaitMs(address, user.username)).toBe(2 * FIRST_WAIT_MS);
    const secondWait = expectThrottled(await login(address, user), 2 * FIRST_WAIT_MS);

    await sleep(secondWait * 1000);
    const loggedIn = await login(address, user, 'form');
    expect(loggedIn.statusCode, loggedIn.body).toBe(200);
    expect(loggedIn.json().token.token).toEqual(expect.any(String));
    // The success set the account's counter at this address back: the free failures are free again.
    await failLogins(address, user, PAIR_FREE);
    expect((await login(address, user)).statusCode).toBe(200);
  });

  it('does not hold another address back while the account stays below its own threshold', async () => {
    const user = await createUser(t.orm, tenant.id);
    const attacker = newAddress();
    await failLogins(attacker, user, PAIR_FREE + 1);
    expectThrottled(await login(attacker, user));

    const usual = newAddress();
    expect((await login(usual, wrong(user))).statusCode).toBe(401);
    expect((await login(usual, user)).statusCode).toBe(200);
  });

  it('counts a wrong API key as a failure', async () => {
    const user = await createUser(t.orm, tenant.id);
    const address = newAddress();
    for (let i = 0; i <= PAIR_FREE; i++) {
      expect((await login(address, { ...user, apiKey: `not-the-key-${i}` })).statusCode).toBe(401);
    }
    expectThrottled(await login(address, user));
  });

  it('lets one of many parallel guesses through once the free failures are spent', async () => {
    const user = await createUser(t.orm, tenant.id);
    const address = newAddress();
    await failLogins(address, user, PAIR_FREE);

    const statuses = await statusesOf(Array.from({ length: 8 }, () => login(address, wrong(user))));
    expect(statuses.sort()).toEqual([401, 429, 429, 429, 429, 429, 429, 429]);
  });

  it('answers tRPC with TOO_MANY_REQUESTS and Retry-After, sharing the counters with REST', async () => {
    const user = await createUser(t.orm, tenant.id);
    const address = newAddress();
    await failLogins(address, user, PAIR_FREE + 1);

    const response = await t.app.inject({
      method: 'POST',
      url: '/trpc/auth.login',
      remoteAddress: address,
      payload: { client: tenant.loginName, username: user.username, password: user.password },
    });
    expect(response.statusCode, response.body).toBe(429);
    expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(response.json().error.data.code).toBe('TOO_MANY_REQUESTS');
  });
});

describe('login throttling per account', () => {
  it('slows a guess spread over many addresses, but not at an address where the user logged in', async () => {
    const user = await createUser(t.orm, tenant.id);
    const usual = newAddress();
    expect((await login(usual, user)).statusCode).toBe(200);

    // Below the threshold per address everywhere, above it for the account.
    const perAddress = PAIR_FREE - 1;
    for (let failed = 0; failed < ACCOUNT_FREE; failed += perAddress) {
      await failLogins(newAddress(), user, Math.min(perAddress, ACCOUNT_FREE - failed));
    }
    await failLogins(newAddress(), user, 1);
    expectThrottled(await login(newAddress(), user));

    expect((await login(usual, user)).statusCode).toBe(200);
  });
});

describe('login throttling per address', () => {
  it('slows one address trying many accounts, and only that address', async () => {
    const sprayer = newAddress();
    const batch = 10;
    for (let sent = 0; sent < ADDRESS_FREE; sent += batch) {
      const guesses = Array.from({ length: Math.min(batch, ADDRESS_FREE - sent) }, () =>
        login(sprayer, { username: `nobody${uniqueSuffix()}`, password: 'Summer2026!' }),
      );
      expect(new Set(await statusesOf(guesses))).toEqual(new Set([401]));
    }
    expect((await login(sprayer, { username: `nobody${uniqueSuffix()}`, password: 'x' })).statusCode).toBe(
      401,
    );

    const user = await createUser(t.orm, tenant.id);
    expectThrottled(await login(sprayer, user));
    expect((await login(newAddress(), user)).statusCode).toBe(200);
    // A hundred password hashes: slow on a busy machine.
  }, 120_000);
});

describe('reset-password throttling', () => {
  const requestReset = (address: string, username: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v4/reset-password',
      remoteAddress: address,
      payload: { client: tenant.loginName, username },
    });

  it('answers 429 to repeated requests for one account, from any address', async () => {
    const user = await createUser(t.orm, tenant.id);
    for (let i = 0; i <= THROTTLES.resetAccount.free; i++) {
      expect((await requestReset(newAddress(), user.username)).statusCode).toBe(200);
    }
    expectThrottled(await requestReset(newAddress(), user.username));
    expect((await login(newAddress(), user)).statusCode).toBe(200);
  });

  it('answers 429 to one address asking for many accounts', async () => {
    const address = newAddress();
    for (let i = 0; i <= THROTTLES.resetAddress.free; i++) {
      expect((await requestReset(address, `nobody${uniqueSuffix()}`)).statusCode).toBe(200);
    }
    expectThrottled(await requestReset(address, `nobody${uniqueSuffix()}`));
    expect((await requestReset(newAddress(), `nobody${uniqueSuffix()}`)).statusCode).toBe(200);
  });
});
