import { isTrackedEnvelope } from '@trpc/server';
import { z } from 'zod';
import { EventTypes } from './event-types.js';

/** Largest page of the feed. */
export const MAX_EVENT_PAGE = 1000;

/** An event as every channel delivers it (docs/events.md, "The event"). */
export const EventDtoSchema = z.object({
  sequence: z.number().int().describe("the client's event number: gap-free, in commit order"),
  type: z.enum(EventTypes),
  clientId: z.number().int(),
  dictionaryId: z.number().int().nullable(),
  sectionId: z.number().int().nullable(),
  conceptId: z.number().int().nullable(),
  termId: z.number().int().nullable(),
  actorId: z.number().int().nullable().describe('the user who made the change (null: the system)'),
  occurredAt: z.string().describe('when the change was made (ISO 8601)'),
  data: z
    .record(z.string(), z.unknown())
    .describe('ids and the names of what changed; never values (read them through the API)'),
});
export type EventDto = z.infer<typeof EventDtoSchema>;

const commaList = z
  .string()
  .max(4000)
  .transform((value) =>
    value
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean),
  );

/** The filters every channel takes: types (`concept.*` for a family) and dictionaries. */
export const EventFilterInputSchema = z.object({
  type: commaList
    .optional()
    .describe('comma-separated event types; `concept.*` names a family (default: every type)'),
  'dictionary-id': z
    .string()
    .max(4000)
    .transform((value) =>
      value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean)
        .map(Number),
    )
    .pipe(z.array(z.number().int().positive()))
    .optional()
    .describe('comma-separated dictionary ids (default: every dictionary the caller reads)'),
});

export const EventFeedInputSchema = EventFilterInputSchema.extend({
  after: z.coerce
    .number()
    .int()
    .min(0)
    .default(0)
    .describe('the last sequence the caller has seen: the page starts after it (0: from the start)'),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_EVENT_PAGE)
    .default(100)
    .describe(`events per page (default 100, at most ${MAX_EVENT_PAGE})`),
});
export type EventFeedInput = z.infer<typeof EventFeedInputSchema>;

export const EventPageSchema = z.object({
  content: z.array(EventDtoSchema),
  numberOfElements: z.number().int(),
  size: z.number().int().describe('the limit asked for'),
  last: z.boolean().describe('true when no later event was committed at the time of the call'),
  nextAfter: z
    .number()
    .int()
    .describe('pass as `after` for the next page (past events the caller may not read or did not ask for)'),
});
export type EventPage = z.infer<typeof EventPageSchema>;

export const EventStreamInputSchema = EventFilterInputSchema.extend({
  after: z.coerce
    .number()
    .int()
    .min(0)
    .optional()
    .describe('resume after this sequence; default: only events committed from now on'),
  /** Sent by a reconnecting tRPC httpSubscriptionLink: the id of the last item it received; wins over `after`. */
  lastEventId: z
    .string()
    .regex(/^\d+$/, 'lastEventId must be a sequence number')
    .nullish()
    .describe('the last id received (tRPC reconnects send it); resumes after it'),
});
export type EventStreamInput = z.infer<typeof EventStreamInputSchema>;

/** What the stream yields: an event, or a heartbeat naming how far the stream has read. */
export type StreamItem = { event: EventDto } | { heartbeat: number };

/** A stream item as a caller of the procedure gets it: tracked (tRPC's [id, item] envelope) or plain. */
export const streamItemOf = (value: unknown): StreamItem =>
  (isTrackedEnvelope(value) ? value[1] : value) as StreamItem;
