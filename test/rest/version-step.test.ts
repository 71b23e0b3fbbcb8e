import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import {
  createDictionary,
  createDomain,
  createScheme,
  createSection,
  createView,
  grant,
  groupWith,
  loggedInUser,
  newTenant,
  rows,
  uniqueSuffix,
} from '../helpers/structure.js';

let t: TestApp;
let sysadmin: RestClient;

beforeAll(async () => {
  t = await buildTestApp();
  sysadmin = await loginSysadmin(t.app);
});
afterAll(() => t.close());

interface Versioned {
  id: number;
  version: number;
}

/**
 * A partial update of one object moves its version by exactly one, also when it changes what hangs on
 * the object (members, grants, group memberships): a version that jumps by two would make every
 * editor who saved once look stale to themselves.
 */
describe('every update raises the version by exactly one', () => {
  it('users, groups, permission schemes, clients, sections, domains, views, filters and sync settings', async () => {
    const { admin, tenant } = await newTenant(t, sysadmin);
    const member = await loggedInUser(t, tenant);
    const group: Versioned = await groupWith(admin, []);
    const dictionary = await createDictionary(admin, { languages: [{ code: 'eng' }] });
    const scheme = await createScheme(admin, []);
    const section = await createSection(admin, dictionary.id);
    const domain = await createDomain(admin, dictionary.id, 'Physics');
    const view = await createView(admin, dictionary.id);
    const filter = await admin.post<Versioned>('/filters', {
      name: `Filter ${uniqueSuffix()}`,
      dictionaryId: dictionary.id,
    });
    expect(filter.status, filter.text).toBe(201);
    const sync = await admin.post<Versioned>('/sync-settings', {
      name: `Sync ${uniqueSuffix()}`,
      dictionaryId: dictionary.id,
    });
    expect(sync.status, sync.text).toBe(201);
    const [user] = await rows<Versioned>(t, 'select id, version from users where id = ?', [member.id]);

    const cases: [string, RestClient, Versioned, Record<string, unknown>][] = [
      ['users', admin, user!, { fullName: 'Renamed', groups: [group.id] }],
      ['groups', admin, group, { description: 'members too', groupMembers: [member.id] }],
      ['permissionschemes', admin, scheme, { grants: [grant(group.id, ['DICT_READ'])] }],
      ['clients', sysadmin, tenant, { name: `Tenant ${uniqueSuffix()}` }],
      ['sections', admin, section, { name: `Section ${uniqueSuffix()}` }],
      ['domains', admin, domain, { name: 'Chemistry' }],
      ['views', admin, view, { name: `View ${uniqueSuffix()}` }],
      ['filters', admin, filter.body, { description: 'changed' }],
      ['sync-settings', admin, sync.body, { description: 'changed' }],
    ];
    for (const [resource, caller, object, changes] of cases) {
      const current = await caller.get<Versioned>(`/${resource}/${object.id}`);
      expect(current.status, `${resource}: ${current.text}`).toBe(200);
      const response = await caller.put<Versioned>(`/${resource}/partial/${object.id}`, {
        ...changes,
        version: current.body.version,
      });
      expect(response.status, `${resource}: ${response.text}`).toBe(200);
      expect(response.body.version, resource).toBe(current.body.version + 1);
    }
  });
});
