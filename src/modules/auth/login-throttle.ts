import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../shared/errors.js';
import { boundRows } from '../../shared/sql.js';
import { hashSecret } from './tokens.js';

/**
 * What is counted, and how many attempts each counter lets through before the waits begin. Login
 * counts failed logins: per account and address (one attacker, or the user mistyping), per account
 * (a guess spread over many addresses) and per address (one address trying many accounts).
 * reset-password counts every request: each one may send a mail.
 */
export const THROTTLES = {
  loginAccountAddress: { kind: 'login-account-address', free: 5 },
  loginAccount: { kind: 'login-account', free: 20 },
  loginAddress: { kind: 'login-address', free: 100 },
  resetAccount: { kind: 'reset-account', free: 3 },
  resetAddress: { kind: 'reset-address', free: 20 },
} as const;
type Throttle = (typeof THROTTLES)[keyof typeof THROTTLES];

/** The longest wait, however many attempts failed. */
export const MAX_WAIT_MS = 15 * 60_000;
/** A counter starts again from zero this long after its last counted attempt. */
export const FORGET_AFTER_MS = 12 * 3_600_000;
/** An address where the account proved its credentials stays exempt from the account-wide wait this long. */
export const KNOWN_ADDRESS_MS = 30 * 86_400_000;

/** The wait after the n-th counted attempt: none while free, then 1, 2, 4 ... times `firstWaitMs`, capped. */
export function waitAfter(attempts: number, free: number, firstWaitMs: number): number {
  if (attempts <= free) return 0;
  return Math.min(MAX_WAIT_MS, firstWaitMs * 2 ** Math.min(attempts - free - 1, 30));
}

/** One counter. Only a hash of its parts is stored: a username field may hold a mistyped password. */
export interface ThrottleKey {
  hash: string;
  free: number;
  /** The key whose recent proof of credentials (a login at that account and address) lifts this key's wait. */
  unlessKnownAt?: string;
  /** Proof of credentials sets this counter back to zero (and remembers it) instead of dropping one attempt. */
  resetByProof?: true;
}

const keyOf = (throttle: Throttle, ...parts: string[]): ThrottleKey => ({
  hash: hashSecret([throttle.kind, ...parts].join('\n')),
  free: throttle.free,
});

const accountOf = (clientLogin: string, username: string) => [
  clientLogin.trim().toLowerCase(),
  username.trim().toLowerCase(),
];

/**
 * The counters of a login: the account is the client and username as sent (so an unknown one is counted
 * the same way as a real one), the address the request's IP as Fastify sees it.
 */
export function loginKeys(clientLogin: string, username: string, address: string): ThrottleKey[] {
  const account = accountOf(clientLogin, username);
  const pair: ThrottleKey = {
    ...keyOf(THROTTLES.loginAccountAddress, ...account, address),
    resetByProof: true,
  };
  return [
    pair,
    { ...keyOf(THROTTLES.loginAccount, ...account), unlessKnownAt: pair.hash },
    keyOf(THROTTLES.loginAddress, address),
  ];
}

/** The counters of a reset-password request: per account as sent and per address. */
export const resetKeys = (clientLogin: string, username: string, address: string): ThrottleKey[] => [
  keyOf(THROTTLES.resetAccount, ...accountOf(clientLogin, username)),
  keyOf(THROTTLES.resetAddress, address),
];

export interface ThrottleRow {
  key_hash: string;
  attempts: number;
  last_attempt_at: Date | null;
  blocked_until: Date | null;
  succeeded_at: Date | null;
}

export interface CountedKey extends Pick<ThrottleKey, 'hash' | 'resetByProof'> {
  attempts: number;
  /** The end of the wait this attempt started; null while attempts are free. */
  blockedUntil: Date | null;
}

/**
 * Either the longest wait still running on one of the keys (nothing is counted then: a refused attempt
 * neither tries a password nor lengthens anyone's wait), or each key's count with this attempt.
 */
export function countAttempt(
  keys: readonly ThrottleKey[],
  rows: ReadonlyMap<string, ThrottleRow>,
  now: Date,
  firstWaitMs: number,
): { waitMs: number } | { counted: CountedKey[] } {
  const at = now.getTime();
  let waitMs = 0;
  for (const key of keys) {
    const known = key.unlessKnownAt && rows.get(key.unlessKnownAt)?.succeeded_at;
    if (known && known.getTime() > at - KNOWN_ADDRESS_MS) continue;
    const blockedUntil = rows.get(key.hash)?.blocked_until;
    if (blockedUntil) waitMs = Math.max(waitMs, blockedUntil.getTime() - at);
  }
  if (waitMs > 0) return { waitMs };
  const counted = keys.map((key) => {
    const row = rows.get(key.hash);
    const recent = row?.last_attempt_at && row.last_attempt_at.getTime() > at - FORGET_AFTER_MS;
    const attempts = (recent ? row.attempts : 0) + 1;
    const wait = waitAfter(attempts, key.free, firstWaitMs);
    const blockedUntil = wait > 0 ? new Date(at + wait) : null;
    return { hash: key.hash, resetByProof: key.resetByProof, attempts, blockedUntil };
  });
  return { counted };
}

