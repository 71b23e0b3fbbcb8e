/**
 * One HTTP POST of a delivery: to the address the guard allows (checked on the resolved address the
 * socket connects to), redirects not followed (a 3xx is a failure), bounded by a timeout over the whole
 * exchange, the answer's body read up to a few kilobytes and dropped.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { AddressGuard } from './webhook-address-guard.js';

export interface SendResult {
  ok: boolean;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}

const MAX_ANSWER_BYTES = 16 * 1024;

/** Keep-alive agents of one dispatcher: a receiver's connection is reused between its events. */
export interface Agents {
  http: http.Agent;
  https: https.Agent;
}

export function keepAliveAgents(): Agents {
  const options = { keepAlive: true, maxSockets: 64, maxFreeSockets: 64, timeout: 60_000 };
  return { http: new http.Agent(options), https: new https.Agent(options) };
}

/** A lookup that resolves as usual, then refuses when any resolved address is not allowed. */
function guardedLookup(guard: AddressGuard): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const refused = addresses.map((entry) => guard.refusal(entry.address)).find(Boolean);
      if (refused) return callback(Object.assign(new Error(refused), { code: 'EREFUSED_ADDRESS' }), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}

/** Why the URL's host may not be delivered to before any connection (IP literals skip the lookup). */
export function literalRefusal(url: URL, guard: AddressGuard): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return guard.refusal(host);
  if (host === 'localhost' || host.endsWith('.localhost')) return guard.refusal('127.0.0.1');
  return null;
}

/** Posts the body; never throws (a failure is a result with its error). */
export function send(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { guard: AddressGuard; timeoutMs: number; agents?: Agents },
): Promise<SendResult> {
  const started = performance.now();
  const done = (ok: boolean, statusCode: number | null, error: string | null): SendResult => ({
    ok,
    statusCode,
    latencyMs: Math.round(performance.now() - started),
    error,
  });
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve(done(false, null, 'invalid URL'));
  }
  const refused = literalRefusal(target, options.guard);
  if (refused) return Promise.resolve(done(false, null, `refused: ${refused}`));
  const secure = target.protocol === 'https:';
  const client = secure ? https : http;
  // A pooled socket was checked by the guard when it connected (the lookup below runs per connection).
  const agent = options.agents ? (secure ? options.agents.https : options.agents.http) : false;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'Polyterm-Webhooks/1',
        },
        lookup: guardedLookup(options.guard),
        agent,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) response.destroy();
        });
        const end = () => {
          const ok = status >= 200 && status < 300;
          const error = ok
            ? null
            : status >= 300 && status < 400
              ? `redirect to ${response.headers.location ?? '?'} not followed`
              : `HTTP ${status}`;
          finish(done(ok, status, error));
        };
        response.on('end', end);
        response.on('close', end);
        response.on('error', end);
      },
    );
    const timer = setTimeout(() => {
      finish(done(false, null, `timed out after ${options.timeoutMs} ms`));
      request.destroy();
    }, options.timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => {
      const refusedAddress = error.code === 'EREFUSED_ADDRESS';
      finish(
        done(false, null, refusedAddress ? `refused: ${error.message}` : error.message || String(error.code)),
      );
    });
    request.end(body);
  });
}
