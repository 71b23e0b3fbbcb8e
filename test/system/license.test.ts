import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LicensePayload } from '../../src/modules/license/license.schema.js';
import { signLicense } from '../../src/modules/license/license-text.js';
import { createTenant, createUser, type TestTenant } from '../factories/tenant.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { isolatedDatabase } from '../helpers/isolated-database.js';
import { loginRest, loginSysadmin, type RestClient } from '../helpers/rest.js';

/** The licence is installation-wide: this suite has a database of its own. */
let database: Awaited<ReturnType<typeof isolatedDatabase>>;
let t: TestApp;
let sysadmin: RestClient;
const vendor = generateKeyPairSync('ed25519');
const privatePem = vendor.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const publicPem = vendor.publicKey.export({ type: 'spki', format: 'pem' }).toString();

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const licence = (overrides: Partial<LicensePayload> = {}) =>
  signLicense(privatePem, {
    licensee: 'ACME Terminology',
    issued: day(-1),
    expires: day(365),
    availableUserSlots: 3,
    ...overrides,
  });

interface ErrorBody {
  code: string;
  message: string;
}
interface LicenseBody {
  licensee: string;
  issued: number;
  expires: number;
  availableUserSlots: number | null;
  applied: number;
}

beforeAll(async () => {
  database = await isolatedDatabase();
  t = await buildTestApp({ DATABASE_URL: database.url, LICENSE_PUBLIC_KEY: publicPem, LOG_LEVEL: 'error' });
  sysadmin = await loginSysadmin(t.app);
});
afterAll(async () => {
  await t.close();
  await database.drop();
});

const apply = (caller: RestClient, text: string) =>
  caller.post<LicenseBody & ErrorBody>('/system/license', { text });

describe('applying a licence', () => {
  it('answers null while no licence was applied, then the License object of the applied one', async () => {
    expect((await sysadmin.get('/system/license')).body).toBeNull();
    const applied = await apply(sysadmin, licence({ availableUserSlots: 40 }));
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body).toMatchObject({ licensee: 'ACME Terminology', availableUserSlots: 40 });
    expect(applied.body.expires).toBe(Date.parse(`${day(365)}T23:59:59.999Z`));
    expect((await sysadmin.get<LicenseBody>('/system/license')).body).toEqual(applied.body);
  });

  it('refuses a licence signed with another key, a tampered payload, an expired one and garbage (400)', async () => {
    const stranger = generateKeyPairSync('ed25519')
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const foreign = signLicense(stranger, {
      licensee: 'x',
      issued: day(0),
      expires: day(30),
      availableUserSlots: null,
    });
    const [payload, signature] = licence().split('.');
    const tampered = `${Buffer.from(
      Buffer.from(payload!, 'base64url')
        .toString()
        .replace('"availableUserSlots":3', '"availableUserSlots":999'),
    ).toString('base64url')}.${signature}`;
    const cases: [string, RegExp][] = [
      [foreign, /signature/],
      [tampered, /signature/],
      [licence({ expires: day(-2) }), /expired/],
      ['not-a-licence', /payload/],
    ];
    for (const [text, message] of cases) {
      const response = await apply(sysadmin, text);
      expect(response.status, text).toBe(400);
      expect(response.body.message).toMatch(message);
    }
  });

  it('is for system administrators only (403)', async () => {
    const tenant = await createTenant(sysadmin);
    const admin = await loginRest(t.app, 'admin', tenant.adminPassword, tenant.loginName);
    expect((await apply(admin, licence())).status).toBe(403);
  });
});

describe("the licence's availableUserSlots", () => {
  let tenant: TestTenant;
  let admin: RestClient;

  beforeAll(async () => {
    expect((await apply(sysadmin, licence({ availableUserSlots: 3 }))).status).toBe(200);
    tenant = await createTenant(sysadmin);
    admin = await loginRest(t.app, 'admin', tenant.adminPassword, tenant.loginName);
  });

  it('caps maxUsers when a client is created or changed (400)', async () => {
    const tooMany = await sysadmin.post<ErrorBody>('/clients', {
      name: 'Big',
      loginName: 'big',
      maxUsers: 4,
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toMatch(/at most 3/);
    const client = await sysadmin.get<{ version: number }>(`/clients/${tenant.id}`);
    const raised = await sysadmin.put<ErrorBody>(`/clients/partial/${tenant.id}`, {
      version: client.body.version,
      maxUsers: 10,
    });
    expect(raised.status).toBe(400);
    expect((await sysadmin.post('/clients', { name: 'Small', loginName: 'small', maxUsers: 3 })).status).toBe(
      201,
    );
  });

  it('caps the accounts of a client without its own maxUsers', async () => {
    // The administrator is account 1 of 3.
    await createUser(t.orm, tenant.id);
    expect((await admin.post('/users', { username: 'third', password: 'third-pass-1' })).status).toBe(201);
    const refused = await admin.post<ErrorBody>('/users', { username: 'fourth', password: 'fourth-pass-1' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/licence allows at most 3/);
  });

  it('is lifted by a licence without a user limit', async () => {
    expect((await apply(sysadmin, licence({ availableUserSlots: null }))).status).toBe(200);
    expect((await admin.post('/users', { username: 'fifth', password: 'fifth-pass-1' })).status).toBe(201);
  });
});

describe('without LICENSE_PUBLIC_KEY', () => {
  it('answers 400: licensing is not configured', async () => {
    const plain = await buildTestApp({ DATABASE_URL: database.url });
    try {
      const response = await apply(await loginSysadmin(plain.app), licence());
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(/not configured/);
    } finally {
      await plain.close();
    }
  });
});
