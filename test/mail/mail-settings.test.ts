/**
 * Mail settings (docs/ui.md, "Mail settings") against real SMTP servers on loopback: the configuration
 * by default, the installation's own SMTP server with authentication, each client's sender name,
 * reply-to and signature on its mail, the test message, and the SMTP password never answered or logged.
 * Installation-wide settings: a database of its own, so suites beside this one keep the configuration.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { type MikroORM, openOrm } from '../../src/db/orm.js';
import { closeMailTransports } from '../../src/modules/mail/mailer.js';
import { createTenant, createUser, type TestTenant, uniqueSuffix } from '../factories/tenant.js';
import { TEST_ADMIN_PASSWORD } from '../helpers/constants.js';
import { isolatedDatabase } from '../helpers/isolated-database.js';
import { MailCatcher } from '../helpers/mail-catcher.js';
import { loginRest, loginSysadmin, RestClient } from '../helpers/rest.js';

const SECRET = `smtp-secret-${uniqueSuffix()}`;
const logLines: string[] = [];
const answers: string[] = [];

let database: Awaited<ReturnType<typeof isolatedDatabase>>;
let orm: MikroORM;
let app: Awaited<ReturnType<typeof buildApp>>;
/** The configuration's server (SMTP_URL), taking mail without authentication. */
let configured: MailCatcher;
/** The server of the saved settings, taking mail only with the right username and password. */
let own: MailCatcher;
let ownPort: number;
let sysadmin: RestClient;
let tenant: TestTenant;
let admin: RestClient;

/** A REST call whose answer is kept, to look for the secret in all of them at the end. */
async function rest<T>(client: RestClient, method: 'GET' | 'PUT' | 'POST', path: string, json?: unknown) {
  const response = await client.call<T>(method, path, json === undefined ? {} : { json });
  answers.push(response.text);
  return response;
}

beforeAll(async () => {
  database = await isolatedDatabase();
  configured = new MailCatcher();
  own = new MailCatcher({ username: 'mailer', password: SECRET });
  const [configuredPort, port] = await Promise.all([configured.start(), own.start()]);
  ownPort = port;
  const config = loadConfig({
    DATABASE_URL: database.url,
    ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    MULTI_TENANT: 'true',
    LOG_LEVEL: 'debug',
    SMTP_URL: `smtp://127.0.0.1:${configuredPort}`,
    MAIL_FROM: 'Polyterm <config@example.org>',
  });
  orm = await openOrm(database.url);
  app = await buildApp({ config, orm, logStream: { write: (line) => logLines.push(line) } });
  await app.ready();
  sysadmin = await loginSysadmin(app);
  tenant = await createTenant(sysadmin);
  admin = await loginRest(app, 'admin', tenant.adminPassword, tenant.loginName);
}, 120_000);

afterAll(async () => {
  closeMailTransports();
  await app?.close();
  await orm?.close(true);
  await Promise.all([configured?.close(), own?.close()]);
  await database?.drop();
});

interface ServerSettings {
  useConfiguration: boolean;
  host: string | null;
  password: string | null;
  configuration: { smtp: string | null; from: string };
}
interface ClientSettings {
  senderName: string | null;
  replyTo: string | null;
  signature: string | null;
  sender: string;
  mailEnabled: boolean;
}

const ownServer = (password?: string | null) => ({
  useConfiguration: false,
  host: '127.0.0.1',
  port: ownPort,
  security: 'NONE',
  username: 'mailer',
  ...(password === undefined ? {} : { password }),
  fromAddress: 'terms@example.org',
  fromName: 'Polyterm Terms',
});

