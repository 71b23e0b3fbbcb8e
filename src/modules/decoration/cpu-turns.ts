/**
 * CPU-bound decoration work takes turns (issue 38: no request may stall the server). Matching a
 * maximal request takes hundreds of milliseconds of one thread; run at once, ten of them would hold
 * the event loop for seconds and /ready would time out. So the matching runs in slices of SLICE_MS:
 * one slice at a time over all requests (a first-come queue), and between two slices the event loop
 * goes round once (setImmediate), so requests, health checks and database answers are served in between.
 * While a request waits for the database it holds no turn.
 */

/** The most one slice runs before it gives the event loop back. */
const SLICE_MS = 5;

let busy = false;
const waiting: (() => void)[] = [];

async function acquire(): Promise<void> {
  if (!busy) {
    busy = true;
    return;
  }
  await new Promise<void>((resolve) => waiting.push(resolve));
}

/** Hands the turn to the next waiter after a round of the event loop (its I/O first). */
function release(): void {
  const next = waiting.shift();
  if (next) setImmediate(next);
  else busy = false;
}

const loopRound = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Gives the turn back when the slice is used up, and waits for the next one. */
export type Pace = () => Promise<void>;

/**
 * Runs CPU-bound work in turns: `work` calls `pace()` often (every segment, every few hundred words);
 * once its slice is used up, pace lets the event loop and the other requests run before it goes on.
 */
export async function inTurns<T>(work: (pace: Pace) => T | Promise<T>): Promise<T> {
  await acquire();
  let sliceStart = performance.now();
  const pace: Pace = async () => {
    if (performance.now() - sliceStart < SLICE_MS) return;
    release();
    await loopRound();
    await acquire();
    sliceStart = performance.now();
  };
  try {
    return await work(pace);
  } finally {
    release();
  }
}
