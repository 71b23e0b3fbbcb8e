import { tracked } from '@trpc/server';
import { authedProcedure, router } from '../../trpc/trpc.js';
import { EventFeedInputSchema, EventPageSchema, EventStreamInputSchema } from './event.schema.js';
import { eventPage, eventStream } from './event-feed.js';

const tags = ['events'];

/** The change feed (docs/events.md): a page after a sequence, and the live stream as a subscription. */
export const eventRouter = router({
  list: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/events',
        tags,
        summary: "The caller's client's events after a sequence, in order (the change feed)",
        description:
          'Pages the log without gaps: pass the nextAfter of a page as after to read the next one. Only ' +
          'events of dictionaries, sections and workflow states the caller may read are listed; nextAfter ' +
          'moves past the others. The same as a Server-Sent Events stream at GET /events/stream.',
        errorResponses: [400, 401, 403],
      },
    })
    .input(EventFeedInputSchema)
    .output(EventPageSchema)
    .query(({ ctx, input }) => eventPage(ctx.scope, input)),

  /**
   * Each event as it is committed (tRPC over SSE; the GraphQL subscription and GET /events/stream use it).
   * Every item is `tracked` with its sequence (a heartbeat's: how far the stream has read), so a
   * reconnecting httpSubscriptionLink sends it back as `lastEventId` and resumes right after it.
   */
  subscribe: authedProcedure.input(EventStreamInputSchema).subscription(async function* ({
    ctx,
    input,
    signal,
  }) {
    const { lastEventId, ...filters } = input;
    const after = lastEventId ? Number(lastEventId) : input.after;
    const stream = eventStream(ctx.scope, { ...filters, ...(after === undefined ? {} : { after }) }, signal);
    for await (const item of stream) {
      yield tracked(String('event' in item ? item.event.sequence : item.heartbeat), item);
    }
  }),
});
