/**
 * A small HTTP proxy in front of the tests' shared Elasticsearch, for faults a suite must not cause on
 * the shared server itself (other suites and engineers use it): refusing connections (as a stopped
 * server does), accepting requests and never answering them (as a frozen one does), and answering
 * chosen calls with an error of its own.
 */
import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What the proxy does with a request: pass it on, hold it unanswered, or answer it with a 503. */
export type ProxyAction = 'forward' | 'hang' | 'fail';

export interface ElasticsearchProxy {
  readonly url: string;
  /** Decides per request (default: forward everything). */
  decide: (request: IncomingMessage) => ProxyAction;
  /** Stops listening and drops every connection: new connections are refused. */
  refuse(): Promise<void>;
  /** Listens again on the same port, forwards everything, and drops the requests it held. */
  heal(): Promise<void>;
  close(): Promise<void>;
}

/** A proxy to `upstream` on a free loopback port. */
export async function startElasticsearchProxy(upstream: string): Promise<ElasticsearchProxy> {
  const target = new URL(upstream);
  const sockets = new Set<Socket>();
  const held = new Set<ServerResponse>();
  const forwardAll = (): ProxyAction => 'forward';
  const server = createServer((incoming, outgoing) => {
    const action = proxy.decide(incoming);
    if (action === 'hang') {
      held.add(outgoing);
      outgoing.on('close', () => held.delete(outgoing));
      incoming.resume();
      return;
    }
    if (action === 'fail') {
      incoming.resume();
      outgoing.writeHead(503, { 'content-type': 'application/json' });
      outgoing.end(
        JSON.stringify({ error: { type: 'test_fault', reason: 'refused by the test proxy' }, status: 503 }),
      );
      return;
    }
    const forwarded = request(
      new URL(incoming.url ?? '/', target),
      { method: incoming.method, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const dropConnections = () => {
    for (const socket of sockets) socket.destroy();
  };
  await listen(0);
  const { port } = server.address() as AddressInfo;
  const proxy: ElasticsearchProxy = {
    url: `http://127.0.0.1:${port}`,
    decide: forwardAll,
    refuse: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      dropConnections();
      await closed;
    },
    heal: async () => {
      proxy.decide = forwardAll;
      for (const response of held) response.destroy();
      if (!server.listening) await listen(port);
    },
    close: async () => {
      proxy.decide = forwardAll;
      if (!server.listening) return;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      dropConnections();
      await closed;
    },
  };
  return proxy;
}
