import { z } from 'zod';
import { authedProcedure, router } from '../../trpc/trpc.js';
import { PasswordChangeInputSchema, ProfileSchema, ProfileUpdateInputSchema } from './profile.schema.js';
import * as profiles from './profile.service.js';

const tags = ['user interface'];

export const profileRouter = router({
  get: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/profile',
        tags,
        summary: "The caller's own account (guests: 403)",
        errorResponses: [401, 403],
      },
    })
    .input(z.void())
    .output(ProfileSchema)
    .query(({ ctx }) => profiles.getProfile(ctx.scope)),

  update: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/profile',
        tags,
        summary: 'Change own username, full name, e-mail, title, interface language, forcePasswordChange',
        description:
          'Send the Profile read with its user.version: a missing or stale version answers 409, a username ' +
          'another user of the client has 422. Guests: 403.',
        errorResponses: [400, 401, 403, 409, 422],
      },
    })
    .input(ProfileUpdateInputSchema)
    .output(ProfileSchema)
    .mutation(({ ctx, input }) => profiles.updateProfile(ctx.scope, input)),

  changePassword: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/profile/password',
        tags,
        summary: 'Change own password: currentPassword, password, confirmPassword',
        description:
          'A wrong currentPassword, a password differing from confirmPassword or one that does not satisfy ' +
          'the password settings answers 400. Clears forcePasswordChange. Guests: 403.',
        errorResponses: [400, 401, 403],
      },
    })
    .input(PasswordChangeInputSchema)
    .output(ProfileSchema)
    .mutation(({ ctx, input }) => profiles.changeOwnPassword(ctx.scope, input)),
});
