/**
 * Search documents carry external versions (docs/search.md, "Keeping the index in step"): a bulk
 * request the client gave up on can still be executed by Elasticsearch after a newer one (it hung, then
 * came back), and must not bring back an older state. Runs against the real Elasticsearch of the tests.
 */
import { randomBytes } from 'node:crypto';
import { Client } from '@elastic/elasticsearch';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  applyToIndex,
  ensureTermIndex,
  nextDocumentVersion,
  type TermDocument,
} from '../../src/modules/search/elasticsearch-index.js';
import { useTestOrm } from '../helpers/test-orm.js';

const orm = useTestOrm();
let client: Client;
let index: string;

beforeAll(async () => {
  client = new Client({ node: inject('elasticsearchUrl') });
  index = `${inject('elasticsearchIndexPrefix')}_versions_${randomBytes(4).toString('hex')}`;
  await ensureTermIndex(client, index);
});
afterAll(async () => {
  await client?.indices.delete({ index: `${index}-v1` }).catch(() => {});
  await client?.close();
});

function termDocument(id: number, name: string): TermDocument {
  return {
    id,
    clientId: 1,
    dictionaryId: 1,
    conceptId: id,
    conceptOid: null,
    sectionId: 1,
    domainIds: [],
    tid: 1,
    lang: 'eng',
    region: null,
    script: null,
    regionCode: null,
    scriptCode: null,
    name,
    lower: name,
    folded: name,
    plain: true,
    foldedSuffixes: [name],
    fieldWords: [],
    words: [],
    generation: Date.now(),
  };
}

/** The stored name of a document, or null when there is none. */
async function storedName(id: number): Promise<string | null> {
  const answer = await client.get<TermDocument>({ index, id: String(id) }, { ignore: [404] });
  return answer.found ? answer._source!.name : null;
}

const write = (id: number, name: string, version: number) =>
  applyToIndex(client, index, { documents: [termDocument(id, name)], removed: [], version });
const remove = (id: number, version: number) =>
  applyToIndex(client, index, { documents: [], removed: [id], version });

describe('versioned search documents', () => {
  it('an older state that lands after a newer one changes nothing, and is no error', async () => {
    await write(1, 'renamed', 20);
    await write(1, 'original', 10);
    expect(await storedName(1)).toBe('renamed');
    // The same request twice (the client's retry) is no error either.
    await write(1, 'renamed', 20);
    expect(await storedName(1)).toBe('renamed');
    await write(1, 'renamed again', 21);
    expect(await storedName(1)).toBe('renamed again');
  });

  it('a removal holds against an older write that lands later; a newer write brings the term back', async () => {
    await write(2, 'kept', 30);
    await remove(2, 40);
    await write(2, 'kept', 35);
    expect(await storedName(2)).toBeNull();
    await write(2, 'restored', 41);
    expect(await storedName(2)).toBe('restored');
  });

  it('a refused write still fails the request, so its outbox rows stay', async () => {
    await client.indices.putSettings({ index, settings: { 'index.blocks.write': true } });
    try {
      await expect(write(3, 'blocked', 50)).rejects.toThrow(/Elasticsearch refused 1 documents/);
    } finally {
      await client.indices.putSettings({ index, settings: { 'index.blocks.write': false } });
    }
    expect(await storedName(3)).toBeNull();
  });

  it('versions come from one database sequence, above those Elasticsearch gave unversioned documents', async () => {
    const first = await nextDocumentVersion(orm().em.fork());
    const second = await nextDocumentVersion(orm().em.fork());
    expect(first).toBeGreaterThanOrEqual(1_000_000_000_000);
    expect(second).toBeGreaterThan(first);
  });
});
