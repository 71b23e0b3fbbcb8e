import { z } from 'zod';
import { crudProcedures } from '../../trpc/crud-procedures.js';
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

const tags = ['domains'];

export const domainRouter = router({
  ...crudProcedures({
    path: '/domains',
    noun: 'domain',
    tags,
    schemas: {
      list: DomainListInputSchema,
      page: DomainPageSchema,
      output: DomainOutputSchema,
      create: DomainCreateInputSchema,
      update: DomainUpdateInputSchema,
      patch: DomainPatchInputSchema,
    },
    service: {
      list: domains.listDomains,
      rownum: domains.domainRownum,
      get: domains.getDomain,
      create: domains.createDomain,
      update: domains.updateDomain,
      remove: domains.deleteDomain,
      removeAsync: domains.deleteDomainsAsync,
    },
    summaries: { list: 'Find the domains of a dictionary', delete: 'Delete a domain without subdomains' },
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
