import { z } from 'zod';
import { MAX_ID } from '../../../shared/ids.js';
import { pageSchema } from '../../../shared/paging.js';

const id = z.number().int().positive().max(MAX_ID);
export const WEBHOOK_URL_MAX = 2000;
const DESCRIPTION_MAX = 1000;

const url = z
  .string()
  .trim()
  .max(WEBHOOK_URL_MAX)
  .refine((value) => {
    try {
      const parsed = new URL(value);
      return (parsed.protocol === 'https:' || parsed.protocol === 'http:') && parsed.hostname !== '';
    } catch {
      return false;
    }
  }, 'url must be an absolute http or https URL')
  .describe(
    'where deliveries are POSTed (http or https; private addresses only where the server allows them)',
  );

/** An event type (concept.updated), a family of them (concept.*), or every type (*). */
const eventType = z
  .string()
  .regex(
    /^(\*|[a-z][a-z_]*(\.[a-z][a-z_]*)*(\.\*)?)$/,
    'an event type such as concept.updated, concept.* or *',
  )
  .max(64);

const eventTypes = z
  .array(eventType)
  .max(100)
  .transform((types) => [...new Set(types)])
  .describe('event types delivered (concept.updated, term.*); empty or ["*"]: every type');
const dictionaryIds = z
  .array(id)
  .max(500)
  .transform((ids) => [...new Set(ids)].sort((a, b) => a - b))
  .describe(
    "dictionaries whose events are delivered; empty: all the client's (client administrators only). Dictionary administrators name their own.",
  );
const description = z.string().trim().max(DESCRIPTION_MAX).nullable();

export const WebhookCreateInputSchema = z.object({
  url,
  eventTypes: eventTypes.default([]),
  dictionaryIds: dictionaryIds.default([]),
  active: z.boolean().default(true),
  description: description.optional(),
});
export type WebhookCreateInput = z.infer<typeof WebhookCreateInputSchema>;

export const WebhookUpdateInputSchema = z.object({
  id,
  url: url.optional(),
  eventTypes: eventTypes.optional(),
  dictionaryIds: dictionaryIds.optional(),
  active: z
    .boolean()
    .optional()
    .describe('true on a disabled subscription enables it again: delivery resumes where it stopped'),
  description: description.optional(),
});
export type WebhookUpdateInput = z.infer<typeof WebhookUpdateInputSchema>;

export const WebhookListInputSchema = z.object({
  size: z.number().int().min(1).optional().describe('page size (default 20, capped at MAX_PAGE_SIZE)'),
  page: z.number().int().min(0).default(0).describe('0-based page number'),
});
export type WebhookListInput = z.infer<typeof WebhookListInputSchema>;

export const WebhookDeliveryListInputSchema = WebhookListInputSchema.extend({ id });
export type WebhookDeliveryListInput = z.infer<typeof WebhookDeliveryListInputSchema>;

export const WebhookRedeliverInputSchema = z.object({
  id,
  deliveryId: z.number().int().positive().describe('a delivery of the log; its event is sent again, now'),
});
export type WebhookRedeliverInput = z.infer<typeof WebhookRedeliverInputSchema>;

export const WebhookDtoSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  eventTypes: z.array(z.string()),
  dictionaryIds: z.array(z.number().int()),
  active: z.boolean(),
  description: z.string().nullable(),
  ownerId: z.number().int().nullable().describe('whose permissions decide which events are delivered'),
  ownerName: z.string().nullable(),
  deliveredSequence: z
    .number()
    .int()
    .describe("the client's event sequence delivered up to (or skipped as not matching)"),
  failingSince: z.number().nullable().describe('ms epoch of the first failed attempt of the pending event'),
  attempts: z.number().int().describe('failed attempts of the pending event'),
  nextAttempt: z.number().nullable().describe('ms epoch of the next retry, while failing'),
  disabled: z.number().nullable().describe('ms epoch when it was disabled after failing for too long'),
  disabledReason: z.string().nullable(),
  created: z.number(),
  changed: z.number(),
});
export type WebhookDto = z.infer<typeof WebhookDtoSchema>;

export const WebhookWithSecretDtoSchema = WebhookDtoSchema.extend({
  secret: z
    .string()
    .describe('whsec_ + base64 key that signs deliveries (Standard Webhooks); shown only now, store it'),
});
export type WebhookWithSecretDto = z.infer<typeof WebhookWithSecretDtoSchema>;

export const WebhookPageSchema = pageSchema(WebhookDtoSchema);

export const WebhookDeliveryDtoSchema = z.object({
  id: z.number().int(),
  eventId: z.string().describe('the webhook-id header: the same on every attempt of one event'),
  sequence: z.number().int(),
  eventType: z.string(),
  attempt: z.number().int().describe('1 for the first try of the event; manual redeliveries count on'),
  manual: z.boolean(),
  succeeded: z.boolean(),
  statusCode: z.number().int().nullable(),
  latencyMs: z.number().int(),
  error: z.string().nullable(),
  created: z.number(),
});
export type WebhookDeliveryDto = z.infer<typeof WebhookDeliveryDtoSchema>;

export const WebhookDeliveryPageSchema = pageSchema(WebhookDeliveryDtoSchema);
