import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createUser, type TestTenant, uniqueSuffix } from '../factories/tenant.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { type LoginBody, loginRest, loginSysadmin, RestClient } from '../helpers/rest.js';

const BASE_URL = 'https://terms.example.org';
const GUEST_PASSWORD = 'guest-pass-1';

let t: TestApp;
let anonymous: RestClient;
let sysadmin: RestClient;

beforeAll(async () => {
  t = await buildTestApp({ BASE_URL });
  anonymous = new RestClient(t.app);
  sysadmin = await loginSysadmin(t.app);
});
afterAll(() => t.close());

interface ErrorBody {
  code: string;
  message: string;
}

interface GuestSettingsBody {
  enabled: boolean;
  username: string | null;
  password: string | null;
  loginMethod: 'NORMAL' | 'GUEST_AUTOLOGIN' | 'GUEST_CLIENT_AUTOLOGIN';
  autoAlwaysDisabled: boolean;
  enableQuickFilters: boolean;
  enableSearchModes: boolean;
  enableCommenting: boolean;
}

interface FeaturesBody {
  GUEST_AUTO_DISABLED: boolean;
  MULTIPLE_CLIENT: boolean;
  GUEST_TOKEN?: { token: string; expirationTime: number };
}

interface ClientBody {
  id: number;
  version: number;
  apiKey?: string;
}

function sql<T = Record<string, unknown>>(query: string, params: unknown[] = []): Promise<T[]> {
  return t.orm.em.fork().getConnection().execute(query, params) as Promise<T[]>;
}

/** A fresh tenant and its administrator, logged in. */
async function tenantWithAdmin(): Promise<{ tenant: TestTenant; admin: RestClient }> {
  const tenant = await createTenant(sysadmin);
  const admin = await loginRest(t.app, 'admin', tenant.adminPassword, tenant.loginName);
  return { tenant, admin };
}

/** Guest settings with everything switched on, for the given login method. */
function guestSettings(overrides: Partial<GuestSettingsBody> = {}) {
  return {
    enabled: true,
    username: 'guest',
    password: GUEST_PASSWORD,
    loginMethod: 'NORMAL' as GuestSettingsBody['loginMethod'],
    enableQuickFilters: true,
    enableSearchModes: true,
    enableCommenting: true,
    ...overrides,
  };
}

async function putGuest(admin: RestClient, body: Record<string, unknown>) {
  const response = await admin.put<GuestSettingsBody>('/users/guest', body);
  expect(response.status, response.text).toBe(200);
  return response.body;
}

const loginForm = (form: Record<string, string>) => anonymous.call<LoginBody>('POST', '/login', { form });

const guestLogin = (tenant: TestTenant, username = 'guest', password = GUEST_PASSWORD) =>
  loginForm({ client: tenant.loginName, username, password });

async function clientFeatures(loginName: string) {
  const response = await anonymous.get<FeaturesBody>(`/system/features/client/${loginName}`);
  expect(response.status, response.text).toBe(200);
  return response.body;
}

async function setClientLimits(clientId: number, limits: Record<string, number | null>) {
  const current = await sysadmin.get<ClientBody>(`/clients/${clientId}`);
  expect(current.status).toBe(200);
  const response = await sysadmin.put<ClientBody>(`/clients/partial/${clientId}`, {
    version: current.body.version,
    ...limits,
  });
  expect(response.status, response.text).toBe(200);
}

describe('GET /users/guest', () => {
  it('answers the defaults for a tenant, GUEST_AUTOLOGIN being unavailable there', async () => {
    const { admin } = await tenantWithAdmin();
    const response = await admin.get<GuestSettingsBody>('/users/guest');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      enabled: false,
      username: null,
      password: null,
      loginMethod: 'NORMAL',
      autoAlwaysDisabled: true,
      enableQuickFilters: false,
      enableSearchModes: false,
      enableCommenting: false,
      enableFeedback: false,
    });
  });

  it('offers GUEST_AUTOLOGIN on the default client (autoAlwaysDisabled false)', async () => {
    const response = await sysadmin.get<GuestSettingsBody>('/users/guest');
    expect(response.status).toBe(200);
    expect(response.body.autoAlwaysDisabled).toBe(false);
  });

  it('is refused to ordinary users, reading and writing (403)', async () => {
    const { tenant } = await tenantWithAdmin();
    const user = await createUser(t.orm, tenant.id);
    const caller = await loginRest(t.app, user.username, user.password, tenant.loginName);
    const read = await caller.get<ErrorBody>('/users/guest');
    expect(read.status).toBe(403);
    expect(read.body.code).toBe('FORBIDDEN');
    const write = await caller.put<ErrorBody>('/users/guest', guestSettings());
    expect(write.status).toBe(403);
    expect(write.body.code).toBe('FORBIDDEN');
  });
});

