import { z } from 'zod';
import { IdInput } from '../../../shared/ids.js';
import { authedProcedure, router } from '../../../trpc/trpc.js';
import {
  WebhookCreateInputSchema,
  WebhookDeliveryDtoSchema,
  WebhookDeliveryListInputSchema,
  WebhookDeliveryPageSchema,
  WebhookDtoSchema,
  WebhookListInputSchema,
  WebhookPageSchema,
  WebhookRedeliverInputSchema,
  WebhookUpdateInputSchema,
  WebhookWithSecretDtoSchema,
} from './webhook.schema.js';
import * as webhooks from './webhook.service.js';

const tags = ['webhooks'];
const WHO =
  'Client administrators: all of the client; dictionary administrators: those naming only their dictionaries.';

/** Webhook subscriptions and their delivery log (docs/events.md, "Webhooks"). */
export const webhookRouter = router({
  list: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/webhooks',
        tags,
        summary: 'The webhook subscriptions the caller manages',
        description: `${WHO} Others get an empty page. The secret is never listed.`,
        errorResponses: [400, 401],
      },
    })
    .input(WebhookListInputSchema)
    .output(WebhookPageSchema)
    .query(({ ctx, input }) => webhooks.listWebhooks(ctx.scope, input)),

  get: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/webhooks/{id}',
        tags,
        summary: 'One webhook subscription, with its delivery state',
        description: `${WHO} Anyone else, and another client: 404.`,
        errorResponses: [401, 404],
      },
    })
    .input(IdInput)
    .output(WebhookDtoSchema)
    .query(({ ctx, input }) => webhooks.getWebhook(ctx.scope, input.id)),

  create: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/webhooks',
        tags,
        summary: 'Subscribe a URL to events; the answer holds the signing secret, shown this once',
        description:
          `${WHO} Events committed from now on are delivered, signed with the Standard Webhooks headers ` +
          '(webhook-id, webhook-timestamp, webhook-signature), only those the caller (the owner) may read. ' +
          'A URL whose host is a private, loopback or link-local address is refused unless the server allows it.',
        errorResponses: [400, 401, 403, 404],
      },
      successStatus: 201,
    })
    .input(WebhookCreateInputSchema)
    .output(WebhookWithSecretDtoSchema)
    .mutation(({ ctx, input }) => webhooks.createWebhook(ctx.scope, input)),

  update: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/webhooks/{id}',
        tags,
        summary: 'Change a webhook subscription (only the members given)',
        description:
          'active: true on a disabled subscription enables it again; delivery resumes where it stopped.',
        errorResponses: [400, 401, 403, 404],
      },
    })
    .input(WebhookUpdateInputSchema)
    .output(WebhookDtoSchema)
    .mutation(({ ctx, input }) => webhooks.updateWebhook(ctx.scope, input)),

  rotateSecret: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/webhooks/{id}/rotate-secret',
        tags,
        summary: 'A new signing secret, shown this once; the old one stops signing at once',
        description: 'Deliveries still being retried are signed with the new secret from their next attempt.',
        errorResponses: [401, 404],
      },
    })
    .input(IdInput)
    .output(WebhookWithSecretDtoSchema)
    .mutation(({ ctx, input }) => webhooks.rotateWebhookSecret(ctx.scope, input.id)),

  delete: authedProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/webhooks/{id}',
        tags,
        summary: 'Delete a webhook subscription and its delivery log',
        description: 'Nothing more is delivered to it, not even the events still waiting for it.',
        errorResponses: [401, 404],
      },
      successStatus: 204,
    })
    .input(IdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => webhooks.deleteWebhook(ctx.scope, input.id)),

  deliveries: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/webhooks/{id}/deliveries',
        tags,
        summary:
          'The delivery log of a subscription, newest first: each attempt with status, latency and error',
        description:
          'Attempts are kept 30 days; eventId (webhook-id) is the same on every attempt of one event.',
        errorResponses: [400, 401, 404],
      },
    })
    .input(WebhookDeliveryListInputSchema)
    .output(WebhookDeliveryPageSchema)
    .query(({ ctx, input }) => webhooks.listWebhookDeliveries(ctx.scope, input)),

  redeliver: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/webhooks/{id}/deliveries/{deliveryId}/redeliver',
        tags,
        summary: "Send a logged delivery's event again now; answers the new attempt",
        description:
          'Out of turn: the cursor does not move. The event goes only if the owner may still read it (else 404). ' +
          'The attempt is answered whether the receiver took it or not (see succeeded).',
        errorResponses: [401, 404],
      },
    })
    .input(WebhookRedeliverInputSchema)
    .output(WebhookDeliveryDtoSchema)
    .mutation(({ ctx, input }) => webhooks.redeliverWebhook(ctx.scope, input)),
});
