/**
 * Event delivery figures (not a test: it prints them; docs/events.md, "Webhooks" and "NATS").
 *
 *   npm run bench:events                      # a 100,000-term TBX import
 *   BENCH_TERMS=10000 npm run bench:events    # a smaller run
 *
 * A fresh database on BENCH_DATABASE_URL, the server in a child process (PostgreSQL search, NATS at
 * BENCH_NATS_URL, default nats://127.0.0.1:4222, on a stream of its own), one webhook subscription to a
 * receiver on loopback in this process, and a JetStream consumer here too. The import's events (one per
 * concept, and the import's own) flow to both; figures: events per second from the first commit to the
 * last delivery, and the delay from commit to delivery (p50, p99). The commit moment of an event is when
 * this process first sees its sequence in the events table (polled every 10 ms, so up to 10 ms late:
 * the delays are slightly understated). The import commits its events at once, so their delays are
 * mostly queueing behind each other; BENCH_EDITS single concept creations afterwards (one at a time,
 * 20 ms apart) give the delay of a change on a server that is keeping up.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import pg from 'pg';
import { createBenchDatabase } from './bench-database.js';
import { importTbx, login, serverEnv } from './lib/polyterm-api.js';
import { startServer, stopServers } from './lib/servers.js';

const TERMS = Number(process.env.BENCH_TERMS ?? 100_000);
const NATS_URL = process.env.BENCH_NATS_URL ?? 'nats://127.0.0.1:4222';
const LANGUAGES = ['en', 'is', 'de', 'fr'] as const;
/** Single edits after the import (POST /concepts one at a time), for the delay of a quiet server. */
const EDITS = Number(process.env.BENCH_EDITS ?? 200);

