/**
 * Attachment figures (not a test: it prints them beside targets; docs/attachments.md).
 *
 *   npm run bench:attachments                        # 1,000 images
 *   BENCH_IMAGES=200 npm run bench:attachments       # smaller run
 *
 * A fresh database on BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres), the
 * server in a child process on a real socket (so its peak RSS, VmHWM, is its own). JPEG photos of
 * 1600 × 1200 noise (about 1 MB each, hard to compress, like photos) are uploaded through POST
 * /attachments BENCH_CONCURRENCY at a time (each sniffed, stored in 256 KiB bytea chunks and
 * thumbnailed by sharp), set on concepts ten per concept, and every thumbnail is then read through
 * GET /concepts/{id}/attachments/{key}/thumbnail.
 *
 * Then the floors on the same machine, and our rates as a share of them: sharp alone making the same
 * thumbnails from the photos in memory (the pipeline of attachment-thumbnail.ts, BENCH_CONCURRENCY at a
 * time), and a bare Fastify server (bench/attachments-floor.ts) that streams the same multipart uploads
 * into bytea chunks and answers the stored thumbnails from PostgreSQL, with nothing of Polyterm's.
 * BENCH_FLOOR_IMAGES (default: BENCH_IMAGES, at most 300) sets how many uploads and thumbnails the
 * floors make.
 */
import pg from 'pg';
import sharp from 'sharp';
import { createBenchDatabase } from './bench-database.js';
import { type Headers, login, serverEnv } from './lib/polyterm-api.js';
import { mb, verdict } from './lib/report.js';
import { memoryOf, startServer, stopServers } from './lib/servers.js';