describe('PUT /users/guest', () => {
  it('stores the settings and hides the password as ******', async () => {
    const { admin } = await tenantWithAdmin();
    const expected = {
      enabled: true,
      username: 'guest',
      password: '******',
      loginMethod: 'NORMAL',
      autoAlwaysDisabled: true,
      enableQuickFilters: true,
      enableSearchModes: true,
      enableCommenting: true,
      enableFeedback: false,
    };
    expect(await putGuest(admin, guestSettings())).toEqual(expected);
    const read = await admin.get<GuestSettingsBody>('/users/guest');
    expect(read.status).toBe(200);
    expect(read.body).toEqual(expected);
  });

  it('keeps the password when ****** is sent back', async () => {
    const { tenant, admin } = await tenantWithAdmin();
    await putGuest(admin, guestSettings());
    await putGuest(admin, guestSettings({ password: '******', enableCommenting: false }));
    expect((await guestLogin(tenant)).status).toBe(200);
  });

  it('validates the password like any password (400) and changes nothing then', async () => {
    const { admin } = await tenantWithAdmin();
    const response = await admin.put<ErrorBody>('/users/guest', guestSettings({ password: 'short' }));
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('BAD_REQUEST');
    const read = await admin.get<GuestSettingsBody>('/users/guest');
    expect(read.body).toMatchObject({ enabled: false, username: null, password: null });
  });

  it('refuses to enable NORMAL guest login without any password (400)', async () => {
    const { admin } = await tenantWithAdmin();
    const { password: _none, ...withoutPassword } = guestSettings();
    const response = await admin.put<ErrorBody>('/users/guest', withoutPassword);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('BAD_REQUEST');
    expect((await admin.get<GuestSettingsBody>('/users/guest')).body.enabled).toBe(false);
  });

  it('refuses a username already taken by a user of the client (422)', async () => {
    const { tenant, admin } = await tenantWithAdmin();
    const user = await createUser(t.orm, tenant.id);
    const response = await admin.put<ErrorBody>('/users/guest', guestSettings({ username: user.username }));
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('UNPROCESSABLE');
    // The administrator's own name is just as taken, in another letter case too.
    const admins = await admin.put<ErrorBody>('/users/guest', guestSettings({ username: 'ADMIN' }));
    expect(admins.status).toBe(422);
  });

  it('refuses GUEST_AUTOLOGIN outside the default client (400)', async () => {
    const { admin } = await tenantWithAdmin();
    const response = await admin.put<ErrorBody>(
      '/users/guest',
      guestSettings({ loginMethod: 'GUEST_AUTOLOGIN' }),
    );
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('BAD_REQUEST');
    expect((await admin.get<GuestSettingsBody>('/users/guest')).body).toMatchObject({
      enabled: false,
      loginMethod: 'NORMAL',
    });
  });
});

describe('guest login with the NORMAL method', () => {
  it('lets the guest log in while guest access is enabled, and answers 401 once it is disabled', async () => {
    const { tenant, admin } = await tenantWithAdmin();
    await putGuest(admin, guestSettings());
    const enabled = await guestLogin(tenant);
    expect(enabled.status, enabled.text).toBe(200);
    expect(enabled.body.token).toEqual({ token: expect.any(String), expirationTime: expect.any(Number) });
    const guest = anonymous.withToken(enabled.body.token!.token);
    expect((await guest.get<{ tokenValid: boolean }>('/validate')).body).toEqual({ tokenValid: true });

    await putGuest(admin, guestSettings({ enabled: false, password: '******' }));
    const disabled = await guestLogin(tenant);
    expect(disabled.status).toBe(401);
    expect(disabled.body.token).toBeNull();
    expect(disabled.body.errorMessage).toEqual(expect.any(String));
  });

  it('does not list the guest account among the users', async () => {
    const { tenant, admin } = await tenantWithAdmin();
    await putGuest(admin, guestSettings());
    const user = await createUser(t.orm, tenant.id);
    const list = await admin.get<{ content: { username: string }[] }>('/users?size=100');
    expect(list.status).toBe(200);
    const names = list.body.content.map((item) => item.username);
    expect(names).toEqual(expect.arrayContaining(['admin', user.username]));
    expect(names).not.toContain('guest');
  });

  it('refuses an API login of the guest (403), where a named user gets in', async () => {
    const { tenant, admin } = await tenantWithAdmin();
    await putGuest(admin, guestSettings());
    // Every named user has API access through the All users group; only the guest rule stops the guest.
    await sql(`update groups set has_api_access = true where client_id = ? and type = 'ALL_USERS'`, [
      tenant.id,
    ]);
    const client = await sysadmin.post<ClientBody>(`/clients/generate-new-api-key/${tenant.id}`);
    const apiKey = client.body.apiKey;
    expect(apiKey).toEqual(expect.any(String));

    const user = await createUser(t.orm, tenant.id);
    const named = await loginForm({
      client: tenant.loginName,
      username: user.username,
      password: user.password,
      apiKey: apiKey!,
    });
    expect(named.status, named.text).toBe(200);

    const guest = await loginForm({
      client: tenant.loginName,
      username: 'guest',
      password: GUEST_PASSWORD,
      apiKey: apiKey!,
    });
    expect(guest.status).toBe(403);
    expect(guest.body.token).toBeNull();
    expect(guest.body.errorMessage).toEqual(expect.any(String));
  });
});