describe('mail settings', () => {
  it('default to the configuration, which system administrators see without a password', async () => {
    const server = await rest<ServerSettings>(sysadmin, 'GET', '/mail-settings/server');
    expect(server.status).toBe(200);
    expect(server.body).toMatchObject({
      useConfiguration: true,
      host: null,
      password: null,
      configuration: {
        smtp: expect.stringMatching(/^smtp:\/\/127\.0\.0\.1:\d+$/),
        from: 'Polyterm <config@example.org>',
      },
    });
    const mine = await rest<ClientSettings>(admin, 'GET', '/mail-settings');
    expect(mine.body).toEqual({
      senderName: null,
      replyTo: null,
      signature: null,
      sender: '"Polyterm" <config@example.org>',
      mailEnabled: true,
    });
    // The installation's server is the system administrators' business.
    expect((await rest(admin, 'GET', '/mail-settings/server')).status).toBe(403);
    expect((await rest(admin, 'PUT', '/mail-settings/server', ownServer(SECRET))).status).toBe(403);
  });

  it("put the client's sender name, reply-to and signature on its mail; the test message shows them", async () => {
    const saved = await rest<ClientSettings>(admin, 'PUT', '/mail-settings', {
      senderName: 'Terminology team',
      replyTo: 'terms-team@example.org',
      signature: 'The terminology team of Example',
    });
    expect(saved.status).toBe(200);
    expect(saved.body.sender).toBe('"Terminology team" <config@example.org>');

    const test = await rest<{ to: string; from: string }>(admin, 'POST', '/mail-settings/test', {
      to: 'checker@example.org',
    });
    expect(test.status).toBe(200);
    expect(test.body.from).toBe('"Terminology team" <config@example.org>');
    const mail = await configured.waitFor('checker@example.org');
    expect(mail.text).toMatch(/^From: "?Terminology team"? <config@example\.org>/m);
    expect(mail.text).toMatch(/^Reply-To: terms-team@example\.org/m);
    expect(mail.text).toContain('-- \r\nThe terminology team of Example');

    // Real mail of the client carries them too: a password-reset link for one of its users.
    const email = `u${uniqueSuffix()}@example.org`;
    const user = await createUser(orm, tenant.id, { email });
    const reset = await new RestClient(app).post('/reset-password', {
      username: user.username,
      client: tenant.loginName,
    });
    expect(reset.status).toBe(200);
    expect((await configured.waitFor(email)).text).toMatch(
      /^From: "?Terminology team"? <config@example\.org>/m,
    );

    // Another client keeps its own (none): the settings are per client.
    const other = await createTenant(sysadmin);
    const otherAdmin = await loginRest(app, 'admin', other.adminPassword, other.loginName);
    expect((await rest<ClientSettings>(otherAdmin, 'GET', '/mail-settings')).body.senderName).toBeNull();
  });

  it('send through the saved SMTP server with its password, which is never answered back', async () => {
    const saved = await rest<ServerSettings>(sysadmin, 'PUT', '/mail-settings/server', ownServer(SECRET));
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ useConfiguration: false, host: '127.0.0.1', password: '******' });
    expect((await rest<ServerSettings>(sysadmin, 'GET', '/mail-settings/server')).body.password).toBe(
      '******',
    );

    const graphql = await app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', 'x-auth-token': sysadmin.token! },
      payload: JSON.stringify({ query: '{ mailServerSettings { useConfiguration username password } }' }),
    });
    answers.push(graphql.body);
    expect(graphql.json()).toEqual({
      data: { mailServerSettings: { useConfiguration: false, username: 'mailer', password: '******' } },
    });
    const trpc = await app.inject({
      method: 'GET',
      url: '/trpc/mailSettings.server',
      headers: { 'x-auth-token': sysadmin.token! },
    });
    answers.push(trpc.body);
    expect(trpc.statusCode).toBe(200);
    expect(trpc.body).toContain('"password":"******"');

    const test = await rest<{ from: string; server: string }>(admin, 'POST', '/mail-settings/test', {
      to: 'own@example.org',
    });
    expect(test.status).toBe(200);
    expect(test.body).toEqual({
      to: 'own@example.org',
      from: '"Terminology team" <terms@example.org>',
      server: `127.0.0.1:${ownPort}`,
    });
    expect((await own.waitFor('own@example.org')).text).toMatch(
      /^From: "?Terminology team"? <terms@example\.org>/m,
    );
    expect(configured.to('own@example.org')).toEqual([]);

    // ****** keeps the stored password: the server still takes the next message.
    const kept = await rest<ServerSettings>(sysadmin, 'PUT', '/mail-settings/server', ownServer('******'));
    expect(kept.body.password).toBe('******');
    expect((await rest(admin, 'POST', '/mail-settings/test', { to: 'kept@example.org' })).status).toBe(200);
    await own.waitFor('kept@example.org');
  });

  it("answer the mail server's refusal of the test message as 422, without the password", async () => {
    const wrong = `wrong-${uniqueSuffix()}`;
    await rest(sysadmin, 'PUT', '/mail-settings/server', ownServer(wrong));
    const refused = await rest<{ code: string; message: string }>(admin, 'POST', '/mail-settings/test', {
      to: 'refused@example.org',
    });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('UNPROCESSABLE');
    expect(refused.body.message).toMatch(/did not take the test message/);
    expect(refused.text).not.toContain(wrong);
    expect(logLines.join('')).not.toContain(wrong);
    await rest(sysadmin, 'PUT', '/mail-settings/server', ownServer(SECRET));
  });

  it('refuse what is missing beside its field, and callers who are not administrators', async () => {
    const missing = await rest<{ code: string; message: string }>(sysadmin, 'PUT', '/mail-settings/server', {
      useConfiguration: false,
      security: 'STARTTLS',
    });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain('host');
    expect(missing.body.message).toContain('fromAddress');
    const badReply = await rest(admin, 'PUT', '/mail-settings', { replyTo: 'not an address' });
    expect(badReply.status).toBe(400);

    const plain = await createUser(orm, tenant.id, { email: 'plain@example.org' });
    const user = await loginRest(app, plain.username, plain.password, tenant.loginName);
    expect((await rest(user, 'GET', '/mail-settings')).status).toBe(403);
    expect((await rest(user, 'POST', '/mail-settings/test', {})).status).toBe(403);
    // An administrator without an e-mail address is asked for one.
    const noAddress = await rest<{ message: string }>(admin, 'POST', '/mail-settings/test', {});
    expect(noAddress.status).toBe(400);
    expect(noAddress.body.message).toMatch(/e-mail address/);
  });

  it('go back to the configuration when told so, and never showed the password anywhere', async () => {
    const back = await rest<ServerSettings>(sysadmin, 'PUT', '/mail-settings/server', {
      ...ownServer(),
      useConfiguration: true,
    });
    expect(back.body).toMatchObject({ useConfiguration: true, host: '127.0.0.1', password: '******' });
    expect((await rest(admin, 'POST', '/mail-settings/test', { to: 'back@example.org' })).status).toBe(200);
    await configured.waitFor('back@example.org');
    expect(own.to('back@example.org')).toEqual([]);

    expect(answers.length).toBeGreaterThan(15);
    for (const answer of answers) expect(answer).not.toContain(SECRET);
    expect(logLines.length).toBeGreaterThan(10);
    expect(logLines.join('')).not.toContain(SECRET);
  });
});
