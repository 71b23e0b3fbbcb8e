/**
 * The tRPC subscription `events.subscribe` resumes (docs/events.md, "Subscriptions"): its items are
 * `tracked` with their sequence, so the real tRPC client (httpSubscriptionLink over the `eventsource`
 * EventSource, which sends the X-Auth-Token header) that loses its connection reconnects with the last
 * id it received and gets what was committed meanwhile: no gap, no event twice.
 */
import { createTRPCClient, httpSubscriptionLink } from '@trpc/client';
import { EventSource } from 'eventsource';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamItem } from '../../src/modules/events/event.schema.js';
import { type EventInput, recordEvents } from '../../src/modules/events/event-log.js';
import type { AppRouter } from '../../src/trpc/router.js';
import { type Server, startServer } from '../concepts/concept-helpers.js';
import { createDictionary, newTenant } from '../helpers/structure.js';
import { until } from './webhooks-receiver.js';

let s: Server;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s?.close());

async function emit(clientId: number, dictionaryId: number, conceptIds: number[]): Promise<void> {
  await s.t.orm.em.fork().transactional((tx) =>
    recordEvents(
      tx,
      conceptIds.map(
        (conceptId): EventInput => ({
          clientId,
          type: 'concept.updated',
          actorId: null,
          dictionaryId,
          conceptId,
        }),
      ),
    ),
  );
}

describe('the tRPC subscription with the tRPC client', () => {
  it('resumes after a dropped connection with lastEventId: no gap and no duplicate', async () => {
    const { admin, tenant } = await newTenant(s.t, s.sysadmin);
    const dictionary = await createDictionary(admin, { languages: [{ code: 'eng' }] });
    // Every request the EventSource makes, to see the reconnect and what it resumed from.
    const requests: { url: string; lastEventId: string | null }[] = [];
    const client = createTRPCClient<AppRouter>({
      links: [
        httpSubscriptionLink({
          url: `${s.base}/trpc`,
          EventSource,
          eventSourceOptions: {
            fetch: (input, init) => {
              const headers: Record<string, string> = { ...init.headers, 'x-auth-token': admin.token ?? '' };
              requests.push({ url: String(input), lastEventId: headers['Last-Event-ID'] ?? null });
              return fetch(input, { ...init, headers });
            },
          },
        }),
      ],
    });
    const items: { id: string; data: StreamItem }[] = [];
    const errors: unknown[] = [];
    const subscription = client.events.subscribe.subscribe(
      { type: 'concept.*' },
      {
        onData: (item) => items.push(item as { id: string; data: StreamItem }),
        onError: (error) => errors.push(error),
      },
    );
    const events = () => items.flatMap((item) => ('event' in item.data ? [item.data.event] : []));
    try {
      // The first heartbeat says the stream is running.
      await until(() => items.length >= 1, 15_000, 'the first heartbeat');
      await emit(tenant.id, dictionary.id, [1, 2]);
      await until(() => events().length >= 2, 15_000, 'the first two events');
      const lastBefore = items.at(-1)!.id;
      expect(lastBefore).toBe(String(events()[1]!.sequence));

      // The server drops every connection; meanwhile two more events commit.
      s.t.app.server.closeAllConnections();
      await emit(tenant.id, dictionary.id, [3, 4]);
      await until(() => events().length >= 4, 20_000, 'the events committed while disconnected');
      await emit(tenant.id, dictionary.id, [5]);
      await until(() => events().length >= 5, 15_000, 'the event after the reconnect');
      await new Promise((resolve) => setTimeout(resolve, 300));

      expect(requests.length).toBeGreaterThanOrEqual(2);
      // The reconnect named the last id received (as lastEventId in the input, or the header).
      const resumed = requests.slice(1).map((request) => {
        const input = new URL(request.url).searchParams.get('input');
        return request.lastEventId ?? (JSON.parse(input ?? '{}') as { lastEventId?: string }).lastEventId;
      });
      expect(resumed[0]).toBe(lastBefore);
      const sequences = events().map((event) => event.sequence);
      expect(events().map((event) => event.conceptId)).toEqual([1, 2, 3, 4, 5]);
      expect(sequences).toEqual(sequences.map((_, index) => sequences[0]! + index));
      expect(errors).toEqual([]);
    } finally {
      subscription.unsubscribe();
    }
  });
});
