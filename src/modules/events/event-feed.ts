/**
 * The change feed (docs/events.md): a page of the caller's client's events after a sequence, and the
 * same as a live stream for SSE and the GraphQL and tRPC subscriptions. Both read the counter first and
 * the events up to it second, so a reader can move past events it may not see (or did not ask for)
 * without ever moving past one still to be committed.
 */
import { AppError } from '../../shared/errors.js';
import type { Scope } from '../../shared/scope.js';
import type { EventFeedInput, EventPage, EventStreamInput, StreamItem } from './event.schema.js';
import { eventHubOf } from './event-hub.js';
import { type EventFilter, type EventRecord, lastSequence, readEvents } from './event-log.js';
import { EventTypes } from './event-types.js';
import { filterVisibleEvents } from './event-visibility.js';

/** Raw events read per round; a round with nothing visible moves on to the next. */
const ROUND = 500;
/** A stream sends a heartbeat after this long without an event. */
export const HEARTBEAT_MS = 15_000;

function filterOf(
  scope: Scope,
  input: { type?: string[] | undefined; 'dictionary-id'?: number[] | undefined },
) {
  if (scope.actor.guest) throw new AppError('FORBIDDEN', 'Guests cannot read the event feed');
  const families = new Set(EventTypes.map((type) => `${type.slice(0, type.indexOf('.'))}.*`));
  for (const type of input.type ?? []) {
    if (!(EventTypes as readonly string[]).includes(type) && !families.has(type)) {
      throw new AppError('BAD_REQUEST', `type: unknown event type ${type}`);
    }
  }
  const filter: EventFilter = {};
  if (input.type?.length) filter.types = input.type;
  if (input['dictionary-id']?.length) filter.dictionaryIds = input['dictionary-id'];
  return filter;
}

/**
 * Reads from `after` up to the counter `upTo`: at most `limit` visible events, and the cursor to go on
 * from (past the events looked at, visible or not).
 */
async function readVisible(scope: Scope, filter: EventFilter, after: number, upTo: number, limit: number) {
  const visible: EventRecord[] = [];
  let cursor = after;
  while (cursor < upTo) {
    const raw = await readEvents(scope.em, scope.actor.clientId, cursor, ROUND, { ...filter, upTo });
    const shown = new Map((await filterVisibleEvents(scope, raw)).map((event) => [event.sequence, event]));
    for (const event of raw) {
      const seen = shown.get(event.sequence);
      if (seen) {
        if (visible.length === limit) return { visible, cursor };
        visible.push(seen);
      }
      cursor = event.sequence;
    }
    // Nothing more matches the filter up to the counter.
    if (raw.length < ROUND) return { visible, cursor: upTo };
  }
  return { visible, cursor };
}

/** One page of the feed after `after`. */
export async function eventPage(scope: Scope, input: EventFeedInput): Promise<EventPage> {
  const filter = filterOf(scope, input);
  const upTo = await lastSequence(scope.em, scope.actor.clientId);
  const { visible, cursor } = await readVisible(scope, filter, input.after, upTo, input.limit);
  return {
    content: visible,
    numberOfElements: visible.length,
    size: input.limit,
    last: cursor >= upTo,
    nextAfter: Math.max(cursor, input.after),
  };
}

/**
 * The live feed: the events after `after` (default: from now), then each one as it is committed, with a
 * heartbeat after HEARTBEAT_MS of quiet. Ends when the signal aborts.
 */
export async function* eventStream(
  scope: Scope,
  input: EventStreamInput,
  signal?: AbortSignal,
): AsyncGenerator<StreamItem> {
  const filter = filterOf(scope, input);
  const clientId = scope.actor.clientId;
  let cursor = input.after ?? (await lastSequence(scope.em, clientId));
  // At once, so that a channel can answer its headers knowing the stream was accepted.
  yield { heartbeat: cursor };
  const hub = eventHubOf(scope.em);
  while (!signal?.aborted) {
    // Before the read: a notification that comes after it makes the wait below return at once.
    const generation = hub.generation(clientId);
    const upTo = await lastSequence(scope.em, clientId);
    if (upTo > cursor) {
      const { visible, cursor: next } = await readVisible(scope, filter, cursor, upTo, ROUND);
      for (const event of visible) yield { event };
      // Past what this reader may not see too, so that a resumed stream starts after it.
      if (visible.at(-1)?.sequence !== next) yield { heartbeat: next };
      cursor = next;
      scope.em.clear();
      continue;
    }
    const moved = await hub.wait(clientId, cursor, HEARTBEAT_MS, signal, generation);
    if (!moved && !signal?.aborted) yield { heartbeat: cursor };
  }
}
