import { z } from 'zod';
import { authedProcedure, router } from '../../trpc/trpc.js';
import { ApplyLicenseInputSchema, LicenseSchema } from './license.schema.js';
import { applyLicense, getLicense } from './license.service.js';

const tags = ['system'];

export const licenseRouter = router({
  get: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/system/license',
        tags,
        summary: 'The licence in force (null when none)',
      },
    })
    .input(z.void())
    .output(LicenseSchema.nullable())
    .query(({ ctx }) => getLicense(ctx.scope)),

  applyText: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/system/license',
        tags,
        summary: 'Apply a licence text (system administrators)',
        description: 'Answers the License object; an invalid, wrongly signed or expired licence answers 400.',
        errorResponses: [400, 401, 403],
      },
    })
    .input(ApplyLicenseInputSchema)
    .output(LicenseSchema)
    .mutation(({ ctx, input }) => applyLicense(ctx.scope, input.text)),
});
