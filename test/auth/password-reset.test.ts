import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createUser, type TestTenant, uniqueSuffix } from '../factories/tenant.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { MailCatcher, type ReceivedMail } from '../helpers/mail-catcher.js';
import { type LoginBody, loginRest, loginSysadmin, RestClient } from '../helpers/rest.js';

const BASE_URL = 'https://terms.example.org';
const LINK = /https:\/\/terms\.example\.org\/reset-password\?token=([A-Za-z0-9_~.%-]+)/;
/** How long a mail that should not come is waited for. */
const NO_MAIL_WAIT_MS = 500;

function resetTokenOf(mail: ReceivedMail): string {
  const match = LINK.exec(mail.text);
  if (!match) throw new Error(`no reset link in the mail:\n${mail.text}`);
  return decodeURIComponent(match[1]!);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let t: TestApp;
let catcher: MailCatcher;
let anonymous: RestClient;
let sysadmin: RestClient;

beforeAll(async () => {
  catcher = new MailCatcher();
  const port = await catcher.start();
  t = await buildTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}`, BASE_URL });
  anonymous = new RestClient(t.app);
  sysadmin = await loginSysadmin(t.app);
});
afterAll(async () => {
  await t?.close();
  await catcher?.close();
});

interface ErrorBody {
  code: string;
  message: string;
}

function sql<T = Record<string, unknown>>(query: string, params: unknown[] = []): Promise<T[]> {
  return t.orm.em.fork().getConnection().execute(query, params) as Promise<T[]>;
}

const login = (tenant: TestTenant, username: string, password: string) =>
  anonymous.call<LoginBody>('POST', '/login', { form: { client: tenant.loginName, username, password } });

const requestReset = (body: Record<string, string>) => anonymous.post('/reset-password', body);
const confirmReset = (token: string, password: string) =>
  anonymous.post<ErrorBody>('/reset-password/confirm', { token, password });

/** A tenant with a user who has an e-mail address of its own. */
async function userWithEmail() {
  const tenant = await createTenant(sysadmin);
  const email = `u${uniqueSuffix()}@example.org`;
  const user = await createUser(t.orm, tenant.id, { email });
  return { tenant, user, email };
}

/** Requests a reset for the user and returns the secret from the mailed link. */
async function mailedToken(tenant: TestTenant, username: string, email: string): Promise<string> {
  const before = catcher.to(email).length;
  expect((await requestReset({ username, client: tenant.loginName })).status).toBe(200);
  const deadline = Date.now() + 5000;
  while (catcher.to(email).length === before && Date.now() < deadline) await sleep(20);
  const mail = catcher.to(email)[before];
  if (!mail) throw new Error(`no reset mail to ${email}`);
  return resetTokenOf(mail);
}

describe('POST /reset-password', () => {
  it('e-mails a reset link to the address of an existing user (JSON body)', async () => {
    const { tenant, user, email } = await userWithEmail();
    const response = await requestReset({ username: user.username, client: tenant.loginName });
    expect(response.status).toBe(200);
    const mail = await catcher.waitFor(email);
    expect(mail.to).toEqual([email]);
    expect(mail.text).toMatch(new RegExp(`^To: .*${email.replace(/\./g, '\\.')}`, 'mi'));
    expect(mail.text).toMatch(LINK);
    expect(resetTokenOf(mail).length).toBeGreaterThanOrEqual(32);
  });

  it('accepts a form body too, the username in any letter case', async () => {
    const { tenant, user, email } = await userWithEmail();
    const response = await anonymous.call('POST', '/reset-password', {
      form: { username: user.username.toUpperCase(), client: tenant.loginName },
    });
    expect(response.status).toBe(200);
    expect((await catcher.waitFor(email)).text).toMatch(LINK);
  });

  it('answers 200 and sends nothing for an unknown user, a user without e-mail or an unknown client', async () => {
    const { tenant, user, email } = await userWithEmail();
    const withoutEmail = await createUser(t.orm, tenant.id);
    const mailsBefore = catcher.mails.length;

    const unknownUser = await requestReset({ username: `nobody${uniqueSuffix()}`, client: tenant.loginName });
    expect(unknownUser.status).toBe(200);
    const noEmail = await requestReset({ username: withoutEmail.username, client: tenant.loginName });
    expect(noEmail.status).toBe(200);
    const unknownClient = await requestReset({ username: user.username, client: `none${uniqueSuffix()}` });
    expect(unknownClient.status).toBe(200);

    await sleep(NO_MAIL_WAIT_MS);
    expect(catcher.mails.length).toBe(mailsBefore);
    expect(catcher.to(email)).toEqual([]);
    const resets = await sql<{ count: number }>(
      'select count(*)::int as count from password_resets where user_id in (?, ?)',
      [user.id, withoutEmail.id],
    );
    expect(resets[0]!.count).toBe(0);
  });
});

describe('POST /reset-password/confirm', () => {
  it('sets the new password once (204): the new one logs in, the old one no more, the link is spent', async () => {
    const { tenant, user, email } = await userWithEmail();
    const token = await mailedToken(tenant, user.username, email);
    const newPassword = `new-${uniqueSuffix()}-pw`;

    const confirmed = await confirmReset(token, newPassword);
    expect(confirmed.status, confirmed.text).toBe(204);
    expect((await login(tenant, user.username, newPassword)).status).toBe(200);
    expect((await login(tenant, user.username, user.password)).status).toBe(401);

    const again = await confirmReset(token, `other-${uniqueSuffix()}-pw`);
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('BAD_REQUEST');
    expect((await login(tenant, user.username, newPassword)).status).toBe(200);
  });

  it("ends the user's open sessions", async () => {
    const { tenant, user, email } = await userWithEmail();
    const session = await loginRest(t.app, user.username, user.password, tenant.loginName);
    expect((await session.get('/users/password-settings')).status).toBe(200);

    const token = await mailedToken(tenant, user.username, email);
    expect((await confirmReset(token, `new-${uniqueSuffix()}-pw`)).status).toBe(204);

    expect((await session.get('/users/password-settings')).status).toBe(401);
    expect((await session.get<{ tokenValid: boolean }>('/validate')).body).toEqual({ tokenValid: false });
  });

  it('refuses a password against the password settings (400) and leaves the link usable', async () => {
    const { tenant, user, email } = await userWithEmail();
    const token = await mailedToken(tenant, user.username, email);

    const weak = await confirmReset(token, 'short');
    expect(weak.status).toBe(400);
    expect(weak.body.code).toBe('BAD_REQUEST');
    expect((await login(tenant, user.username, user.password)).status).toBe(200);

    const newPassword = `new-${uniqueSuffix()}-pw`;
    expect((await confirmReset(token, newPassword)).status).toBe(204);
    expect((await login(tenant, user.username, newPassword)).status).toBe(200);
  });

  it('refuses an expired link (400)', async () => {
    const { tenant, user, email } = await userWithEmail();
    const token = await mailedToken(tenant, user.username, email);
    await sql(`update password_resets set expires_at = now() - interval '1 minute' where user_id = ?`, [
      user.id,
    ]);

    const response = await confirmReset(token, `new-${uniqueSuffix()}-pw`);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('BAD_REQUEST');
    expect((await login(tenant, user.username, user.password)).status).toBe(200);
  });

  it('refuses an unknown secret (400)', async () => {
    const response = await confirmReset(`unknown-${uniqueSuffix()}`, `new-${uniqueSuffix()}-pw`);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('BAD_REQUEST');
  });

  it("spends the user's other outstanding links with the one used", async () => {
    const { tenant, user, email } = await userWithEmail();
    const first = await mailedToken(tenant, user.username, email);
    const second = await mailedToken(tenant, user.username, email);
    expect(second).not.toBe(first);

    expect((await confirmReset(second, `new-${uniqueSuffix()}-pw`)).status).toBe(204);
    expect((await confirmReset(first, `other-${uniqueSuffix()}-pw`)).status).toBe(400);
  });
});

describe('POST /users with sendNotificationEmail', () => {
  it('e-mails the new user a working reset link', async () => {
    const tenant = await createTenant(sysadmin);
    const admin = await loginRest(t.app, 'admin', tenant.adminPassword, tenant.loginName);
    const username = `n${uniqueSuffix()}`;
    const email = `${username}@example.org`;
    const created = await admin.post<{ id: number }>('/users', {
      username,
      email,
      sendNotificationEmail: true,
    });
    expect(created.status, created.text).toBe(201);

    const mail = await catcher.waitFor(email);
    const password = `new-${uniqueSuffix()}-pw`;
    expect((await confirmReset(resetTokenOf(mail), password)).status).toBe(204);
    expect((await login(tenant, username, password)).status).toBe(200);
  });

  it('sends nothing without sendNotificationEmail', async () => {
    const tenant = await createTenant(sysadmin);
    const admin = await loginRest(t.app, 'admin', tenant.adminPassword, tenant.loginName);
    const username = `n${uniqueSuffix()}`;
    const email = `${username}@example.org`;
    const created = await admin.post('/users', { username, email, password: `pw-${uniqueSuffix()}-x` });
    expect(created.status, created.text).toBe(201);
    await sleep(NO_MAIL_WAIT_MS);
    expect(catcher.to(email)).toEqual([]);
  });
});
