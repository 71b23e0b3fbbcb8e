import { z } from 'zod';
import { PASSWORD_UNCHANGED } from '../user/user.schema.js';

export const MailSecurities = ['NONE', 'STARTTLS', 'TLS'] as const;

/** Blank text from a form means "not set". */
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullable()
    .optional()
    .transform((value) => (value ? value : null));

const optionalEmail = z
  .union([z.literal(''), z.email().max(320)])
  .nullable()
  .optional()
  .transform((value) => (value ? value : null));

export const MailServerSettingsSchema = z.object({
  useConfiguration: z
    .boolean()
    .describe('true: the configuration (SMTP_URL, MAIL_FROM) sends mail and the fields below wait unused'),
  host: z.string().nullable(),
  port: z.number().int().nullable(),
  security: z
    .enum(MailSecurities)
    .describe('NONE: plain; STARTTLS: upgraded on a plain port; TLS: from the start'),
  username: z.string().nullable(),
  password: z
    .string()
    .nullable()
    .describe(`${PASSWORD_UNCHANGED} when a password is set; never the password`),
  fromAddress: z.string().nullable(),
  fromName: z.string().nullable(),
  configuration: z
    .object({
      smtp: z.string().nullable().describe('SMTP_URL without its password; null when none is configured'),
      from: z.string().describe('MAIL_FROM'),
    })
    .describe('the defaults from the configuration'),
});
export type MailServerSettingsDto = z.infer<typeof MailServerSettingsSchema>;

export const MailServerSettingsInputSchema = z
  .object({
    useConfiguration: z.boolean(),
    host: optionalText(255).describe('the SMTP server; required unless useConfiguration'),
    port: z.number().int().min(1).max(65535).nullable().optional().describe('default 587, 465 with TLS'),
    security: z.enum(MailSecurities).default('STARTTLS'),
    username: optionalText(255).describe('for SMTP authentication; none: no authentication'),
    password: z
      .string()
      .max(1024)
      .nullable()
      .optional()
      .describe(`write-only; ${PASSWORD_UNCHANGED} or absent keeps it, null or empty removes it`),
    fromAddress: optionalEmail.describe('the sender address; required unless useConfiguration'),
    fromName: optionalText(255).describe("the sender's name when a client gives none"),
    configuration: z.unknown().optional().describe('read-only; ignored'),
  })
  .superRefine((input, context) => {
    if (input.useConfiguration) return;
    if (!input.host)
      context.addIssue({
        code: 'custom',
        path: ['host'],
        message: 'Give the SMTP server, or use the configuration',
      });
    if (!input.fromAddress)
      context.addIssue({ code: 'custom', path: ['fromAddress'], message: 'Give the sender address' });
  });
export type MailServerSettingsInput = z.infer<typeof MailServerSettingsInputSchema>;

export const ClientMailSettingsSchema = z.object({
  senderName: z.string().nullable().describe("the From name of the client's mail; null: the installation's"),
  replyTo: z.string().nullable().describe('where replies go; null: to the sender address'),
  signature: z.string().nullable().describe('plain text added below every mail of the client'),
  sender: z
    .string()
    .describe('the From header the client\'s mail carries now, e.g. "Team" <no-reply@example.org>'),
  mailEnabled: z
    .boolean()
    .describe('an SMTP server is set (configuration or settings); false: no mail is sent'),
});
export type ClientMailSettingsDto = z.infer<typeof ClientMailSettingsSchema>;

export const ClientMailSettingsInputSchema = z.object({
  senderName: optionalText(255),
  replyTo: optionalEmail,
  signature: optionalText(2000),
  sender: z.unknown().optional().describe('read-only; ignored'),
  mailEnabled: z.unknown().optional().describe('read-only; ignored'),
});
export type ClientMailSettingsInput = z.infer<typeof ClientMailSettingsInputSchema>;

export const TestMailInputSchema = z.object({
  to: z
    .union([z.literal(''), z.email().max(320)])
    .optional()
    .describe("where the test message goes; default the caller's own e-mail address"),
});
export type TestMailInput = z.infer<typeof TestMailInputSchema>;

export const TestMailResultSchema = z.object({
  to: z.string(),
  from: z.string().describe('the From header sent'),
  server: z.string().describe('the SMTP server it was handed to (host:port)'),
});
export type TestMailResult = z.infer<typeof TestMailResultSchema>;
