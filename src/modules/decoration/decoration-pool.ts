/**
 * Worker threads for decoration's CPU-bound work (issue 38: no request may stall the server). Matching
 * a maximal request and serialising its answer (megabytes) take hundreds of milliseconds of one
 * thread; in the server's thread that would hold health checks and every other request. A request's
 * session lives in one worker (its segments and spans stay there between the database round trips;
 * only keys, rows and the answer's JSON bytes, transferred, cross). A term check's two texts are two
 * sessions in one worker and one room, its answer built there from both. The work is bounded: at most
 * ACTIVE_PER_WORKER rooms per worker at once, QUEUE_LENGTH more waiting, and beyond that 503 with Retry-After.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { AppError, type AppErrorCode } from '../../shared/errors.js';
import type { CandidateKeys, KeyInputs, KeyRow, ShapeOptions } from './decoration-phases.js';
import type { AsyncSession, Found, SessionRequest } from './decoration-session.js';

export type WorkerCall = { id: number; seq: number } & (
  | { op: 'start'; request: SessionRequest }
  | { op: 'keyInputs'; language: string }
  | { op: 'spans'; row: KeyRow }
  | { op: 'answer'; found: Found; shape: ShapeOptions }
  | { op: 'check'; found: Found; target: { id: number; found: Found }; targetLang: string }
  | { op: 'close' }
);
type WorkerCallOf<O> = Extract<WorkerCall, { op: O }>;
export interface WorkerAnswer {
  id: number;
  seq: number;
  value?: unknown;
  error?: { code?: AppErrorCode; message: string };
}

export interface PoolLimits {
  workers: number;
  activePerWorker: number;
  queueLength: number;
}

/** One worker per core but one (the server's thread keeps a core), at most four. */
export function defaultLimits(): PoolLimits {
  const fromEnv = Number(process.env.DECORATION_WORKERS);
  return {
    workers: fromEnv > 0 ? fromEnv : Math.max(1, Math.min(4, availableParallelism() - 1)),
    activePerWorker: 8,
    queueLength: 64,
  };
}