async function writeTbx(file: string, terms: number): Promise<number> {
  const out = createWriteStream(file);
  const write = async (chunk: string) => {
    if (!out.write(chunk)) await once(out, 'drain');
  };
  await write(
    '<?xml version="1.0" encoding="UTF-8"?>\n<tbx type="TBX-Basic" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2"><tbxHeader><fileDesc><sourceDesc><p>Bench</p></sourceDesc></fileDesc></tbxHeader><text><body>\n',
  );
  const concepts = Math.ceil(terms / LANGUAGES.length);
  let written = 0;
  for (let c = 1; c <= concepts; c++) {
    let entry = `<conceptEntry id="c${c}">`;
    for (const lang of LANGUAGES) {
      if (written++ >= terms) break;
      entry += `<langSec xml:lang="${lang}"><termSec><term>${lang} term ${c}</term></termSec></langSec>`;
    }
    await write(`${entry}</conceptEntry>\n`);
  }
  await write('</body></text></tbx>\n');
  out.end();
  await once(out, 'finish');
  return concepts;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

/** Arrival times by sequence, for one channel. */
class Arrivals {
  readonly at = new Map<number, number>();
  duplicates = 0;
  add(sequence: number) {
    if (this.at.has(sequence)) this.duplicates++;
    else this.at.set(sequence, Date.now());
  }
}

function report(name: string, arrivals: Arrivals, committed: Map<number, number>, sequences: number[]) {
  const delays = sequences.flatMap((s) => {
    const arrived = arrivals.at.get(s);
    const seen = committed.get(s);
    return arrived !== undefined && seen !== undefined ? [Math.max(0, arrived - seen)] : [];
  });
  const first = Math.min(...sequences.map((s) => committed.get(s) ?? Number.POSITIVE_INFINITY));
  const last = Math.max(...sequences.map((s) => arrivals.at.get(s) ?? 0));
  const seconds = (last - first) / 1000;
  console.log(
    `${name}: ${delays.length}/${sequences.length} events in ${seconds.toFixed(1)} s from the first commit, ` +
      `${Math.round(delays.length / seconds)} events/s; commit to delivery p50 ${percentile(delays, 50)} ms, ` +
      `p99 ${percentile(delays, 99)} ms, max ${Math.max(...delays)} ms; duplicates ${arrivals.duplicates}`,
  );
}

async function main() {
  const database = await createBenchDatabase();
  const file = path.join(tmpdir(), `${database.name}.tbx`);
  const stream = `POLYTERM_BENCH_${Date.now()}`;
  const prefix = `ptbench${Date.now()}`;
  const webhook = new Arrivals();
  const receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      webhook.add(
        (JSON.parse(Buffer.concat(chunks).toString()) as { data: { sequence: number } }).data.sequence,
      );
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const nc = await connect({ servers: NATS_URL });
  const db = new pg.Client({ connectionString: database.url.toString() });
  let polling = true;
  try {
    const concepts = await writeTbx(file, TERMS);
    const server = await startServer(
      'server',
      {
        ...serverEnv(database.url),
        WEBHOOKS_ALLOWED_NETWORKS: '127.0.0.1/32',
        EVENTS_POLL_MS: process.env.BENCH_POLL_MS ?? '5000',
        EVENTS_NATS_URL: NATS_URL,
        EVENTS_NATS_STREAM: stream,
        EVENTS_NATS_SUBJECT_PREFIX: prefix,
      },
      { showStdout: Boolean(process.env.BENCH_SERVER_LOG) },
    );
    const headers = await login(server);
    const subscribed = await fetch(`${server.url}/api/v4/webhooks`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook` }),
    });
    if (subscribed.status !== 201)
      throw new Error(`webhook: ${subscribed.status} ${await subscribed.text()}`);

    // The stream appears with the server's first publish; consume from then on.
    const nats = new Arrivals();
    const manager = await jetstreamManager(nc);
    await manager.streams.add({ name: stream, subjects: [`${prefix}.>`] }).catch(() => undefined);
    const consumer = await jetstream(nc).consumers.get(stream);
    const messages = await consumer.consume();
    void (async () => {
      for await (const message of messages) nats.add(message.json<{ sequence: number }>().sequence);
    })();

    await db.connect();
    const [{ start }] = (await db.query('select coalesce(max(sequence), 0)::int as start from events')).rows;
    const committed = new Map<number, number>();
    let seen = Number(start);
    const poller = (async () => {
      while (polling) {
        const { rows } = await db.query('select coalesce(max(sequence), 0)::int as last from events');
        const last = Number(rows[0].last);
        const now = Date.now();
        for (let s = seen + 1; s <= last; s++) committed.set(s, now);
        seen = Math.max(seen, last);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();

    const started = Date.now();
    await importTbx(server, headers, file);
    const importSeconds = (Date.now() - started) / 1000;
    console.log(`import: ${TERMS} terms, ${concepts} concepts in ${importSeconds.toFixed(1)} s`);
    const drained = async (from: number) => {
      const deadline = Date.now() + 30 * 60_000;
      while (Date.now() < deadline) {
        const expected = seen - from;
        if (
          expected > 0 &&
          webhook.at.size - (from - Number(start)) >= expected &&
          nats.at.size - (from - Number(start)) >= expected
        )
          return;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };
    await drained(Number(start));
    const afterImport = seen;
    const imported = [...committed.keys()].sort((a, b) => a - b);
    console.log(`import events: ${imported.length} (sequences ${imported[0]}..${imported.at(-1)})`);
    report('import, webhooks (1 subscription, loopback receiver)', webhook, committed, imported);
    report('import, NATS JetStream (published and consumed)', nats, committed, imported);

    const dictionary = (await (
      await fetch(`${server.url}/api/v4/dictionaries`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Edits', languages: [{ code: 'eng' }] }),
      })
    ).json()) as { id: number; sections: { oid: string }[] };
    for (let edit = 0; edit < EDITS; edit++) {
      const answer = await fetch(`${server.url}/api/v4/concepts`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({
          dictionaryId: dictionary.id,
          sectionOid: dictionary.sections[0]!.oid,
          terms: [{ name: `edit ${edit}`, languageCode: 'eng' }],
        }),
      });
      if (!answer.ok) throw new Error(`concept: ${answer.status} ${await answer.text()}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await drained(afterImport);
    polling = false;
    await poller;
    const edits = [...committed.keys()].filter((s) => s > afterImport).sort((a, b) => a - b);
    report(`${EDITS} single edits, webhooks`, webhook, committed, edits);
    report(`${EDITS} single edits, NATS JetStream`, nats, committed, edits);
    messages.stop();
    await manager.streams.delete(stream).catch(() => undefined);
  } finally {
    polling = false;
    await stopServers();
    await db.end().catch(() => undefined);
    await nc.close();
    receiver.close();
    await rm(file, { force: true });
    await database.drop();
  }
}

await main();
