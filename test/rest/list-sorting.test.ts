/** Lists sorted by a text attribute read as people read: case is ignored, then exact text breaks ties. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant } from '../factories/tenant.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginRest, loginSysadmin, type RestClient } from '../helpers/rest.js';

let t: TestApp;
let admin: RestClient;

beforeAll(async () => {
  t = await buildTestApp();
  const sysadmin = await loginSysadmin(t.app);
  const tenant = await createTenant(sysadmin);
  admin = await loginRest(t.app, 'admin', tenant.adminPassword, tenant.loginName);
});
afterAll(async () => {
  await t?.close();
});

describe('sort by name ignores case', () => {
  it('dictionaries and groups: ASC and DESC, rownum in the same order', async () => {
    const names = ['beta', 'Alpha', 'gamma', 'alpha2', 'Beta2'];
    const ids = new Map<string, number>();
    for (const name of names) {
      const created = await admin.post<{ id: number }>('/dictionaries', { name });
      expect(created.status, created.text).toBe(201);
      ids.set(name, created.body.id);
      expect((await admin.post('/groups', { name })).status).toBe(201);
    }
    const expected = ['Alpha', 'alpha2', 'beta', 'Beta2', 'gamma'];
    const listed = await admin.get<{ content: { name: string }[] }>('/dictionaries?sort=name&format=SHORT');
    expect(listed.body.content.map((d) => d.name)).toEqual(expected);
    const reversed = await admin.get<{ content: { name: string }[] }>(
      '/dictionaries?sort=name,DESC&format=SHORT',
    );
    expect(reversed.body.content.map((d) => d.name)).toEqual([...expected].reverse());
    const rownum = await admin.get<number>(`/dictionaries/rownum/${ids.get('beta')}?sort=name`);
    expect(rownum.body).toBe(3);

    const groups = await admin.get<{ content: { name: string }[] }>('/groups?sort=name&name=&size=100');
    const ours = groups.body.content.map((g) => g.name).filter((name) => names.includes(name));
    expect(ours).toEqual(expected);
  });
});

describe('sort by a name every object has', () => {
  it('__proto__, constructor and toString are unknown attributes (400), on every list', async () => {
    for (const attribute of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      for (const path of [`/dictionaries?sort=${attribute}`, `/groups/rownum/1?sort=${attribute},DESC`]) {
        const response = await admin.get<{ code: string; message: string }>(path);
        expect(response.status, `${path}: ${response.text}`).toBe(400);
        expect(response.body.message).toContain('Cannot sort by');
      }
    }
    const sysadmin = await loginSysadmin(t.app);
    const clients = await sysadmin.get<{ code: string }>('/clients?sort=__proto__');
    expect(clients.status, clients.text).toBe(400);
  });
});