/** The worker's module: compiled JavaScript in production; TypeScript through tsx in tests and dev. */
function spawn(): Worker {
  const url = new URL(
    import.meta.url.endsWith('.ts') ? './decoration.worker.ts' : './decoration.worker.js',
    import.meta.url,
  );
  if (url.pathname.endsWith('.js')) return new Worker(url);
  const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); });`;
  return new Worker(bootstrap, { eval: true });
}

interface Slot {
  worker: Worker;
  active: number;
  pending: Map<string, { resolve: (value: unknown) => void; reject: (error: Error) => void }>;
}

export class DecorationPool {
  private readonly slots: Slot[] = [];
  private readonly waiting: (() => void)[] = [];
  private nextId = 1;

  constructor(private readonly limits: PoolLimits = defaultLimits()) {}

  /** A session in the least busy worker; waits for room, or 503 when the queue is full. */
  async session(request: SessionRequest): Promise<WorkerSession> {
    let slot = this.freeSlot();
    if (!slot) {
      if (this.waiting.length >= this.limits.queueLength) {
        throw new AppError('SERVICE_UNAVAILABLE', 'Too many decoration requests at once; retry shortly', 1);
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
      slot = this.freeSlot()!;
    }
    slot.active++;
    return new WorkerSession(this, slot, this.newId(), request, true);
  }

  /** @internal */
  newId(): number {
    return this.nextId++;
  }

  /** Stops the workers (tests; the server's shutdown). */
  async close(): Promise<void> {
    await Promise.all(this.slots.splice(0).map((slot) => slot.worker.terminate()));
  }

  private freeSlot(): Slot | undefined {
    if (this.slots.length < this.limits.workers) return this.addSlot();
    const least = this.slots.reduce((a, b) => (b.active < a.active ? b : a));
    return least.active < this.limits.activePerWorker ? least : undefined;
  }

  private addSlot(): Slot {
    const slot: Slot = { worker: spawn(), active: 0, pending: new Map() };
    slot.worker.unref();
    slot.worker.on('message', (answer: WorkerAnswer) => {
      const key = `${answer.id}:${answer.seq}`;
      const waiter = slot.pending.get(key);
      slot.pending.delete(key);
      if (!answer.error) waiter?.resolve(answer.value);
      else if (answer.error.code) waiter?.reject(new AppError(answer.error.code, answer.error.message));
      else waiter?.reject(new Error(answer.error.message));
    });
    const fail = (error: Error) => {
      // A worker that died takes its sessions with it; the next request gets a new one.
      const index = this.slots.indexOf(slot);
      if (index >= 0) this.slots.splice(index, 1);
      for (const waiter of slot.pending.values()) waiter.reject(error);
      slot.pending.clear();
    };
    slot.worker.on('error', fail);
    slot.worker.on('exit', (code) => fail(new Error(`decoration worker exited with code ${code}`)));
    this.slots.push(slot);
    return slot;
  }

  /** @internal A session's call to its worker. */
  call<O extends WorkerCall['op']>(slot: Slot, call: WorkerCallOf<O>): Promise<unknown> {
    return new Promise((resolve, reject) => {
      slot.pending.set(`${call.id}:${call.seq}`, { resolve, reject });
      slot.worker.postMessage(call);
    });
  }

  /** @internal A session ended: its room goes to the first waiting request. */
  release(slot: Slot): void {
    slot.active--;
    this.waiting.shift()?.();
  }
}

/** A request's session in one worker: each phase is one message; close() always, when done. */
export class WorkerSession implements AsyncSession {
  private seq = 0;
  private open = true;
  private readonly started: Promise<boolean>;
  private readonly companions: WorkerSession[] = [];

  constructor(
    private readonly pool: DecorationPool,
    private readonly slot: Slot,
    private readonly id: number,
    request: SessionRequest,
    /** Holds a room of the pool (a companion shares its first session's). */
    private readonly holdsRoom: boolean,
  ) {
    this.started = this.send({ op: 'start', request }) as Promise<boolean>;
    // Read by hasWords(); a failed start is reported there, not as an unhandled rejection.
    this.started.catch(() => {});
  }

  private send(call: { op: WorkerCall['op'] } & Record<string, unknown>): Promise<unknown> {
    return this.pool.call(this.slot, { ...call, id: this.id, seq: this.seq++ } as WorkerCall);
  }

  hasWords(): Promise<boolean> {
    return this.started;
  }

  keyInputs(language: string): Promise<KeyInputs> {
    return this.send({ op: 'keyInputs', language }) as Promise<KeyInputs>;
  }

  spans(row: KeyRow): Promise<{ maxWords: number; keys: CandidateKeys | null }> {
    return this.send({ op: 'spans', row }) as Promise<{ maxWords: number; keys: CandidateKeys | null }>;
  }

  /** The answer as UTF-8 JSON; ends the session in the worker. */
  answerJson(found: Found, shape: ShapeOptions): Promise<Uint8Array> {
    this.open = false;
    return this.send({ op: 'answer', found, shape }) as Promise<Uint8Array>;
  }

  /**
   * Another session in the same worker and the same room (term check's target text), so that
   * checkJson() can read both; closed with this one.
   */
  companion(request: SessionRequest): WorkerSession {
    const session = new WorkerSession(this.pool, this.slot, this.pool.newId(), request, false);
    this.companions.push(session);
    return session;
  }

  /** Term check's answer as UTF-8 JSON, this session the source and `target` its companion; ends both. */
  checkJson(
    found: Found,
    target: WorkerSession,
    targetFound: Found,
    targetLang: string,
  ): Promise<Uint8Array> {
    if (!this.companions.includes(target)) throw new Error('term check: the target is not a companion');
    this.open = false;
    target.open = false;
    return this.send({
      op: 'check',
      found,
      target: { id: target.id, found: targetFound },
      targetLang,
    }) as Promise<Uint8Array>;
  }

  close(): void {
    for (const companion of this.companions.splice(0)) companion.close();
    if (this.open) {
      this.open = false;
      this.send({ op: 'close' }).catch(() => {});
    }
    if (this.holdsRoom) this.pool.release(this.slot);
  }
}

let shared: DecorationPool | null = null;

/** The server's pool, started on the first decoration. */
export function decorationPool(): DecorationPool {
  shared ??= new DecorationPool();
  return shared;
}
