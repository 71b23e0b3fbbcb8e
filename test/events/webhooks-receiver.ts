/**
 * A real webhook receiver on loopback for the webhook suites: keeps every request it gets, and answers
 * as the test says (status, delay past the sender's timeout, redirect), so deliveries can fail, time out
 * and recover.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: Record<string, string>;
  body: string;
  at: number;
}

export interface Answer {
  status?: number;
  delayMs?: number;
  headers?: Record<string, string>;
}

export class Receiver {
  readonly received: Received[] = [];
  /** What the next requests get; by default 204 at once. */
  answer: (request: Received, index: number) => Answer = () => ({ status: 204 });
  private readonly server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const got: Received = {
        headers: Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)])),
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      const index = this.received.push(got) - 1;
      const answer = this.answer(got, index);
      const reply = () => {
        if (response.destroyed) return;
        response.writeHead(answer.status ?? 204, answer.headers ?? {});
        response.end();
      };
      if (answer.delayMs) setTimeout(reply, answer.delayMs).unref();
      else reply();
    });
  });
  port = 0;

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return `http://127.0.0.1:${this.port}/hook`;
  }

  /** The parsed bodies received so far. */
  bodies<T = { type: string; data: { id: string; sequence: number; conceptId: number | null } }>(): T[] {
    return this.received.map((request) => JSON.parse(request.body) as T);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** Polls until `check` holds (returns truthy), or fails after `timeoutMs`. */
export async function until<T>(
  check: () => T | Promise<T>,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The settings of every webhook suite's server (the suites share a database, so they share these). */
export const WEBHOOK_TEST_CONFIG = {
  WEBHOOKS_DISPATCH: 'true',
  WEBHOOKS_ALLOWED_NETWORKS: '127.0.0.1/32',
  WEBHOOKS_TIMEOUT_MS: '400',
  WEBHOOKS_RETRY_BASE_MS: '40',
  WEBHOOKS_RETRY_MAX_MS: '400',
  WEBHOOKS_RETRY_WINDOW_MS: '2500',
  // One key for every suite's servers: each may deliver another suite's subscriptions.
  WEBHOOK_SECRET_KEY: 'test-webhook-secret-key-0123456789abcdef',
};
