/**
 * Requests refused before any route runs, over a real socket: a body sent too slowly is cut off with 408,
 * and 408, 431 and 414 carry the `{code, message}` body of every other error (docs/reliability.md,
 * Slow clients; docs/api-conventions.md).
 */
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';

const REQUEST_TIMEOUT_MS = 1500;

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await buildTestApp({ REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  port = address.port;
});
afterAll(() => t.close());

/** Opens a socket, runs `send` on it, and collects what the server answers until it closes the socket. */
function exchange(send: (write: (text: string) => boolean) => Promise<void>) {
  return new Promise<{ text: string; ms: number; bytesSent: number }>((resolve, reject) => {
    const started = performance.now();
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let bytesSent = 0;
    let closed = false;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('error', () => {}); // a write after the server closed
    socket.on('close', () => {
      closed = true;
      resolve({ text, ms: performance.now() - started, bytesSent });
    });
    socket.on('connect', () => {
      send((part) => {
        if (closed) return false;
        bytesSent += part.length;
        socket.write(part);
        return true;
      }).catch(reject);
    });
  });
}

const bodyOf = (response: string) => JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4));

describe('requests refused before a route runs', () => {
  it('cuts off a body trickled a byte at a time with 408 {code, message}', async () => {
    const answer = await exchange(async (write) => {
      write(
        'POST /api/v4/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
          'Content-Length: 100000\r\n\r\n',
      );
      // One byte every 200 ms, for up to 20 s: the server must close long before.
      for (let i = 0; i < 100 && write('{'); i++) await sleep(200);
    });
    expect(answer.text).toMatch(/^HTTP\/1.1 408 /);
    expect(bodyOf(answer.text)).toEqual({ code: 'REQUEST_TIMEOUT', message: expect.any(String) });
    // The bound, plus Node's check every second, plus a busy machine.
    expect(answer.ms).toBeLessThan(REQUEST_TIMEOUT_MS + 3000);
  });

  it('answers 431 with {code, message} to headers beyond the limit', async () => {
    const answer = await exchange(async (write) => {
      write(`GET /api/v4/features HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    });
    expect(answer.text).toMatch(/^HTTP\/1.1 431 /);
    expect(bodyOf(answer.text)).toEqual({
      code: 'REQUEST_HEADER_FIELDS_TOO_LARGE',
      message: expect.any(String),
    });
  });

  it('answers 414 with {code, message} to a path parameter beyond the limit', async () => {
    const reply = await t.app.inject({ method: 'GET', url: `/trpc/${'a'.repeat(6000)}` });
    expect(reply.statusCode).toBe(414);
    expect(reply.json()).toEqual({ code: 'URI_TOO_LONG', message: expect.any(String) });
  });
});