/** An attempt counted on its keys; `releaseAttempt` takes it back when it proves its credentials. */
export interface ThrottleClaim {
  counted: CountedKey[];
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** Timestamps come back from the driver as text. */
type Stored<T> = { [K in keyof T]: T[K] extends Date | null ? string | null : T[K] };
type StoredRow = Stored<ThrottleRow> & { now: string };
const dateOf = (value: string | null): Date | null => (value === null ? null : new Date(value));
const parsedRow = (row: StoredRow): ThrottleRow => ({
  key_hash: row.key_hash,
  attempts: row.attempts,
  last_attempt_at: dateOf(row.last_attempt_at),
  blocked_until: dateOf(row.blocked_until),
  succeeded_at: dateOf(row.succeeded_at),
});

/**
 * Counts one attempt on every key, before the secret is checked: parallel guesses are counted one after
 * the other (row locks), so none slips through a wait. Throws TOO_MANY_REQUESTS with the seconds to
 * wait when a key is in a wait. The rows live in PostgreSQL, so every instance sharing it counts alike.
 */
export async function claimAttempt(
  em: EntityManager,
  keys: readonly ThrottleKey[],
  firstWaitMs: number,
  refusal: string,
): Promise<ThrottleClaim> {
  const hashes = keys.map((key) => key.hash).sort();
  const outcome = await em.transactional(async (tem) => {
    // Rows are made first, so that the lock below holds for a counter seen for the first time too;
    // a few expired rows of other keys go on the way (skipping any another attempt holds).
    await boundRows(tem, {
      text: `with expired as (
               delete from login_throttles where key_hash in (
                 select key_hash from login_throttles where expires_at < now() and key_hash <> all(?::text[])
                  limit 100 for update skip locked))
             insert into login_throttles (key_hash, attempts, expires_at)
             select key_hash, 0, now() + make_interval(secs => ?::double precision) from unnest(?::text[]) as k(key_hash)
             order by key_hash on conflict (key_hash) do nothing`,
      params: [hashes, FORGET_AFTER_MS / 1000, hashes],
    });
    const rows = await boundRows<StoredRow>(tem, {
      text: `select key_hash, attempts, last_attempt_at, blocked_until, succeeded_at, now() as now
               from login_throttles where key_hash = any(?::text[]) order by key_hash for update`,
      params: [hashes],
    });
    // The database's clock, the same for every instance.
    const now = dateOf(rows[0]?.now ?? null) ?? new Date();
    const byKey = new Map(rows.map((row) => [row.key_hash, parsedRow(row)]));
    const result = countAttempt(keys, byKey, now, firstWaitMs);
    if ('waitMs' in result) return result;
    await boundRows(tem, {
      text: `update login_throttles as t
                set attempts = v.attempts, last_attempt_at = now(),
                    blocked_until = greatest(t.blocked_until, v.blocked_until),
                    expires_at = greatest(t.expires_at, now() + make_interval(secs => ?::double precision))
               from unnest(?::text[], ?::int[], ?::timestamptz[]) as v(key_hash, attempts, blocked_until)
              where t.key_hash = v.key_hash`,
      params: [
        FORGET_AFTER_MS / 1000,
        result.counted.map((key) => key.hash),
        result.counted.map((key) => key.attempts),
        result.counted.map((key) => iso(key.blockedUntil)),
      ],
    });
    return result;
  });
  if ('waitMs' in outcome) {
    const seconds = Math.max(1, Math.ceil(outcome.waitMs / 1000));
    throw new AppError('TOO_MANY_REQUESTS', `${refusal}; try again in ${seconds} s`, seconds);
  }
  return outcome;
}

/**
 * Takes back an attempt that proved its credentials. A `resetByProof` counter (the account at this
 * address) starts again from zero and remembers the success; the others drop this attempt, and the wait
 * it started, unless a later attempt replaced that wait.
 */
export async function releaseAttempt(em: EntityManager, claim: ThrottleClaim): Promise<void> {
  await boundRows(em, {
    text: `update login_throttles as t
              set attempts = case when v.proven then 0 else greatest(t.attempts - 1, 0) end,
                  blocked_until = case when v.proven or t.blocked_until = v.claimed then null
                                       else t.blocked_until end,
                  succeeded_at = case when v.proven then now() else t.succeeded_at end,
                  expires_at = case when v.proven then greatest(t.expires_at, now() + make_interval(secs => ?::double precision))
                                    else t.expires_at end
             from unnest(?::text[], ?::boolean[], ?::timestamptz[]) as v(key_hash, proven, claimed)
            where t.key_hash = v.key_hash`,
    params: [
      KNOWN_ADDRESS_MS / 1000,
      claim.counted.map((key) => key.hash),
      claim.counted.map((key) => key.resetByProof === true),
      claim.counted.map((key) => iso(key.blockedUntil)),
    ],
  });
}
