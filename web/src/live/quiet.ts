/**
 * The app's own requests in flight. The live stream opens only once they have been done for a moment:
 * it never delays a screen's data, and a long-lived request does not start while the page is loading
 * (so "network idle" still comes for it, as tools and the browser suites wait for).
 */
let inflight = 0;
let lastDone = 0;

export async function tracked<T>(request: Promise<T>): Promise<T> {
  inflight += 1;
  try {
    return await request;
  } finally {
    inflight -= 1;
    lastDone = Date.now();
  }
}

/** Resolves once no tracked request has been in flight for `ms`. */
export async function whenQuiet(ms: number): Promise<void> {
  for (;;) {
    const quietFor = Date.now() - lastDone;
    if (inflight === 0 && quietFor >= ms) return;
    await new Promise((resolve) => setTimeout(resolve, inflight === 0 ? ms - quietFor : 100));
  }
}