describe('automatic guest login with GUEST_CLIENT_AUTOLOGIN', () => {
  it('hands out a working GUEST_TOKEN with the client features, not with the plain features', async () => {
    const { tenant, admin } = await tenantWithAdmin();
    await putGuest(admin, guestSettings({ loginMethod: 'GUEST_CLIENT_AUTOLOGIN', password: undefined }));

    const before = Date.now();
    const features = await clientFeatures(tenant.loginName);
    expect(features.GUEST_AUTO_DISABLED).toBe(false);
    expect(features.GUEST_TOKEN).toEqual({ token: expect.any(String), expirationTime: expect.any(Number) });
    expect(features.GUEST_TOKEN!.expirationTime).toBeGreaterThan(before);

    const guest = anonymous.withToken(features.GUEST_TOKEN!.token);
    expect((await guest.get<{ tokenValid: boolean }>('/validate')).body).toEqual({ tokenValid: true });
    expect((await guest.get('/users/password-settings')).status).toBe(200);
    // A guest session is no administrator.
    expect((await guest.get('/users/guest')).status).toBe(403);

    const plain = await anonymous.get<FeaturesBody>('/system/features');
    expect(plain.status).toBe(200);
    expect(plain.body.GUEST_AUTO_DISABLED).toBe(true);
    expect(plain.body).not.toHaveProperty('GUEST_TOKEN');
  });

  it("never shows a guest who the client's users are or how they are grouped (403), only itself", async () => {
    const { tenant, admin } = await tenantWithAdmin();
    await putGuest(admin, guestSettings({ loginMethod: 'GUEST_CLIENT_AUTOLOGIN', password: undefined }));
    const guest = anonymous.withToken((await clientFeatures(tenant.loginName)).GUEST_TOKEN!.token);
    const adminId = (
      await admin.get<{ content: { id: number; username: string }[] }>('/users')
    ).body.content.find((user) => user.username === 'admin')!.id;
    for (const path of ['/users', `/users/${adminId}`, `/users/rownum/${adminId}`, '/groups']) {
      const response = await guest.get<{ code: string }>(path);
      expect(response.status, path).toBe(403);
      expect(response.body.code).toBe('FORBIDDEN');
    }
    const guestId = (
      await sql<{ user_id: number }>('select user_id from guest_settings where client_id = ?', [tenant.id])
    )[0]!.user_id;
    const self = await guest.get<{ id: number; type: string }>(`/users/${guestId}`);
    expect(self.status).toBe(200);
    expect(self.body.type).toBe('GUEST_CLIENT_AUTOLOGIN');
  });

  it('puts the GUEST_TOKEN into the features script when the referer names the client', async () => {
    const { tenant, admin } = await tenantWithAdmin();
    await putGuest(admin, guestSettings({ loginMethod: 'GUEST_CLIENT_AUTOLOGIN', password: undefined }));
    const script = await anonymous.call('GET', '/system/features.js', {
      headers: { referer: `${BASE_URL}/client/${tenant.loginName}` },
    });
    expect(script.status).toBe(200);
    expect(script.text).toMatch(/^window\.serviceFeatures = /);
    expect(script.text).toContain('"GUEST_TOKEN":{"token":"');
    expect(script.text).toContain('"GUEST_AUTO_DISABLED":false');

    const token = /"GUEST_TOKEN":\{"token":"([^"]+)"/.exec(script.text)![1]!;
    expect((await anonymous.withToken(token).get<{ tokenValid: boolean }>('/validate')).body).toEqual({
      tokenValid: true,
    });

    const noReferer = await anonymous.call('GET', '/system/features.js');
    expect(noReferer.status).toBe(200);
    expect(noReferer.text).not.toContain('GUEST_TOKEN');
  });

  it('gives no token while guest access is disabled or uses the NORMAL method', async () => {
    const { tenant, admin } = await tenantWithAdmin();
    await putGuest(
      admin,
      guestSettings({ enabled: false, loginMethod: 'GUEST_CLIENT_AUTOLOGIN', password: undefined }),
    );
    const disabled = await clientFeatures(tenant.loginName);
    expect(disabled.GUEST_AUTO_DISABLED).toBe(true);
    expect(disabled).not.toHaveProperty('GUEST_TOKEN');

    await putGuest(admin, guestSettings({ loginMethod: 'NORMAL' }));
    const normal = await clientFeatures(tenant.loginName);
    expect(normal.GUEST_AUTO_DISABLED).toBe(true);
    expect(normal).not.toHaveProperty('GUEST_TOKEN');
  });
});