const IMAGES = Number(process.env.BENCH_IMAGES ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const DISTINCT = 20;
const FLOOR_IMAGES = Number(process.env.BENCH_FLOOR_IMAGES ?? Math.min(IMAGES, 300));
const TARGETS = { uploadsPerSecond: 20, thumbnailsPerSecond: 200, peakRssMb: 600 };

/** Calls per second of `work` run `count` times, `CONCURRENCY` at a time. */
async function rate(count: number, work: (index: number) => Promise<void>): Promise<number> {
  const started = performance.now();
  await pool(count, CONCURRENCY, work);
  return count / ((performance.now() - started) / 1000);
}

const share = (ours: number, floor: number) => `${((100 * ours) / floor).toFixed(0)} %`;

/** The thumbnail of attachment-thumbnail.ts, from bytes in memory: no store, no HTTP. */
async function sharpThumbnail(photo: Buffer) {
  const decoder = sharp(photo, { limitInputPixels: 40_000_000, failOn: 'error', pages: 1 });
  await decoder.clone().metadata();
  await decoder
    .clone()
    .rotate()
    .resize(256, 256, { fit: 'inside', withoutEnlargement: true })
    .png({ compressionLevel: 6 })
    .toBuffer();
}

/** Runs `work` for 0..count-1, `concurrency` at a time. */
async function pool(count: number, concurrency: number, work: (index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

async function json<T>(answer: Response, what: string): Promise<T> {
  if (!answer.ok) throw new Error(`${what}: ${answer.status} ${await answer.text()}`);
  return (await answer.json()) as T;
}

async function main() {
  const database = await createBenchDatabase();
  try {
    const server = await startServer('server', {
      ...serverEnv(database.url),
      MAX_FILE_SIZE: String(8 << 20),
    });
    const pid = server.process.pid!;
    const headers: Headers = await login(server);
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${server.url}/api/v4${path}`, { ...init, headers: { ...headers, ...(init.headers ?? {}) } });
    const dictionary = await json<{
      id: number;
      sections: { oid: string }[];
      conceptFields: { oid: string }[];
    }>(
      await api('/dictionaries', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name: `Images ${Date.now()}`,
          languages: [{ code: 'eng' }],
          conceptFields: [{ name: 'Illustration', fieldType: 'ATTACHMENT' }],
        }),
      }),
      'dictionary',
    );
    const photos = await Promise.all(
      Array.from({ length: DISTINCT }, (_, index) =>
        sharp({
          create: {
            width: 1600,
            height: 1200,
            channels: 3,
            background: '#777',
            noise: { type: 'gaussian', mean: 100 + index, sigma: 40 },
          },
        })
          .jpeg({ quality: 80 })
          .toBuffer(),
      ),
    );
    const averageBytes = photos.reduce((sum, photo) => sum + photo.length, 0) / photos.length;
    console.log(`${IMAGES} JPEG uploads of ${mb(averageBytes)} on average, ${CONCURRENCY} at a time`);

    const keys: string[] = [];
    let started = performance.now();
    await pool(IMAGES, CONCURRENCY, async (index) => {
      const form = new FormData();
      form.append(
        'file',
        new Blob([new Uint8Array(photos[index % DISTINCT]!)], { type: 'image/jpeg' }),
        `photo-${index}.jpg`,
      );
      const body = await json<{ key: string }>(
        await api(`/attachments?dictionary-id=${dictionary.id}`, { method: 'POST', body: form }),
        'upload',
      );
      keys[index] = body.key;
    });
    const uploadSeconds = (performance.now() - started) / 1000;
    const uploadRate = IMAGES / uploadSeconds;
    console.log(
      `upload: ${uploadSeconds.toFixed(1)} s, ${uploadRate.toFixed(1)} images/s, ${mb((IMAGES * averageBytes) / uploadSeconds)}/s ` +
        `(target >= ${TARGETS.uploadsPerSecond}/s: ${verdict(uploadRate >= TARGETS.uploadsPerSecond)}), server peak RSS ${mb(memoryOf(pid).hwm)}`,
    );

    const concepts: { id: number; keys: string[] }[] = [];
    for (let at = 0; at < keys.length; at += 10) {
      const slice = keys.slice(at, at + 10);
      const concept = await json<{ id: number }>(
        await api('/concepts', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            dictionaryId: dictionary.id,
            sectionOid: dictionary.sections[0]!.oid,
            fieldMap: { [dictionary.conceptFields[0]!.oid]: slice },
            terms: [{ name: `photo ${at / 10}`, languageCode: 'eng' }],
          }),
        }),
        'concept',
      );
      concepts.push({ id: concept.id, keys: slice });
    }

    const reads = concepts.flatMap((concept) => concept.keys.map((key) => ({ id: concept.id, key })));
    let thumbnailBytes = 0;
    started = performance.now();
    await pool(reads.length, CONCURRENCY, async (index) => {
      const { id, key } = reads[index]!;
      const answer = await api(`/concepts/${id}/attachments/${key}/thumbnail`);
      if (!answer.ok) throw new Error(`thumbnail: ${answer.status}`);
      thumbnailBytes += (await answer.arrayBuffer()).byteLength;
    });
    const readSeconds = (performance.now() - started) / 1000;
    const readRate = reads.length / readSeconds;
    console.log(
      `thumbnails: ${reads.length} read in ${readSeconds.toFixed(1)} s, ${readRate.toFixed(0)}/s, ${(thumbnailBytes / reads.length / 1024).toFixed(0)} KiB each ` +
        `(target >= ${TARGETS.thumbnailsPerSecond}/s: ${verdict(readRate >= TARGETS.thumbnailsPerSecond)})`,
    );
    const peak = memoryOf(pid).hwm;
    console.log(
      `server peak RSS: ${mb(peak)} (target <= ${TARGETS.peakRssMb} MB: ${verdict(peak <= TARGETS.peakRssMb * 1024 * 1024)})`,
    );

    // The floors, with our server idle (thumbnails as the library makes them, uploads and reads bare).
    sharp.cache(false); // as attachment-thumbnail.ts
    const sharpRate = await rate(FLOOR_IMAGES, (index) => sharpThumbnail(photos[index % DISTINCT]!));
    const floor = await startServer(
      'floor',
      { DATABASE_URL: String(database.url) },
      { script: 'bench/attachments-floor.ts', showStdout: false },
    );
    const bareUploadRate = await rate(FLOOR_IMAGES, async (index) => {
      const form = new FormData();
      form.append(
        'file',
        new Blob([new Uint8Array(photos[index % DISTINCT]!)], { type: 'image/jpeg' }),
        'p.jpg',
      );
      const answer = await fetch(`${floor.url}/upload`, { method: 'POST', body: form });
      if (!answer.ok) throw new Error(`floor upload: ${answer.status}`);
      await answer.arrayBuffer();
    });
    const client = new pg.Client({ connectionString: String(database.url) });
    await client.connect();
    const thumbnails = (
      await client.query<{ key: string }>(
        'select thumbnail_key as key from attachments where thumbnail_key is not null',
      )
    ).rows.map((row) => row.key);
    await client.end();
    const bareReadRate = await rate(Math.min(thumbnails.length, reads.length), async (index) => {
      const answer = await fetch(`${floor.url}/thumbnail/${thumbnails[index]}`);
      if (!answer.ok) throw new Error(`floor thumbnail: ${answer.status}`);
      await answer.arrayBuffer();
    });
    // An upload does both: it stores the photo, then makes and stores its thumbnail.
    const bothRate = 1 / (1 / bareUploadRate + 1 / sharpRate);
    console.log(
      `floors (${FLOOR_IMAGES} images, ${CONCURRENCY} at a time): sharp thumbnails alone ${sharpRate.toFixed(1)}/s, ` +
        `bare multipart upload into PG ${bareUploadRate.toFixed(1)}/s, both one after the other ${bothRate.toFixed(1)}/s, ` +
        `bare thumbnail read from PG over HTTP ${bareReadRate.toFixed(0)}/s`,
    );
    console.log(
      `ratios: upload ${uploadRate.toFixed(1)}/s = ${share(uploadRate, bothRate)} of the floor (bare upload, then sharp), ` +
        `${share(uploadRate, sharpRate)} of sharp alone; thumbnail reads ${readRate.toFixed(0)}/s = ${share(readRate, bareReadRate)} of the bare read`,
    );
  } finally {
    await stopServers();
    await database.drop();
  }
}

await main();
