import { z } from 'zod';
import { InvocationResultSchema } from '../../shared/common.schema.js';
import { FormatSchema } from '../../shared/format.js';
import { IdInput, IdListInput } from '../../shared/ids.js';
import { queryBoolean } from '../../shared/query.js';
import { authedProcedure, router, sysadminProcedure } from '../../trpc/trpc.js';
import {
  ClientCreateInputSchema,
  ClientListInputSchema,
  ClientOutputSchema,
  ClientPageSchema,
  ClientPatchInputSchema,
  ClientUpdateInputSchema,
} from './client.schema.js';
import * as clients from './client.service.js';

const tags = ['clients'];
const writeErrors = [400, 401, 403, 404, 409, 422];

export const clientRouter = router({
  list: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/clients', tags, summary: 'Find clients' } })
    .input(ClientListInputSchema)
    .output(ClientPageSchema)
    .query(({ ctx, input }) => clients.listClients(ctx.scope, input)),

  rownum: authedProcedure
    .meta({
      openapi: { method: 'GET', path: '/clients/rownum/{id}', tags, summary: 'Row position of a client' },
    })
    .input(ClientListInputSchema.extend(IdInput.shape))
    .output(z.number().int())
    .query(({ ctx, input }) => clients.clientRownum(ctx.scope, input.id, input)),

  get: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/clients/{id}', tags, summary: 'Get a client' } })
    .input(IdInput.extend({ format: FormatSchema, 'include-deleted': queryBoolean().default(false) }))
    .output(ClientOutputSchema)
    .query(({ ctx, input }) =>
      clients.getClient(ctx.scope, input.id, input.format, input['include-deleted']),
    ),

  create: sysadminProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/clients',
        tags,
        summary: 'Create a client with its administrator',
        errorResponses: [400, 401, 403, 422],
      },
      successStatus: 201,
    })
    .input(ClientCreateInputSchema)
    .output(ClientOutputSchema)
    .mutation(({ ctx, input }) => clients.createClient(ctx.scope, input)),

  update: sysadminProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/clients/{id}',
        tags,
        summary: 'Update a client (missing limits are erased)',
        errorResponses: writeErrors,
      },
    })
    .input(ClientUpdateInputSchema)
    .output(ClientOutputSchema)
    .mutation(({ ctx, input }) => clients.updateClient(ctx.scope, input, false)),

  patch: sysadminProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/clients/partial/{id}',
        tags,
        summary: 'Change some attributes of a client',
        errorResponses: writeErrors,
      },
    })
    .input(ClientPatchInputSchema)
    .output(ClientOutputSchema)
    .mutation(({ ctx, input }) => clients.updateClient(ctx.scope, input, true)),

  delete: sysadminProcedure
    .meta({
      openapi: { method: 'DELETE', path: '/clients/{id}', tags, summary: 'Delete a client' },
      successStatus: 204,
    })
    .input(IdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => clients.deleteClient(ctx.scope, input.id)),

  deleteAsync: sysadminProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/clients/async/{ids}',
        tags,
        summary: 'Delete several clients',
        description:
          'Answers 200 with the result map when done within the async threshold, otherwise 202 with jobTaskId.',
      },
    })
    .input(IdListInput)
    .output(InvocationResultSchema)
    .mutation(async ({ ctx, input }) => {
      const outcome = await clients.deleteClientsAsync(ctx.scope, input.ids);
      if (!outcome.finished) ctx.response.status = 202;
      return outcome.body;
    }),

  generateNewApiKey: sysadminProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/clients/generate-new-api-key/{clientId}',
        tags,
        summary: 'Replace the API key',
      },
    })
    .input(z.object({ clientId: z.number().int(), format: FormatSchema }))
    .output(ClientOutputSchema)
    .mutation(({ ctx, input }) => clients.regenerateApiKey(ctx.scope, input.clientId, input.format)),
});
