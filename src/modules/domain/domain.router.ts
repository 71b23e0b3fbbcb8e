import { z } from 'zod';
import { InvocationResultSchema } from '../../shared/common.schema.js';
import { FormatSchema } from '../../shared/format.js';
import { IdInput, IdListInput } from '../../shared/ids.js';
import { queryBoolean } from '../../shared/query.js';
import { authedProcedure, router } from '../../trpc/trpc.js';
import {
  DomainConfigSchema,
  DomainCreateInputSchema,
  DomainListInputSchema,
  DomainOutputSchema,
  DomainPageSchema,
  DomainPatchInputSchema,
  DomainUpdateInputSchema,
} from './domain.schema.js';
import * as domains from './domain.service.js';

const tags = ['sections, fields, domains'];
const writeErrors = [400, 401, 403, 404, 409, 422];
const asyncNote =
  'Answers 200 with the result map when done within the async threshold, otherwise 202 with jobTaskId (see /jobs/{id}).';

export const domainRouter = router({
  list: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/domains', tags, summary: 'Find the domains of a dictionary' } })
    .input(DomainListInputSchema)
    .output(DomainPageSchema)
    .query(({ ctx, input }) => domains.listDomains(ctx.scope, input)),

  rownum: authedProcedure
    .meta({
      openapi: { method: 'GET', path: '/domains/rownum/{id}', tags, summary: 'Row position of a domain' },
    })
    .input(DomainListInputSchema.extend(IdInput.shape))
    .output(z.number().int())
    .query(({ ctx, input }) => domains.domainRownum(ctx.scope, input.id, input)),

  get: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/domains/{id}', tags, summary: 'Get a domain' } })
    .input(IdInput.extend({ format: FormatSchema, 'include-deleted': queryBoolean().default(false) }))
    .output(DomainOutputSchema)
    .query(({ ctx, input }) =>
      domains.getDomain(ctx.scope, input.id, input.format, input['include-deleted']),
    ),

  create: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/domains',
        tags,
        summary: 'Create a domain',
        errorResponses: [400, 401, 403, 404],
      },
      successStatus: 201,
    })
    .input(DomainCreateInputSchema)
    .output(DomainOutputSchema)
    .mutation(({ ctx, input }) => domains.createDomain(ctx.scope, input)),

  update: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/domains/{id}',
        tags,
        summary: 'Update a domain',
        errorResponses: writeErrors,
      },
    })
    .input(DomainUpdateInputSchema)
    .output(DomainOutputSchema)
    .mutation(({ ctx, input }) => domains.updateDomain(ctx.scope, input, false)),

  patch: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/domains/partial/{id}',
        tags,
        summary: 'Change some attributes of a domain',
        errorResponses: writeErrors,
      },
    })
    .input(DomainPatchInputSchema)
    .output(DomainOutputSchema)
    .mutation(({ ctx, input }) => domains.updateDomain(ctx.scope, input, true)),

  delete: authedProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/domains/{id}',
        tags,
        summary: 'Delete a domain without subdomains',
      },
      successStatus: 204,
    })
    .input(IdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => domains.deleteDomain(ctx.scope, input.id)),

  deleteAsync: authedProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/domains/async/{ids}',
        tags,
        summary: 'Delete several domains',
        description: asyncNote,
      },
    })
    .input(IdListInput)
    .output(InvocationResultSchema)
    .mutation(async ({ ctx, input }) => {
      const outcome = await domains.deleteDomainsAsync(ctx.scope, input.ids);
      if (!outcome.finished) ctx.response.status = 202;
      return outcome.body;
    }),

  getConfig: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/domains/{dictionaryId}/config',
        tags,
        summary: 'How domains are presented',
      },
    })
    .input(z.object({ dictionaryId: z.number().int() }))
    .output(DomainConfigSchema)
    .query(({ ctx, input }) => domains.domainConfig(ctx.scope, input.dictionaryId)),

  setConfig: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/domains/{dictionaryId}/config',
        tags,
        summary: 'Set how domains are presented',
        errorResponses: [400, 401, 403, 404],
      },
    })
    .input(DomainConfigSchema.extend({ dictionaryId: z.number().int() }))
    .output(DomainConfigSchema)
    .mutation(({ ctx, input }) => domains.setDomainConfig(ctx.scope, input.dictionaryId, input.presentation)),
});
