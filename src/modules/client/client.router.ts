import { z } from 'zod';
import { FormatSchema } from '../../shared/format.js';
import { crudProcedures } from '../../trpc/crud-procedures.js';
import { router, sysadminProcedure } from '../../trpc/trpc.js';
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

export const clientRouter = router({
  ...crudProcedures({
    path: '/clients',
    noun: 'client',
    tags,
    writeProcedure: sysadminProcedure,
    schemas: {
      list: ClientListInputSchema,
      page: ClientPageSchema,
      output: ClientOutputSchema,
      create: ClientCreateInputSchema,
      update: ClientUpdateInputSchema,
      patch: ClientPatchInputSchema,
    },
    service: {
      list: clients.listClients,
      rownum: clients.clientRownum,
      get: clients.getClient,
      create: clients.createClient,
      update: clients.updateClient,
      remove: clients.deleteClient,
      removeAsync: clients.deleteClientsAsync,
    },
    summaries: {
      create: 'Create a client with its administrator',
      update: 'Update a client (missing limits are erased)',
    },
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
