import { z } from 'zod';
import { authedProcedure, router } from '../../trpc/trpc.js';
import {
  ClientMailSettingsInputSchema,
  ClientMailSettingsSchema,
  MailServerSettingsInputSchema,
  MailServerSettingsSchema,
  TestMailInputSchema,
  TestMailResultSchema,
} from './mail-settings.schema.js';
import * as mail from './mail-settings.service.js';

const tags = ['mail'];

export const mailSettingsRouter = router({
  get: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/mail-settings',
        tags,
        summary: "The client's mail settings: sender name, reply-to, signature (administrators)",
        description:
          "What the client's mail (password-reset links, workflow notifications) carries, and `sender`, the From header it goes out with now.",
        errorResponses: [401, 403],
      },
    })
    .input(z.void())
    .output(ClientMailSettingsSchema)
    .query(({ ctx }) => mail.getClientSettings(ctx.scope)),

  update: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/mail-settings',
        tags,
        summary: "Change the client's mail settings (administrators)",
        description:
          'Empty or null values fall back to the installation: its sender name, no reply-to, no signature.',
        errorResponses: [400, 401, 403],
      },
    })
    .input(ClientMailSettingsInputSchema)
    .output(ClientMailSettingsSchema)
    .mutation(({ ctx, input }) => mail.updateClientSettings(ctx.scope, input)),

  server: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/mail-settings/server',
        tags,
        summary: "The installation's SMTP server (system administrators); the password is never answered",
        description:
          'useConfiguration true: SMTP_URL and MAIL_FROM send (shown in `configuration` without the password). password is ****** when one is stored.',
        errorResponses: [401, 403],
      },
    })
    .input(z.void())
    .output(MailServerSettingsSchema)
    .query(({ ctx }) => mail.getServerSettings(ctx.scope)),

  updateServer: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/mail-settings/server',
        tags,
        summary: "Change the installation's SMTP server (system administrators)",
        description: 'password is write-only: ****** or absent keeps the stored one.',
        errorResponses: [400, 401, 403],
      },
    })
    .input(MailServerSettingsInputSchema)
    .output(MailServerSettingsSchema)
    .mutation(({ ctx, input }) => mail.updateServerSettings(ctx.scope, input)),

  sendTest: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/mail-settings/test',
        tags,
        summary: "Send a test message with the client's mail settings (administrators)",
        description:
          "To `to`, else to the caller's own address; 422 with the mail server's reason when it is refused.",
        errorResponses: [400, 401, 403, 422],
      },
    })
    .input(TestMailInputSchema)
    .output(TestMailResultSchema)
    .mutation(({ ctx, input }) => mail.sendTestMail(ctx.scope, input)),
});
