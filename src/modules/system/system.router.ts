import { z } from 'zod';
import { publicProcedure, router } from '../../trpc/trpc.js';
import { FeaturesSchema } from './features.schema.js';
import { systemFeatures } from './features.service.js';

const tags = ['system'];

export const systemRouter = router({
  features: publicProcedure
    .meta({
      openapi: { method: 'GET', path: '/system/features', tags, protect: false, summary: 'System features' },
    })
    .input(z.void())
    .output(FeaturesSchema)
    .query(({ ctx }) => systemFeatures(ctx.em, ctx.config, undefined, ctx.req.ip ?? null)),

  clientFeatures: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/system/features/client/{clientLogin}',
        tags,
        protect: false,
        summary: 'System features as seen by one client (404 when it does not exist)',
      },
    })
    .input(z.object({ clientLogin: z.string().min(1).max(64) }))
    .output(FeaturesSchema)
    .query(({ ctx, input }) => systemFeatures(ctx.em, ctx.config, input.clientLogin, ctx.req.ip ?? null)),
});
