import { z } from 'zod';
import { authedProcedure, router } from '../../trpc/trpc.js';
import { GuestSettingsInputSchema, GuestSettingsSchema } from './guest.schema.js';
import * as guests from './guest.service.js';

const tags = ['users'];

export const guestRouter = router({
  get: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/users/guest',
        tags,
        summary: 'Guest settings of the client (administrators)',
      },
    })
    .input(z.void())
    .output(GuestSettingsSchema)
    .query(({ ctx }) => guests.getGuestSettings(ctx.scope)),

  update: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/users/guest',
        tags,
        summary: 'Change the guest settings of the client (administrators)',
        errorResponses: [400, 401, 403, 422],
      },
    })
    .input(GuestSettingsInputSchema)
    .output(GuestSettingsSchema)
    .mutation(({ ctx, input }) => guests.updateGuestSettings(ctx.scope, input)),
});
