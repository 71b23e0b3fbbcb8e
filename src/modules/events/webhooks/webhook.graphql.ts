/**
 * Webhook subscriptions over GraphQL: the procedures of /api/v4/webhooks (same checks and limits).
 * Rows carry everything they show, so nothing loads per item.
 */
import { builder, defined, type GraphQLTypes } from '../../../graphql/builder.js';
import { pageRef } from '../../../graphql/common.graphql.js';
import { pageCost } from '../../../graphql/cost.js';
import type { WebhookDeliveryDto, WebhookDto, WebhookWithSecretDto } from './webhook.schema.js';

type Fields<T> = PothosSchemaTypes.ObjectFieldBuilder<PothosSchemaTypes.ExtendDefaultTypes<GraphQLTypes>, T>;

const webhookFields = <T extends WebhookDto>(t: Fields<T>) => ({
  id: t.int({ resolve: (w) => w.id }),
  url: t.string({ resolve: (w) => w.url }),
  eventTypes: t.stringList({
    description: 'patterns as given: concept.updated, term.*, *',
    resolve: (w) => w.eventTypes,
  }),
  dictionaryIds: t.intList({ description: 'empty: every dictionary', resolve: (w) => w.dictionaryIds }),
  active: t.boolean({ resolve: (w) => w.active }),
  description: t.string({ nullable: true, resolve: (w) => w.description }),
  ownerId: t.int({ nullable: true, resolve: (w) => w.ownerId }),
  ownerName: t.string({ nullable: true, resolve: (w) => w.ownerName }),
  deliveredSequence: t.float({ resolve: (w) => w.deliveredSequence }),
  failingSince: t.float({ nullable: true, description: 'ms epoch', resolve: (w) => w.failingSince }),
  attempts: t.int({ resolve: (w) => w.attempts }),
  nextAttempt: t.float({ nullable: true, description: 'ms epoch', resolve: (w) => w.nextAttempt }),
  disabled: t.float({ nullable: true, description: 'ms epoch', resolve: (w) => w.disabled }),
  disabledReason: t.string({ nullable: true, resolve: (w) => w.disabledReason }),
  created: t.float({ description: 'ms epoch', resolve: (w) => w.created }),
  changed: t.float({ description: 'ms epoch', resolve: (w) => w.changed }),
});

const WebhookRef = builder.objectRef<WebhookDto>('Webhook').implement({
  description: 'A URL subscribed to events (docs/events.md, "Webhooks"); never its secret.',
  fields: (t) => webhookFields(t),
});

const WebhookWithSecretRef = builder.objectRef<WebhookWithSecretDto>('WebhookWithSecret').implement({
  description: 'A subscription just created or rotated, with its signing secret, shown this once.',
  fields: (t) => ({
    ...webhookFields(t),
    secret: t.exposeString('secret'),
  }),
});

const DeliveryRef = builder.objectRef<WebhookDeliveryDto>('WebhookDelivery').implement({
  fields: (t) => ({
    id: t.exposeInt('id'),
    eventId: t.exposeString('eventId'),
    sequence: t.float({ resolve: (d) => d.sequence }),
    eventType: t.exposeString('eventType'),
    attempt: t.exposeInt('attempt'),
    manual: t.exposeBoolean('manual'),
    succeeded: t.exposeBoolean('succeeded'),
    statusCode: t.exposeInt('statusCode', { nullable: true }),
    latencyMs: t.exposeInt('latencyMs'),
    error: t.exposeString('error', { nullable: true }),
    created: t.float({ description: 'ms epoch', resolve: (d) => d.created }),
  }),
});

const WebhookPageRef = pageRef('WebhookPage', WebhookRef);
const DeliveryPageRef = pageRef('WebhookDeliveryPage', DeliveryRef);

builder.queryFields((t) => ({
  webhooks: t.field({
    type: WebhookPageRef,
    complexity: pageCost,
    description: 'As GET /api/v4/webhooks.',
    args: { page: t.arg.int({ required: false }), size: t.arg.int({ required: false }) },
    resolve: (_, args, { api }) =>
      api.webhooks.list(defined({ page: args.page ?? 0, size: args.size ?? undefined })),
  }),
  webhook: t.field({
    type: WebhookRef,
    description: 'As GET /api/v4/webhooks/{id}.',
    args: { id: t.arg.int({ required: true }) },
    resolve: (_, { id }, { api }) => api.webhooks.get({ id }),
  }),
  webhookDeliveries: t.field({
    type: DeliveryPageRef,
    complexity: pageCost,
    description: 'As GET /api/v4/webhooks/{id}/deliveries.',
    args: {
      id: t.arg.int({ required: true }),
      page: t.arg.int({ required: false }),
      size: t.arg.int({ required: false }),
    },
    resolve: (_, args, { api }) =>
      api.webhooks.deliveries(defined({ id: args.id, page: args.page ?? 0, size: args.size ?? undefined })),
  }),
}));

builder.mutationFields((t) => ({
  createWebhook: t.field({
    type: WebhookWithSecretRef,
    description: 'As POST /api/v4/webhooks: the secret is answered this once.',
    args: {
      url: t.arg.string({ required: true }),
      eventTypes: t.arg.stringList({ required: false }),
      dictionaryIds: t.arg.intList({ required: false }),
      active: t.arg.boolean({ required: false }),
      description: t.arg.string({ required: false }),
    },
    resolve: (_, args, { api }) =>
      api.webhooks.create(
        defined({
          url: args.url,
          eventTypes: args.eventTypes ?? [],
          dictionaryIds: args.dictionaryIds ?? [],
          active: args.active ?? true,
          description: args.description ?? undefined,
        }),
      ),
  }),
  updateWebhook: t.field({
    type: WebhookRef,
    description: 'As PUT /api/v4/webhooks/{id}: only the arguments given change.',
    args: {
      id: t.arg.int({ required: true }),
      url: t.arg.string({ required: false }),
      eventTypes: t.arg.stringList({ required: false }),
      dictionaryIds: t.arg.intList({ required: false }),
      active: t.arg.boolean({ required: false }),
      description: t.arg.string({ required: false }),
    },
    resolve: (_, args, { api }) =>
      api.webhooks.update(
        defined({
          id: args.id,
          url: args.url ?? undefined,
          eventTypes: args.eventTypes ?? undefined,
          dictionaryIds: args.dictionaryIds ?? undefined,
          active: args.active ?? undefined,
          description: args.description === undefined ? undefined : args.description,
        }),
      ),
  }),
  rotateWebhookSecret: t.field({
    type: WebhookWithSecretRef,
    args: { id: t.arg.int({ required: true }) },
    resolve: (_, { id }, { api }) => api.webhooks.rotateSecret({ id }),
  }),
  deleteWebhook: t.boolean({
    args: { id: t.arg.int({ required: true }) },
    resolve: async (_, { id }, { api }) => {
      await api.webhooks.delete({ id });
      return true;
    },
  }),
  redeliverWebhook: t.field({
    type: DeliveryRef,
    description: 'As POST /api/v4/webhooks/{id}/deliveries/{deliveryId}/redeliver.',
    args: { id: t.arg.int({ required: true }), deliveryId: t.arg.int({ required: true }) },
    resolve: (_, args, { api }) => api.webhooks.redeliver({ id: args.id, deliveryId: args.deliveryId }),
  }),
}));
