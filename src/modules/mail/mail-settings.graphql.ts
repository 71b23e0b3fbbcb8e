/** Mail settings over GraphQL: the same procedures as /api/v4/mail-settings (docs/ui.md, "Mail settings"). */
import { builder } from '../../graphql/builder.js';
import type {
  ClientMailSettingsDto,
  ClientMailSettingsInput,
  MailServerSettingsDto,
  MailServerSettingsInput,
  TestMailResult,
} from './mail-settings.schema.js';

type Configuration = MailServerSettingsDto['configuration'];

const MailConfigurationRef = builder.objectRef<Configuration>('MailConfiguration').implement({
  description: 'The defaults from the configuration (SMTP_URL without its password, MAIL_FROM).',
  fields: (t) => ({
    smtp: t.exposeString('smtp', { nullable: true }),
    from: t.exposeString('from'),
  }),
});

const MailServerSettingsRef = builder.objectRef<MailServerSettingsDto>('MailServerSettings').implement({
  description: "The installation's SMTP server; password is ****** when one is set, never the password.",
  fields: (t) => ({
    useConfiguration: t.exposeBoolean('useConfiguration'),
    host: t.exposeString('host', { nullable: true }),
    port: t.exposeInt('port', { nullable: true }),
    security: t.exposeString('security', { description: 'NONE, STARTTLS or TLS' }),
    username: t.exposeString('username', { nullable: true }),
    password: t.exposeString('password', { nullable: true }),
    fromAddress: t.exposeString('fromAddress', { nullable: true }),
    fromName: t.exposeString('fromName', { nullable: true }),
    configuration: t.field({ type: MailConfigurationRef, resolve: (settings) => settings.configuration }),
  }),
});

const ClientMailSettingsRef = builder.objectRef<ClientMailSettingsDto>('ClientMailSettings').implement({
  description: "The client's sender name, reply-to address and signature.",
  fields: (t) => ({
    senderName: t.exposeString('senderName', { nullable: true }),
    replyTo: t.exposeString('replyTo', { nullable: true }),
    signature: t.exposeString('signature', { nullable: true }),
    sender: t.exposeString('sender'),
    mailEnabled: t.exposeBoolean('mailEnabled'),
  }),
});

const TestMailResultRef = builder.objectRef<TestMailResult>('TestMailResult').implement({
  fields: (t) => ({
    to: t.exposeString('to'),
    from: t.exposeString('from'),
    server: t.exposeString('server'),
  }),
});

const MailServerSettingsInputRef = builder.inputType('MailServerSettingsInput', {
  fields: (t) => ({
    useConfiguration: t.boolean({ required: true }),
    host: t.string({ required: false }),
    port: t.int({ required: false }),
    security: t.string({ required: false, description: 'NONE, STARTTLS (default) or TLS' }),
    username: t.string({ required: false }),
    password: t.string({ required: false, description: 'write-only; ****** or absent keeps it' }),
    fromAddress: t.string({ required: false }),
    fromName: t.string({ required: false }),
  }),
});

const ClientMailSettingsInputRef = builder.inputType('ClientMailSettingsInput', {
  fields: (t) => ({
    senderName: t.string({ required: false }),
    replyTo: t.string({ required: false }),
    signature: t.string({ required: false }),
  }),
});

builder.queryFields((t) => ({
  mailSettings: t.field({
    type: ClientMailSettingsRef,
    description: 'As GET /api/v4/mail-settings.',
    resolve: (_, __, context) => context.api.mailSettings.get(),
  }),
  mailServerSettings: t.field({
    type: MailServerSettingsRef,
    description: 'As GET /api/v4/mail-settings/server.',
    resolve: (_, __, context) => context.api.mailSettings.server(),
  }),
}));

builder.mutationFields((t) => ({
  setMailSettings: t.field({
    type: ClientMailSettingsRef,
    description: 'As PUT /api/v4/mail-settings.',
    args: { input: t.arg({ type: ClientMailSettingsInputRef, required: true }) },
    resolve: (_, args, context) => context.api.mailSettings.update(args.input as ClientMailSettingsInput),
  }),
  setMailServerSettings: t.field({
    type: MailServerSettingsRef,
    description: 'As PUT /api/v4/mail-settings/server.',
    args: { input: t.arg({ type: MailServerSettingsInputRef, required: true }) },
    resolve: (_, args, context) =>
      context.api.mailSettings.updateServer({
        ...args.input,
        security: args.input.security ?? undefined,
      } as MailServerSettingsInput),
  }),
  sendTestMail: t.field({
    type: TestMailResultRef,
    description: 'As POST /api/v4/mail-settings/test.',
    args: { to: t.arg.string({ required: false }) },
    resolve: (_, args, context) => context.api.mailSettings.sendTest({ to: args.to ?? undefined }),
  }),
}));
