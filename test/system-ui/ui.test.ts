/** GET /data, /ui/rights, /ui/menu/top and /ui/menu/side/{idx}: session data, effective administration rights and the administration menu. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginRest, loginSysadmin, RestClient } from '../helpers/rest.js';
import { type ErrorBody, guestSession, member, newWorld, sql, type World } from './system-ui-helpers.js';

let t: TestApp;
let sysadmin: RestClient;
let world: World;

beforeAll(async () => {
  t = await buildTestApp();
  sysadmin = await loginSysadmin(t.app);
  world = await newWorld(t, sysadmin);
});
afterAll(() => t.close());

interface MenuItem {
  href: string;
  parentHref: string | null;
  title: string;
  label: string;
  icon: string;
  v4: boolean;
  disabled: boolean;
  old?: MenuItem;
}
type SideMenu = MenuItem & { items: MenuItem[] };

async function top(caller: RestClient): Promise<MenuItem[]> {
  const response = await caller.get<MenuItem[]>('/ui/menu/top');
  expect(response.status, response.text).toBe(200);
  return response.body;
}

async function side(caller: RestClient, idx: number): Promise<SideMenu> {
  const response = await caller.get<SideMenu>(`/ui/menu/side/${idx}`);
  expect(response.status, response.text).toBe(200);
  return response.body;
}

const labels = (items: MenuItem[]) => items.map((item) => item.label);

/** The side menu of the top item with this label. */
async function sideOf(caller: RestClient, label: string): Promise<SideMenu> {
  const idx = labels(await top(caller)).indexOf(label);
  expect(idx, `${label} in the top menu`).toBeGreaterThanOrEqual(0);
  return side(caller, idx);
}

describe('GET /data', () => {
  it('answers the caller as a FULL User: own e-mail, roles, no EDIT attributes', async () => {
    const user = await member(t, world, ['USEREDITOR']);
    await sql(t, 'update users set email = ? where id = ?', ['me@example.org', user.id]);
    const response = await user.rest.get<{ user: Record<string, unknown> }>('/data');
    expect(response.status, response.text).toBe(200);
    expect(Object.keys(response.body)).toEqual(['user']);
    expect(response.body.user).toMatchObject({
      id: user.id,
      username: user.username,
      email: 'me@example.org',
      roles: ['USEREDITOR'],
      clientId: world.tenant.id,
      type: 'NORMAL',
      active: true,
      version: expect.any(Number),
      created: expect.objectContaining({ time: expect.any(Number) }),
    });
    expect(response.body.user).not.toHaveProperty('password');
    expect(response.body.user).not.toHaveProperty('lastLogins');
  });

  it('a guest gets its own account; without a token 401', async () => {
    const w = await newWorld(t, sysadmin);
    const guest = await guestSession(t, w);
    const response = await guest.get<{ user: { username: string; type: string } }>('/data');
    expect(response.status, response.text).toBe(200);
    expect(response.body.user).toMatchObject({ username: 'guest', type: 'GUEST' });
    expect((await new RestClient(t.app).get('/data')).status).toBe(401);
  });
});

