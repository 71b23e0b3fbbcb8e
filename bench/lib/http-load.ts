/**
 * Load runs with autocannon: POST requests over rotating bodies, warmed up first, reduced to the
 * figures the benchmarks print (p50, p99, requests per second, errors).
 */
import autocannon from 'autocannon';
import { throwIfInterrupted } from './interrupt.js';

/** Seconds of load before each measured run, not counted. */
export const WARM_UP_SECONDS = 2;

export interface Figures {
  p50: number;
  p99: number;
  rps: number;
  errors: number;
}

export interface LoadRun {
  url: string;
  headers: Record<string, string>;
  /** JSON bodies, sent in turn. */
  bodies: string[];
  connections: number;
}

/** A warm-up, then `duration` seconds of measured load. */
export async function measureLoad(run: LoadRun, duration: number): Promise<Figures> {
  throwIfInterrupted();
  await hammer(run, WARM_UP_SECONDS);
  return hammer(run, duration);
}

/** "p50    12 ms  p99    40 ms     830 req/s", and the errors when there were any. */
export const describeFigures = (figures: Figures) =>
  `p50 ${String(figures.p50).padStart(5)} ms  p99 ${String(figures.p99).padStart(5)} ms  ${figures.rps.toFixed(0).padStart(6)} req/s${figures.errors ? `  ${figures.errors} errors/non-2xx` : ''}`;

/** autocannon over rotating bodies (one shared counter, so connections do not ask the same in step). */
async function hammer({ url, headers, bodies, connections }: LoadRun, duration: number): Promise<Figures> {
  let next = 0;
  const result = await autocannon({
    url,
    method: 'POST',
    connections,
    duration,
    headers: { ...headers, 'content-type': 'application/json' },
    requests: [{ setupRequest: (request) => ({ ...request, body: bodies[next++ % bodies.length] }) }],
  });
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    rps: result.requests.average,
    errors: result.errors + result.non2xx + result.timeouts,
  };
}
