/**
 * The event log (docs/events.md): concept writes leave their events through the history trigger, in
 * the writer's transaction; recordEvent and recordEvents number events per client without gaps; and
 * concurrent writers never let a reader see a sequence before a smaller one is visible.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEvents, recordEvent, recordEvents } from '../../src/modules/events/event-log.js';
import {
  conceptWorld,
  createConcept,
  getConcept,
  putConcept,
  rows,
  type Server,
  startServer,
} from '../concepts/concept-helpers.js';

let s: Server;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const eventsOf = (clientId: number, after = 0) => readEvents(s.t.orm.em.fork(), clientId, after, 1000);

describe('concept events', () => {
  it('a create, an update, a delete and a restore each leave one concept event with the term events of what changed', async () => {
    const w = await conceptWorld(s);
    const clientId = w.tenant.id;
    const before = (await eventsOf(clientId)).at(-1)?.sequence ?? 0;
    const created = await createConcept(w.admin, w, { fieldMap: { [w.cf.Note]: 'one' } });
    let events = await eventsOf(clientId, before);
    expect(events.map((e) => e.type)).toEqual(['concept.created']);
    const [first] = events;
    expect(first).toMatchObject({
      clientId,
      dictionaryId: w.dictionary.id,
      conceptId: created.id,
      termId: null,
      sequence: before + 1,
      data: { termIds: created.terms.map((term) => term.id) },
    });
    expect(first!.sectionId).toBeGreaterThan(0);
    expect(first!.actorId).toBeGreaterThan(0);

    const current = await getConcept(w.admin, created.id);
    const term = current.terms[0]!;
    const updated = await putConcept(w.admin, current, {
      fieldMap: { [w.cf.Note]: 'two' },
      terms: [{ id: term.id, name: `${term.name} renamed`, languageCode: term.languageCode }],
    });
    expect(updated.status, updated.text).toBe(200);
    events = await eventsOf(clientId, first!.sequence);
    expect(events.map((e) => e.type)).toEqual(['concept.updated', 'term.updated']);
    expect(events[0]!.data.changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ subject: 'FIELD', fieldOid: w.cf.Note, kind: 'CHANGED' }),
        expect.objectContaining({ subject: 'TERM', termId: term.id, kind: 'CHANGED' }),
      ]),
    );
    // Names, not values: the event never carries what a reader may not see.
    expect(JSON.stringify(events)).not.toContain('renamed');
    expect(events[1]).toMatchObject({ termId: term.id, sequence: first!.sequence + 2 });

    const deleted = await w.admin.delete(`/concepts/${created.id}`);
    expect(deleted.status, deleted.text).toBeLessThan(300);
    events = await eventsOf(clientId, events[1]!.sequence);
    expect(events.map((e) => e.type)).toEqual(['concept.deleted']);
  });
});

describe('recordEvent and the sequence', () => {
  it('events recorded in a transaction that rolls back leave no gap', async () => {
    const w = await conceptWorld(s);
    const clientId = w.tenant.id;
    const start = (await eventsOf(clientId)).at(-1)?.sequence ?? 0;
    await s.t.orm.em.fork().transactional(async (em) => {
      recordEvent(em, { clientId, type: 'dictionary.updated', actorId: null, dictionaryId: w.dictionary.id });
    });
    await expect(
      s.t.orm.em.fork().transactional(async (em) => {
        recordEvent(em, {
          clientId,
          type: 'dictionary.updated',
          actorId: null,
          dictionaryId: w.dictionary.id,
        });
        await em.flush();
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await s.t.orm.em.fork().transactional(async (em) => {
      await recordEvents(em, [
        { clientId, type: 'import.finished', actorId: null, dictionaryId: w.dictionary.id, data: { n: 1 } },
        { clientId, type: 'export.finished', actorId: null, dictionaryId: w.dictionary.id },
      ]);
    });
    const events = await eventsOf(clientId, start);
    expect(events.map((e) => [e.sequence, e.type])).toEqual([
      [start + 1, 'dictionary.updated'],
      [start + 2, 'import.finished'],
      [start + 3, 'export.finished'],
    ]);
    expect(events[1]!.data).toEqual({ n: 1 });
  });

  it('concurrent writers of one client: the sequence has no gaps, and a reader never sees a number before all smaller ones', async () => {
    const w = await conceptWorld(s);
    const clientId = w.tenant.id;
    const start = (await eventsOf(clientId)).at(-1)?.sequence ?? 0;
    const writers = 6;
    const perWriter = 15;
    let done = false;
    const violations: string[] = [];
    // A reader polling as integrations do: after the last sequence it saw.
    const reader = (async () => {
      let seen = start;
      while (!done) {
        const batch = await eventsOf(clientId, seen);
        for (const event of batch) {
          if (event.sequence !== seen + 1) violations.push(`saw ${event.sequence} after ${seen}`);
          seen = event.sequence;
        }
      }
      return seen;
    })();
    await Promise.all(
      Array.from({ length: writers }, async (_, writer) => {
        for (let i = 0; i < perWriter; i++) {
          await s.t.orm.em.fork().transactional(async (em) => {
            recordEvent(em, {
              clientId,
              type: 'dictionary.updated',
              actorId: null,
              dictionaryId: w.dictionary.id,
              data: { writer, i },
            });
            // Inserted now, committed a random while later: another writer that numbered its event
            // meanwhile (a plain sequence would) could commit first and let the reader skip this one.
            await em.flush();
            await em.execute(`select pg_sleep(${(Math.random() * 0.004).toFixed(4)})`);
          });
        }
      }),
    );
    done = true;
    const seen = await reader;
    const events = await eventsOf(clientId, start);
    expect(violations).toEqual([]);
    expect(events.map((e) => e.sequence)).toEqual(
      Array.from({ length: writers * perWriter }, (_, i) => start + i + 1),
    );
    expect(seen).toBeLessThanOrEqual(start + writers * perWriter);
  });

  it('a long transaction holds no lock while it runs: another writer of the client commits meanwhile and numbers first', async () => {
    const w = await conceptWorld(s);
    const clientId = w.tenant.id;
    const start = (await eventsOf(clientId)).at(-1)?.sequence ?? 0;
    const event = (data: Record<string, unknown>) => ({
      clientId,
      type: 'dictionary.updated' as const,
      actorId: null,
      dictionaryId: w.dictionary.id,
      data,
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const long = s.t.orm.em.fork().transactional(async (em) => {
      await recordEvents(em, [event({ long: 1 }), event({ long: 2 })]);
      await released;
    });
    const started = Date.now();
    await s.t.orm.em.fork().transactional(async (em) => {
      recordEvent(em, event({ short: true }));
    });
    const shortMs = Date.now() - started;
    release();
    await long;
    expect(shortMs).toBeLessThan(5_000);
    const events = await eventsOf(clientId, start);
    expect(events.map((e) => [e.sequence, e.data])).toEqual([
      [start + 1, { short: true }],
      [start + 2, { long: 1 }],
      [start + 3, { long: 2 }],
    ]);
  });

  it('concurrent concept writers through the API interleave without gaps', async () => {
    const w = await conceptWorld(s);
    const start = (await eventsOf(w.tenant.id)).at(-1)?.sequence ?? 0;
    await Promise.all(Array.from({ length: 8 }, () => createConcept(w.admin, w)));
    const events = await eventsOf(w.tenant.id, start);
    expect(events.map((e) => e.sequence)).toEqual(Array.from({ length: 8 }, (_, i) => start + i + 1));
    const [row] = await rows<{ n: string }>(s.t, 'select count(*) as n from events where client_id = ?', [
      w.tenant.id,
    ]);
    expect(Number(row!.n)).toBe(start + 8);
  });
});
