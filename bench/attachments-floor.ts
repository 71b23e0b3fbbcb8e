/**
 * The floor of bench/attachments: a bare Fastify server on our stack with nothing of Polyterm's. POST
 * /upload streams the multipart member `file` (@fastify/multipart, as receiveBlob) into 256 KiB bytea
 * rows, one insert per chunk outside any transaction, as PgBlobStore does, with no token, sniffing,
 * type check or thumbnail. GET /thumbnail/:key answers the first chunk of a blob of Polyterm's own
 * store (the thumbnails the bench's server made: one chunk each), with no token, permission or
 * concept read. What it reaches bounds what our endpoints can reach on the same cores and database.
 *
 *   DATABASE_URL=... PORT=... node --import tsx bench/attachments-floor.ts
 */
import { randomUUID } from 'node:crypto';
import multipart from '@fastify/multipart';
import Fastify from 'fastify';
import pg from 'pg';

const CHUNK_BYTES = 256 * 1024;
const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is needed');
const pool = new pg.Pool({ connectionString: url, max: 10 });
await pool.query(`create table if not exists floor_chunks (key uuid not null, n int not null, data bytea not null,
  primary key (key, n))`);
await pool.query('alter table floor_chunks alter column data set storage external');

const app = Fastify({ logger: false });
await app.register(multipart, { limits: { fileSize: 64 << 20, files: 1 } });

app.get('/health', async () => ({ status: 'ok' }));
app.post('/upload', async (request) => {
  const part = await request.file();
  if (!part) throw new Error('no file');
  const key = randomUUID();
  let n = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const write = (data: Buffer) =>
    pool.query('insert into floor_chunks values ($1, $2, $3)', [key, n++, data]);
  for await (const piece of part.file) {
    pending.push(piece as Buffer);
    pendingBytes += (piece as Buffer).length;
    while (pendingBytes >= CHUNK_BYTES) {
      const all = Buffer.concat(pending, pendingBytes);
      await write(all.subarray(0, CHUNK_BYTES));
      pending = [all.subarray(CHUNK_BYTES)];
      pendingBytes = all.length - CHUNK_BYTES;
    }
  }
  if (pendingBytes > 0) await write(Buffer.concat(pending, pendingBytes));
  return { key };
});
app.get<{ Params: { key: string } }>('/thumbnail/:key', async (request, reply) => {
  const { rows } = await pool.query<{ data: Buffer }>(
    'select data from storage_blob_chunks where blob_key = $1 and n = 0',
    [request.params.key],
  );
  if (!rows[0]) return reply.code(404).send();
  return reply.type('image/png').send(rows[0].data);
});

await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
const stop = async () => {
  await app.close();
  await pool.end();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
