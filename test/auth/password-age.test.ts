import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createUser, type TestTenant } from '../factories/tenant.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginRest, loginSysadmin, type RestClient } from '../helpers/rest.js';

let t: TestApp;
let tenant: TestTenant;
let admin: RestClient;
let groupId: number;

const sql = (query: string, params: unknown[] = []) =>
  t.orm.em.fork().getConnection().execute(query, params) as Promise<Record<string, unknown>[]>;

const forced = async (userId: number) =>
  (await sql('select force_password_change from users where id = ?', [userId]))[0]?.force_password_change;

beforeAll(async () => {
  t = await buildTestApp();
  tenant = await createTenant(await loginSysadmin(t.app));
  admin = await loginRest(t.app, 'admin', tenant.adminPassword, tenant.loginName);
  const group = await admin.post<{ id: number }>('/groups', { name: 'Rotating', pwdChange: 30 });
  expect(group.status).toBe(201);
  groupId = group.body.id;
});
afterAll(() => t.close());

async function memberWithPasswordAge(days: number) {
  const user = await createUser(t.orm, tenant.id);
  await sql(`update users set password_changed_at = now() - (? * interval '1 day') where id = ?`, [
    days,
    user.id,
  ]);
  const group = await admin.get<{ version: number; groupMembers: { id: number }[] }>(
    `/groups/${groupId}?format=EDIT`,
  );
  const members = [...group.body.groupMembers.map((member) => member.id), user.id];
  expect(
    (await admin.put(`/groups/partial/${groupId}`, { version: group.body.version, groupMembers: members }))
      .status,
  ).toBe(200);
  return user;
}

describe("a group's pwdChange", () => {
  it('makes the login of a member with an older password set forcePasswordChange', async () => {
    const user = await memberWithPasswordAge(40);
    await loginRest(t.app, user.username, user.password, tenant.loginName);
    expect(await forced(user.id)).toBe(true);
  });

  it('leaves a member with a recent password alone, and non-members too', async () => {
    const recent = await memberWithPasswordAge(5);
    await loginRest(t.app, recent.username, recent.password, tenant.loginName);
    expect(await forced(recent.id)).toBe(false);
    const outsider = await createUser(t.orm, tenant.id);
    await sql(`update users set password_changed_at = now() - interval '400 days' where id = ?`, [
      outsider.id,
    ]);
    await loginRest(t.app, outsider.username, outsider.password, tenant.loginName);
    expect(await forced(outsider.id)).toBe(false);
  });

  it('is satisfied when the user chooses a new own password', async () => {
    const user = await memberWithPasswordAge(40);
    const self = await loginRest(t.app, user.username, user.password, tenant.loginName);
    expect(await forced(user.id)).toBe(true);
    const current = await self.get<{ version: number }>(`/users/${user.id}`);
    const changed = await self.put(`/users/partial/${user.id}`, {
      version: current.body.version,
      password: 'a-brand-new-password',
    });
    expect(changed.status).toBe(200);
    expect(await forced(user.id)).toBe(false);
    await loginRest(t.app, user.username, 'a-brand-new-password', tenant.loginName);
    expect(await forced(user.id)).toBe(false);
  });
});
