/**
 * The invariants of the staging entities (src/modules/staging/staging.entity.ts): an area's name is
 * unique per dictionary among live areas, case-insensitive (409), and a staged entry gets one final
 * decision: a second one is 409 over the API and refused by the database's own index.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import { createDictionary, newTenant, rows } from '../helpers/structure.js';
import { type AreaBody, createArea, entries, importIntoArea, patch, tbx } from './staging-helpers.js';

let t: TestApp;
let sysadmin: RestClient;

beforeAll(async () => {
  t = await buildTestApp();
  sysadmin = await loginSysadmin(t.app);
});
afterAll(async () => {
  await t?.close();
});

describe('staging entity invariants', () => {
  it("an area's name is unique per dictionary among live areas", async () => {
    const { admin } = await newTenant(t, sysadmin);
    const dictionary = await createDictionary(admin, { languages: [{ code: 'eng' }] });
    const other = await createDictionary(admin, { languages: [{ code: 'eng' }] });
    const area = await createArea(admin, dictionary.id, { name: 'Supplier' });
    const twice = await admin.post<{ code: string }>(`/dictionaries/${dictionary.id}/staging-areas`, {
      name: 'SUPPLIER',
    });
    expect(twice.status, twice.text).toBe(409);
    expect(twice.body.code).toBe('CONFLICT');
    // Another dictionary may have it.
    await createArea(admin, other.id, { name: 'Supplier' });
    const second = await createArea(admin, dictionary.id, { name: 'Second' });
    const renamed = await patch<{ code: string }>(admin, `/staging-areas/${second.id}`, {
      version: second.version,
      name: 'supplier',
    });
    expect(renamed.status, renamed.text).toBe(409);
    // A stale version is 409 too; the right one renames and counts up.
    const stale = await patch(admin, `/staging-areas/${area.id}`, { version: area.version + 5, name: 'X' });
    expect(stale.status).toBe(409);
    const ok = await patch<AreaBody>(admin, `/staging-areas/${area.id}`, {
      version: area.version,
      name: 'Supplier 2024',
      description: 'renamed',
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ name: 'Supplier 2024', version: area.version + 1 });
    // Deleted, its name is free again.
    expect((await admin.call('DELETE', `/staging-areas/${area.id}`)).status).toBe(204);
    expect((await admin.get(`/staging-areas/${area.id}`)).status).toBe(404);
    await createArea(admin, dictionary.id, { name: 'Supplier 2024' });
  });

  it('a staged entry gets one final decision', async () => {
    const { admin } = await newTenant(t, sysadmin);
    const dictionary = await createDictionary(admin, { languages: [{ code: 'eng' }] });
    const area = await createArea(admin, dictionary.id);
    await importIntoArea(admin, area.id, tbx([['e1', [['en', 'rope']]]]));
    const [entry] = await entries(admin, area.id);
    const rejected = await admin.post(`/staged-entries/${entry!.id}/reject`, { reason: 'no' });
    expect(rejected.status, rejected.text).toBe(200);
    expect((await admin.post(`/staged-entries/${entry!.id}/accept`, {})).status).toBe(409);
    const edit = await patch(admin, `/staged-entries/${entry!.id}`, {
      version: entry!.version + 1,
      comment: 'late',
    });
    expect(edit.status).toBe(409);
    // The database holds the invariant as well.
    await expect(
      rows(
        t,
        `insert into staging_decisions (client_id, staging_area_id, staged_entry_id, decision)
         select client_id, staging_area_id, id, 'ACCEPTED' from staged_entries where id = ?`,
        [entry!.id],
      ),
    ).rejects.toThrow(/staging_decisions_final_unique/);
    const [count] = await rows<{ n: number }>(
      t,
      'select count(*)::int as n from staging_decisions where staged_entry_id = ?',
      [entry!.id],
    );
    expect(count!.n).toBe(1);
  });
});
