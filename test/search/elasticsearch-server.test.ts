import { existsSync } from 'node:fs';
import { Client } from '@elastic/elasticsearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ELASTICSEARCH_VERSION,
  type RunningElasticsearch,
  startElasticsearch,
} from '../../scripts/elasticsearch.js';

/** The real server the search adapter is tested against: started, queried through the client, stopped. */
describe('Elasticsearch test server', () => {
  let es: RunningElasticsearch;
  let client: Client;
  const index = 'terms-probe';

  beforeAll(async () => {
    es = await startElasticsearch();
    client = new Client({ node: es.url });
  }, 240_000);

  afterAll(async () => {
    await client?.close();
    await es?.stop();
  }, 60_000);

  it('runs the fetched version', async () => {
    const nodes = await client.nodes.info({ node_id: '_local', metric: 'settings' });
    const node = Object.values(nodes.nodes)[0];
    expect(node?.version).toBe(ELASTICSEARCH_VERSION);
    // One path comes back as a string, several as an array.
    expect([node?.settings?.path?.data].flat()).toContain(es.dataDir);
  });

  it('answers prefix, fuzzy and wildcard queries on a keyword field', async () => {
    // No replicas: a single node stays green.
    await client.indices.create({
      index,
      settings: { number_of_shards: 1, number_of_replicas: 0 },
      mappings: { properties: { name: { type: 'keyword' } } },
    });
    await client.index({ index, id: '1', document: { name: 'terminology' }, refresh: true });
    await client.index({ index, id: '2', document: { name: 'termination' }, refresh: true });
    const health = await client.cluster.health({ index, wait_for_status: 'green', timeout: '30s' });
    expect(health.status).toBe('green');

    const ids = async (query: Record<string, unknown>) => {
      const result = await client.search({ index, query });
      return result.hits.hits.map((hit) => hit._id).sort();
    };
    expect(await ids({ prefix: { name: 'term' } })).toEqual(['1', '2']);
    expect(await ids({ prefix: { name: 'termino' } })).toEqual(['1']);
    expect(await ids({ fuzzy: { name: { value: 'terminologi', fuzziness: 'AUTO' } } })).toEqual(['1']);
    expect(await ids({ wildcard: { name: { value: '*nation' } } })).toEqual(['2']);
    expect(await ids({ wildcard: { name: { value: 'term*o*y' } } })).toEqual(['1']);
  });

  it('stops: the port no longer answers and the data folder is gone', async () => {
    await client.close();
    await es.stop();
    await expect(fetch(`${es.url}/_cluster/health`, { signal: AbortSignal.timeout(5000) })).rejects.toThrow();
    expect(existsSync(es.dataDir)).toBe(false);
    // stop() is idempotent: afterAll calls it again.
    await es.stop();
  });
});
