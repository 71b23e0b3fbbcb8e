/**
 * The floor of any search through a Node server on our stack, for bench/search: Fastify takes an
 * Elasticsearch request body, sends it with the client our search runtime uses (same options), and
 * answers the hits' sources as JSON. No token, no permissions, no database, no validation. What this
 * reaches of direct Elasticsearch throughput bounds what our REST endpoint can reach on the same cores.
 *
 *   ELASTICSEARCH_URL=... ELASTICSEARCH_INDEX=... PORT=... node --import tsx bench/pass-through.ts
 */
import { Client } from '@elastic/elasticsearch';
import Fastify from 'fastify';

const url = process.env.ELASTICSEARCH_URL;
const index = process.env.ELASTICSEARCH_INDEX;
if (!url || !index) throw new Error('ELASTICSEARCH_URL and ELASTICSEARCH_INDEX are needed');

// The options of src/modules/search/search-runtime.ts.
const client = new Client({ node: url, requestTimeout: 30_000, maxRetries: 1 });
const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });

app.get('/health', async () => ({ status: 'ok' }));
app.post('/search', async (request) => {
  const response = await client.search<Record<string, unknown>>({
    index,
    ...(request.body as Record<string, unknown>),
  });
  const total = response.hits.total;
  return {
    total: typeof total === 'number' ? total : (total?.value ?? -1),
    results: response.hits.hits.map((hit) => hit._source),
  };
});

await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
const stop = async () => {
  await app.close();
  await client.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