describe('GET /ui/menu/top', () => {
  it('a system administrator sees everything, Clients included', async () => {
    expect(labels(await top(sysadmin))).toEqual([
      'Dictionaries',
      'Users',
      'Groups',
      'Permission schemes',
      'Clients',
      'Settings',
      'Statistics',
      'My account',
    ]);
  });

  it('a client administrator sees all but Clients', async () => {
    expect(labels(await top(world.admin))).toEqual([
      'Dictionaries',
      'Users',
      'Groups',
      'Permission schemes',
      'Settings',
      'Statistics',
      'My account',
    ]);
  });

  it('a user editor sees Users; a dictionary administrator Dictionaries; an ordinary user only My account', async () => {
    const editor = await member(t, world, ['USEREDITOR']);
    expect(labels(await top(editor.rest))).toEqual(['Users', 'My account']);
    const dictionaryAdmin = await member(t, world, ['DICTIONARY_ADMIN@dict-menu']);
    expect(labels(await top(dictionaryAdmin.rest))).toEqual(['Dictionaries', 'My account']);
    const plain = await member(t, world);
    expect(labels(await top(plain.rest))).toEqual(['My account']);
  });

  it('items carry every Menu item member; top items have no parent and no old item', async () => {
    for (const item of await top(sysadmin)) {
      expect(item).toEqual({
        href: expect.stringMatching(/^\/admin\//),
        parentHref: null,
        title: expect.any(String),
        label: expect.any(String),
        icon: expect.stringMatching(/^fa fa-/),
        v4: true,
        disabled: false,
      });
    }
  });

  it('guests see Search settings only when the guest settings enable search modes', async () => {
    const w = await newWorld(t, sysadmin);
    const guest = await guestSession(t, w, { enableSearchModes: false });
    expect(await top(guest)).toEqual([]);
    const allowed = await guestSession(t, w, { enableSearchModes: true });
    const menu = await top(allowed);
    expect(labels(menu)).toEqual(['My account']);
    expect(menu[0]!.href).toBe('/admin/search-settings');
    expect(labels((await side(allowed, 0)).items)).toEqual(['Search settings']);
  });

  it("roles hold in the home client: acting in a mapped client, an administrator's menu is a user's", async () => {
    const other = await newWorld(t, sysadmin);
    const [admin] = await sql<{ id: number }>(
      t,
      "select id from users where client_id = ? and username = 'admin'",
      [world.tenant.id],
    );
    const mapped = await sysadmin.put('/users/assign-clients', {
      users: [admin!.id],
      clients: [other.tenant.id],
    });
    expect(mapped.status, mapped.text).toBe(200);
    // A session of its own: the suite's admin session stays in its home client.
    const session = await loginRest(t.app, 'admin', world.tenant.adminPassword, world.tenant.loginName);
    const switched = await session.post('/switch-client', { client_id: other.tenant.id });
    expect(switched.status, switched.text).toBe(200);
    expect(labels(await top(session))).toEqual(['My account']);
  });
});

describe('GET /ui/menu/side/{idx}', () => {
  it('answers the top item at idx with its side menu in items', async () => {
    const menu = await top(world.admin);
    for (const [idx, item] of menu.entries()) {
      const { items, ...rest } = await side(world.admin, idx);
      expect(rest).toEqual(item);
      expect(items.length).toBeGreaterThan(0);
      expect(items[0]!.href).toBe(item.href);
      for (const child of items) expect(child.parentHref).toBe(item.href);
    }
  });

  it('side menus are filtered too: a user editor gets Users without import, export or guest access', async () => {
    const editor = await member(t, world, ['USEREDITOR']);
    expect(labels((await sideOf(editor.rest, 'Users')).items)).toEqual(['Users']);
    expect(labels((await sideOf(world.admin, 'Users')).items)).toEqual([
      'Users',
      'Import and export',
      'Guest access',
    ]);
    const dictionaryAdmin = await member(t, world, ['DICTIONARY_ADMIN@dict-side']);
    expect(labels((await sideOf(dictionaryAdmin.rest, 'Dictionaries')).items)).toEqual([
      'Dictionaries',
      'Feedback',
    ]);
    expect(labels((await sideOf(world.admin, 'Dictionaries')).items)).toEqual([
      'Dictionaries',
      'Feedback',
      'Import a definition',
    ]);
    const plain = await member(t, world);
    const account = await side(plain.rest, 0);
    expect(account).toMatchObject({ label: 'My account', href: '/admin/profile' });
    expect(account.items.map((item) => item.href)).toEqual([
      '/admin/profile',
      '/admin/profile/password',
      '/admin/search-settings',
    ]);
  });

  it('the licence page is disabled while no licence key is configured', async () => {
    const clients = await sideOf(sysadmin, 'Clients');
    expect(clients.items.map((item) => [item.label, item.disabled])).toEqual([
      ['Clients', false],
      ['Licence', true],
    ]);
    const licensed = await buildTestApp({ LICENSE_PUBLIC_KEY: 'configured' });
    try {
      const root = await loginSysadmin(licensed.app);
      const idx = labels(await top(root)).indexOf('Clients');
      const response = await root.get<SideMenu>(`/ui/menu/side/${idx}`);
      expect(response.body.items.find((item) => item.label === 'Licence')?.disabled).toBe(false);
    } finally {
      await licensed.close();
    }
  });

  it("idx beyond the caller's top menu: 404; not a whole number from 0: 400", async () => {
    const plain = await member(t, world);
    const beyond = await plain.rest.get<ErrorBody>('/ui/menu/side/1');
    expect(beyond.status).toBe(404);
    expect(beyond.body.code).toBe('NOT_FOUND');
    // The same index exists for an administrator.
    expect((await world.admin.get('/ui/menu/side/1')).status).toBe(200);
    for (const idx of ['-1', 'abc', '1.5']) {
      const response = await plain.rest.get<ErrorBody>(`/ui/menu/side/${idx}`);
      expect(response.status, idx).toBe(400);
    }
    expect((await new RestClient(t.app).get('/ui/menu/side/0')).status).toBe(401);
  });
});

describe('GET /ui/rights', () => {
  it("answers the dictionaries a permission scheme's grant to the caller's group lets them change", async () => {
    const w = await newWorld(t, sysadmin);
    const granted = await member(t, w);
    const plain = await member(t, w);
    const group = await w.admin.post<{ id: number }>('/groups?format=ID', {
      name: `Structure ${granted.username}`,
      groupMembers: [granted.id],
    });
    expect(group.status, group.text).toBeLessThan(300);
    const scheme = await w.admin.post<{ id: number }>('/permissionschemes?format=ID', {
      name: `Structure editors ${granted.username}`,
      grants: [{ groupId: group.body.id, dictionaryPermissions: ['DICT_READ', 'DICT_UPDATE'] }],
    });
    expect(scheme.status, scheme.text).toBeLessThan(300);
    const dictionary = await w.admin.post<{ id: number }>('/dictionaries?format=ID', {
      name: `Granted ${granted.username}`,
      permissionSchemeId: scheme.body.id,
    });
    expect(dictionary.status, dictionary.text).toBeLessThan(300);
    await w.admin.post('/dictionaries?format=ID', { name: `Not granted ${granted.username}` });

    const rights = await granted.rest.get<{ admin: boolean; dictionaries: unknown[] }>('/ui/rights');
    expect(rights.status, rights.text).toBe(200);
    expect(rights.body).toEqual({
      sysadmin: false,
      admin: false,
      userEditor: false,
      dictionaries: [{ id: dictionary.body.id, update: true, delete: false }],
    });
    // The menu counts the same grant; the server lets the member change the structure.
    expect(labels(await top(granted.rest))).toEqual(['Dictionaries', 'My account']);
    const section = await granted.rest.post('/sections?format=ID', {
      name: 'Granted section',
      dictionaryId: dictionary.body.id,
    });
    expect(section.status, section.text).toBeLessThan(300);

    expect((await plain.rest.get<{ dictionaries: unknown[] }>('/ui/rights')).body.dictionaries).toEqual([]);
    expect(labels(await top(plain.rest))).toEqual(['My account']);
    const admin = await w.admin.get<{ admin: boolean; dictionaries: { id: number }[] }>('/ui/rights');
    expect(admin.body.admin).toBe(true);
    expect(admin.body.dictionaries.map((d) => d.id)).toContain(dictionary.body.id);
  });
});
