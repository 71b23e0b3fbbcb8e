/**
 * The change feed over GraphQL (docs/events.md): the `events` query pages it as GET /api/v4/events
 * does, and the `events` subscription (over SSE, graphql-yoga's default transport) delivers each event
 * as it is committed, both through the tRPC procedures (same checks, same visibility).
 */
import { builder, defined } from '../../graphql/builder.js';
import { loading, PAGE_CONTENT_COST } from '../../graphql/cost.js';
import { type EventDto, type EventPage, streamItemOf } from './event.schema.js';

const EventRef = builder.objectRef<EventDto>('Event').implement({
  description: 'One change of the event log (docs/events.md).',
  fields: (t) => ({
    sequence: t.float({
      description: "the client's event number, gap-free in commit order",
      resolve: (e) => e.sequence,
    }),
    type: t.exposeString('type', {
      description: 'concept.created, term.updated, workflow.transitioned, ...',
    }),
    clientId: t.exposeInt('clientId'),
    dictionaryId: t.exposeInt('dictionaryId', { nullable: true }),
    sectionId: t.exposeInt('sectionId', { nullable: true }),
    conceptId: t.exposeInt('conceptId', { nullable: true }),
    termId: t.exposeInt('termId', { nullable: true }),
    actorId: t.exposeInt('actorId', { nullable: true }),
    occurredAt: t.exposeString('occurredAt', { description: 'ISO 8601' }),
    data: t.field({ type: 'JSON', description: 'ids and the names of what changed', resolve: (e) => e.data }),
  }),
});

const EventPageRef = builder.objectRef<EventPage>('EventPage').implement({
  fields: (t) => ({
    content: t.field({ type: [EventRef], complexity: PAGE_CONTENT_COST, resolve: (page) => page.content }),
    numberOfElements: t.exposeInt('numberOfElements'),
    size: t.exposeInt('size'),
    last: t.exposeBoolean('last'),
    nextAfter: t.float({ description: 'pass as after for the next page', resolve: (page) => page.nextAfter }),
  }),
});

const filterArgs = (t: Parameters<Parameters<typeof builder.queryFields>[0]>[0]) => ({
  types: t.arg.stringList({ required: false, description: 'event types, or families as concept.*' }),
  dictionaryIds: t.arg.intList({ required: false }),
});

const filterOf = (args: { types?: string[] | null; dictionaryIds?: number[] | null }) =>
  defined({
    type: args.types?.length ? args.types.join(',') : undefined,
    'dictionary-id': args.dictionaryIds?.length ? args.dictionaryIds.join(',') : undefined,
  });

builder.queryFields((t) => ({
  events: t.field({
    type: EventPageRef,
    complexity: (args) => loading(args.limit ?? 100),
    description: 'As GET /api/v4/events: the events after a sequence, in order.',
    args: {
      after: t.arg.float({ required: false, description: 'the last sequence seen (default 0)' }),
      limit: t.arg.int({ required: false, description: 'default 100, at most 1000' }),
      ...filterArgs(t),
    },
    resolve: (_, args, { api }) =>
      api.events.list({
        after: args.after ?? 0,
        limit: args.limit ?? 100,
        ...filterOf(args),
      } as never),
  }),
}));

/**
 * The stream's events without its heartbeats. Ending the subscription ends the stream at once rather
 * than at the next event a generator would wait for; the stream itself stops by its next heartbeat.
 */
function eventsOnly(stream: AsyncIterable<unknown>): AsyncIterableIterator<EventDto> {
  const inner = stream[Symbol.asyncIterator]();
  return {
    async next() {
      for (;;) {
        const item = await inner.next();
        if (item.done) return { done: true, value: undefined };
        const value = streamItemOf(item.value);
        if ('event' in value) return { done: false, value: value.event };
      }
    },
    async return() {
      void inner.return?.(undefined);
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

builder.subscriptionType({
  description: 'Live reads over Server-Sent Events (POST or GET /graphql with Accept: text/event-stream).',
});

builder.subscriptionFields((t) => ({
  events: t.field({
    type: EventRef,
    description:
      'Each event of the log as it is committed, among those you may read; `after` resumes after a sequence.',
    args: {
      after: t.arg.float({ required: false, description: 'default: from now on' }),
      types: t.arg.stringList({ required: false, description: 'event types, or families as concept.*' }),
      dictionaryIds: t.arg.intList({ required: false }),
    },
    subscribe: async (_, args, { api }) =>
      eventsOnly(
        (await api.events.subscribe({
          ...(args.after === null || args.after === undefined ? {} : { after: args.after }),
          ...filterOf(args),
        } as never)) as AsyncIterable<unknown>,
      ),
    resolve: (event: EventDto) => event,
  }),
}));
