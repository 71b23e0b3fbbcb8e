/**
 * Concurrent writers on a pool of two connections. A use case that held its transaction's connection
 * while a read of the same request waited for another one deadlocked the pool under load (twelve
 * concurrent concept creations hung the server): every request must do its work on one connection at a
 * time. The short acquire timeout turns such a wait into a failed request instead of a hang.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  conceptWorld,
  createConcept,
  getConcept,
  putConcept,
  type Server,
  startServer,
  userOf,
} from './concept-helpers.js';

let s: Server;
beforeAll(async () => {
  s = await startServer({}, { pool: { min: 0, max: 2 }, driverOptions: { acquireConnectionTimeout: 5000 } });
});
afterAll(() => s.close());

const CONCURRENT = 12;

describe('a pool of two connections', () => {
  it('serves concurrent creations, updates, deletions and reads without waiting for a second connection', async () => {
    const w = await conceptWorld(s);
    const member = await userOf(s, w);
    const created = await Promise.all(
      Array.from({ length: CONCURRENT }, (_, index) =>
        createConcept(w.admin, w, { terms: [{ name: `pressure ${index}`, languageCode: 'eng' }] }),
      ),
    );
    expect(new Set(created.map((concept) => concept.id)).size).toBe(CONCURRENT);

    const [updates, reads, deletions] = await Promise.all([
      Promise.all(
        created.slice(0, 6).map((concept) =>
          putConcept(w.admin, concept, {
            terms: [{ name: `${concept.terms[0]!.name} bis`, languageCode: 'eng' }],
          }),
        ),
      ),
      Promise.all(created.map((concept) => member.api.get<{ id: number }>(`/concepts/${concept.id}`))),
      Promise.all(created.slice(6).map((concept) => w.admin.delete(`/concepts/${concept.id}`))),
    ]);
    expect(updates.map((response) => response.status)).toEqual(Array(6).fill(200));
    expect(reads.map((response) => response.status)).toEqual(Array(CONCURRENT).fill(200));
    expect(deletions.map((response) => response.status)).toEqual(Array(6).fill(204));

    const updated = await getConcept(w.admin, created[0]!.id);
    expect(updated.terms.map((term) => term.name)).toEqual(['pressure 0 bis']);
    expect((await member.api.get(`/concepts/${created[11]!.id}`)).status).toBe(404);
  });
});