describe('automatic guest login with GUEST_AUTOLOGIN on the default client', () => {
  it('hands out a GUEST_TOKEN with the plain features', async () => {
    const username = `g${uniqueSuffix()}`;
    try {
      const stored = await putGuest(
        sysadmin,
        guestSettings({ username, loginMethod: 'GUEST_AUTOLOGIN', password: undefined }),
      );
      expect(stored).toMatchObject({ enabled: true, loginMethod: 'GUEST_AUTOLOGIN', username });
      const features = await anonymous.get<FeaturesBody>('/system/features');
      expect(features.status).toBe(200);
      expect(features.body.GUEST_AUTO_DISABLED).toBe(false);
      expect(features.body.GUEST_TOKEN).toEqual({
        token: expect.any(String),
        expirationTime: expect.any(Number),
      });
      const guest = anonymous.withToken(features.body.GUEST_TOKEN!.token);
      expect((await guest.get<{ tokenValid: boolean }>('/validate')).body).toEqual({ tokenValid: true });
    } finally {
      // The default client is shared by every suite of the run: leave guest access off.
      await putGuest(sysadmin, { enabled: false, loginMethod: 'NORMAL' });
    }
    const after = await anonymous.get<FeaturesBody>('/system/features');
    expect(after.body.GUEST_AUTO_DISABLED).toBe(true);
    expect(after.body).not.toHaveProperty('GUEST_TOKEN');
  });
});

describe('guest limits', () => {
  it('hands out no more automatic guest tokens than maxGuests', async () => {
    const { tenant, admin } = await tenantWithAdmin();
    await putGuest(admin, guestSettings({ loginMethod: 'GUEST_CLIENT_AUTOLOGIN', password: undefined }));
    await setClientLimits(tenant.id, { maxGuests: 1 });

    const first = await clientFeatures(tenant.loginName);
    expect(first.GUEST_TOKEN).toBeDefined();
    expect(first.GUEST_AUTO_DISABLED).toBe(false);
    const second = await clientFeatures(tenant.loginName);
    expect(second).not.toHaveProperty('GUEST_TOKEN');
    expect(second.GUEST_AUTO_DISABLED).toBe(true);
  });

  it('refuses a NORMAL guest login beyond maxGuests (403 with the reason)', async () => {
    const { tenant, admin } = await tenantWithAdmin();
    await putGuest(admin, guestSettings());
    await setClientLimits(tenant.id, { maxGuests: 1 });

    expect((await guestLogin(tenant)).status).toBe(200);
    const second = await guestLogin(tenant);
    expect(second.status).toBe(403);
    expect(second.body.token).toBeNull();
    expect(second.body.errorMessage).toEqual(expect.any(String));
    expect(second.body.errorMessage).not.toBe('');
  });

  it('counts guests against maxConcurrentUsers', async () => {
    const { tenant, admin } = await tenantWithAdmin();
    await putGuest(admin, guestSettings());
    // Online: the administrator (1); the guest takes the second place.
    await setClientLimits(tenant.id, { maxConcurrentUsers: 2 });
    expect((await guestLogin(tenant)).status).toBe(200);

    const user = await createUser(t.orm, tenant.id);
    const refused = await loginForm({
      client: tenant.loginName,
      username: user.username,
      password: user.password,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.token).toBeNull();
    expect(refused.body.errorMessage).toEqual(expect.any(String));

    // A second guest does not fit either.
    expect((await guestLogin(tenant)).status).toBe(403);
  });
});
