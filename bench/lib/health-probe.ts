/**
 * GET /health one request at a time while a load runs (issue 43: /health answers within 50 ms p99
 * while the server is busy). Latencies include the probe's own event loop, which shares the cores.
 */

export interface HealthFigures {
  count: number;
  p50: number;
  p99: number;
  max: number;
  failures: number;
}

/** Starts probing `url` every `intervalMs`; `stop()` ends it and answers the figures. */
export function startHealthProbe(url: string, intervalMs = 50): { stop(): Promise<HealthFigures> } {
  const times: number[] = [];
  let failures = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
        await response.arrayBuffer();
        if (response.status === 200) times.push(performance.now() - started);
        else failures++;
      } catch {
        failures++;
      }
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      const sorted = [...times].sort((a, b) => a - b);
      const at = (share: number) =>
        sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0;
      return {
        count: sorted.length,
        p50: Math.round(at(0.5) * 10) / 10,
        p99: Math.round(at(0.99) * 10) / 10,
        max: Math.round((sorted.at(-1) ?? 0) * 10) / 10,
        failures,
      };
    },
  };
}

export const describeHealth = (figures: HealthFigures) =>
  `/health p50 ${figures.p50} ms p99 ${figures.p99} ms max ${figures.max} ms (${figures.count} probes${figures.failures ? `, ${figures.failures} failed` : ''})`;
