/**
 * Idempotency-Key on writes (the convention of Stripe and of the IETF httpapi draft
 * "The Idempotency-Key HTTP Header Field"): a write sent again with the same key and the same body gets
 * the first answer instead of being carried out twice, on any instance (docs/reliability.md).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyRequest } from 'fastify';
import { currentWrites } from '../../db/call-writes.js';
import { AppError } from '../../shared/errors.js';
import type { Scope } from '../../shared/scope.js';
import {
  findKey,
  fingerprintOf,
  insertKey,
  type KeyOwner,
  type StoredKey,
  storeAnswer,
} from './idempotency-keys.js';

const KEY = /^[\x20-\x7e]{1,255}$/;
/** How long a request waits for the answer of an earlier one with its key before answering 409. */
export const WAIT_FOR_ANSWER_MS = 5000;
const POLL_MS = 100;

/** The request's Idempotency-Key, checked; undefined when it sends none. */
export function idempotencyKeyOf(req: FastifyRequest): string | undefined {
  const header = req.headers['idempotency-key'];
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return undefined;
  if (!KEY.test(value)) {
    throw new AppError('BAD_REQUEST', 'Idempotency-Key must be 1 to 255 printable ASCII characters');
  }
  return value;
}

export interface IdempotentCall {
  scope: Scope;
  key: string;
  /** The procedure's path and its input as sent: together they are "the same request". */
  procedure: string;
  input: unknown;
}

/** The stored answer to replay: the status the procedure set (null: its usual one) and its output. */
export interface Replay {
  status: number | null;
  response: unknown;
}

/** Thrown in the committing transaction when another request committed the key first: rolls it back. */
class KeyTaken extends Error {}

/**
 * Runs `run` once per key: a key seen before answers `replay(first answer)`, 422 when the body
 * differs, or 409 when the first answer is not there within WAIT_FOR_ANSWER_MS. Otherwise the key is
 * inserted in the transaction that commits the change, and the answer stored after it.
 * `answerOf` reads a call's outcome: the output and status to store, or undefined for a failure.
 */
export async function idempotentCall<R>(
  call: IdempotentCall,
  run: () => Promise<R>,
  answerOf: (result: R) => Replay | undefined,
  replay: (answer: Replay) => R,
): Promise<R> {
  const { em, actor, log } = call.scope;
  const owner: KeyOwner = { clientId: actor.clientId, userId: actor.userId, key: call.key };
  const fingerprint = fingerprintOf(call.procedure, call.input);
  const earlier = await findKey(em, owner);
  if (earlier) return replay(await answerOfEarlier(call, owner, fingerprint, earlier));

  const writes = currentWrites();
  if (!writes) throw new Error('idempotentCall outside a procedure call');
  let taken = false;
  writes.beforeFirstCommit = async (args) => {
    if (await insertKey(args, owner, fingerprint)) return;
    taken = true;
    throw new KeyTaken('Idempotency-Key committed by another request');
  };
  let result: R;
  try {
    result = await run();
  } finally {
    writes.beforeFirstCommit = undefined;
  }
  if (taken) {
    const winner = await findKey(em, owner);
    if (winner) return replay(await answerOfEarlier(call, owner, fingerprint, winner));
  }
  const answer = answerOf(result);
  if (answer && writes.committed) {
    // The change is saved whatever happens here; a replay that finds no answer says so (409).
    await storeAnswer(em, owner, answer.status, answer.response).catch((error: unknown) =>
      log.warn({ err: error }, 'the answer of an Idempotency-Key was not stored'),
    );
  }
  return result;
}

/** The answer of the request that used the key first, once it is there. */
async function answerOfEarlier(
  call: IdempotentCall,
  owner: KeyOwner,
  fingerprint: string,
  found: StoredKey,
): Promise<Replay> {
  const started = Date.now();
  for (let current: StoredKey | undefined = found; ; current = await findKey(call.scope.em, owner)) {
    if (current && current.fingerprint !== fingerprint) {
      throw new AppError(
        'UNPROCESSABLE',
        'This Idempotency-Key was used for another request (another operation or body); use a new key',
      );
    }
    if (current?.answered) return { status: current.status, response: current.response };
    if (Date.now() - started >= WAIT_FOR_ANSWER_MS) break;
    await sleep(POLL_MS);
  }
  throw new AppError(
    'CONFLICT',
    'A request with this Idempotency-Key is still under way, or its change was saved and its answer lost: read the object back',
  );
}
