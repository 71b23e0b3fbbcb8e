/**
 * An area's decision history (docs/staging.md): every decision (who, when, which entry, ACCEPTED,
 * EDITED or REJECTED, the concept written) paged newest first, alike over REST, tRPC and GraphQL, with
 * the decision filter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import { createDictionary, newTenant } from '../helpers/structure.js';
import {
  byLabel,
  createArea,
  entries,
  gql,
  importIntoArea,
  type PageBody,
  patch,
  tbx,
  trpc,
} from './staging-helpers.js';

let t: TestApp;
let sysadmin: RestClient;

beforeAll(async () => {
  t = await buildTestApp();
  sysadmin = await loginSysadmin(t.app);
});
afterAll(async () => {
  await t?.close();
});

interface DecisionBody {
  id: number;
  stagedEntryId: number;
  entryLabel: string;
  decision: string;
  reason: string | null;
  conceptId: number | null;
  decidedBy: { id: number; name: string } | null;
  decided: number;
}

describe('decision history of an area', () => {
  it('pages every decision, newest first, over REST, tRPC and GraphQL', async () => {
    const { admin } = await newTenant(t, sysadmin);
    const dictionary = await createDictionary(admin, { languages: [{ code: 'eng' }] });
    const area = await createArea(admin, dictionary.id);
    const { response } = await importIntoArea(
      admin,
      area.id,
      tbx([
        ['d1', [['en', 'anchor']]],
        ['d2', [['en', 'buoy']]],
        ['d3', [['en', 'cable']]],
      ]),
    );
    expect([200, 202]).toContain(response.status);
    const staged = await entries(admin, area.id);
    const [anchor, buoy, cable] = [
      byLabel(staged, 'anchor'),
      byLabel(staged, 'buoy'),
      byLabel(staged, 'cable'),
    ];

    // EDITED, then ACCEPTED (that entry), REJECTED, then a bulk ACCEPTED: four decisions in this order.
    const edited = await patch<{ version: number }>(admin, `/staged-entries/${anchor.id}`, {
      version: anchor.version,
      comment: 'checked',
    });
    expect(edited.status, edited.text).toBe(200);
    const accepted = await admin.post<{ result: { conceptIds: number[] } }>(
      `/staged-entries/${anchor.id}/accept`,
      {},
    );
    expect(accepted.status, accepted.text).toBe(200);
    const rejected = await admin.post(`/staged-entries/${buoy.id}/reject`, { reason: 'duplicate' });
    expect(rejected.status, rejected.text).toBe(200);
    const bulk = await admin.post(`/staging-areas/${area.id}/entries/accept`, { ids: [cable.id] });
    expect(bulk.status, bulk.text).toBe(200);

    const first = await admin.get<PageBody<DecisionBody> & { totalPages: number; number: number }>(
      `/staging-areas/${area.id}/decisions?size=3`,
    );
    expect(first.status, first.text).toBe(200);
    expect(first.body.totalElements).toBe(4);
    expect(first.body.totalPages).toBe(2);
    expect(first.body.content.map((d) => [d.decision, d.entryLabel])).toEqual([
      ['ACCEPTED', 'eng: cable'],
      ['REJECTED', 'eng: buoy'],
      ['ACCEPTED', 'eng: anchor'],
    ]);
    const [, rejection, acceptance] = first.body.content;
    expect(rejection).toMatchObject({ stagedEntryId: buoy.id, reason: 'duplicate', conceptId: null });
    expect(acceptance).toMatchObject({
      stagedEntryId: anchor.id,
      conceptId: accepted.body.result.conceptIds[0],
    });
    expect(acceptance!.decidedBy?.name).toBeTruthy();
    expect(acceptance!.decided).toBeGreaterThan(Date.now() - 600_000);
    const second = await admin.get<PageBody<DecisionBody>>(
      `/staging-areas/${area.id}/decisions?size=3&page=1`,
    );
    expect(second.body.content.map((d) => [d.decision, d.stagedEntryId])).toEqual([['EDITED', anchor.id]]);

    const onlyRejected = await admin.get<PageBody<DecisionBody>>(
      `/staging-areas/${area.id}/decisions?decision=REJECTED`,
    );
    expect(onlyRejected.body.content.map((d) => d.stagedEntryId)).toEqual([buoy.id]);
    const byUser = await admin.get<PageBody<DecisionBody>>(
      `/staging-areas/${area.id}/decisions?user-id=${acceptance!.decidedBy!.id}`,
    );
    expect(byUser.body.totalElements).toBe(4);

    const token = admin.token!;
    const viaTrpc = await trpc<PageBody<DecisionBody>>(t, token, 'staging.listDecisions', {
      id: area.id,
      decision: 'ACCEPTED',
      page: 0,
    });
    expect(viaTrpc.status).toBe(200);
    expect(viaTrpc.data!.content.map((d) => d.entryLabel)).toEqual(['eng: cable', 'eng: anchor']);

    const viaGraphql = await gql<{
      stagingDecisions: { totalElements: number; content: { decision: string; entryLabel: string }[] };
    }>(
      t,
      token,
      `query($id: Int!) { stagingDecisions(stagingAreaId: $id, size: 2, page: 1) {
         totalElements content { decision entryLabel stagedEntryId decidedBy { name } decided } } }`,
      { id: area.id },
    );
    expect(viaGraphql.errors).toBeUndefined();
    expect(viaGraphql.data.stagingDecisions.totalElements).toBe(4);
    expect(viaGraphql.data.stagingDecisions.content.map((d) => [d.decision, d.entryLabel])).toEqual([
      ['ACCEPTED', 'eng: anchor'],
      ['EDITED', 'eng: anchor'],
    ]);

    // An area that is not there: 404.
    expect((await admin.get(`/staging-areas/${area.id + 100000}/decisions`)).status).toBe(404);
  });
});
