/**
 * Every import format lands in a staging area alike (docs/staging.md): a CSV spreadsheet and a SKOS
 * vocabulary become PENDING entries with their format and import job, the dictionary stays as it was,
 * and accepting writes them through the import's merge.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import { createDictionary, newTenant, rows, waitForJob } from '../helpers/structure.js';
import { createArea, entries } from './staging-helpers.js';

let t: TestApp;
let sysadmin: RestClient;

beforeAll(async () => {
  t = await buildTestApp();
  sysadmin = await loginSysadmin(t.app);
});
afterAll(async () => {
  await t?.close();
});

const termCount = async (dictionaryId: number) =>
  (
    await rows<{ n: number }>(
      t,
      'select count(*)::int as n from terms where dictionary_id = ? and not deleted',
      [dictionaryId],
    )
  )[0]!.n;

async function upload(
  caller: RestClient,
  path: string,
  content: string,
  filename: string,
  fields: Record<string, string>,
) {
  const response = await caller.upload<{ result?: unknown; jobTaskId?: number }>(
    path,
    { content, filename, contentType: 'application/octet-stream' },
    fields,
  );
  expect([200, 202], response.text).toContain(response.status);
  if (response.status === 202) {
    const job = await waitForJob(caller, response.body.jobTaskId!);
    expect(job.status, job.message ?? '').toBe('DONE');
  }
}

describe('imports into a staging area', () => {
  it('stages spreadsheets and SKOS, and accepting writes them', async () => {
    const { admin } = await newTenant(t, sysadmin);
    const dictionary = await createDictionary(admin, { languages: [{ code: 'eng' }, { code: 'deu' }] });
    const area = await createArea(admin, dictionary.id);

    const csv = 'English,German\nriver,Fluss\nlake,See\n';
    const mapping = {
      columns: [
        { role: 'term', language: 'eng' },
        { role: 'term', language: 'deu' },
      ],
    };
    await upload(admin, '/dictionaries/import-spreadsheet', csv, 'terms.csv', {
      mapping: JSON.stringify(mapping),
      'staging-area-id': String(area.id),
    });
    const skos = `@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix ex: <http://example.org/v/> .
ex:s a skos:ConceptScheme .
ex:c1 a skos:Concept ; skos:inScheme ex:s ; skos:prefLabel "mountain"@en , "Berg"@de .`;
    await upload(admin, '/dictionaries/import-skos', skos, 'v.ttl', { 'staging-area-id': String(area.id) });

    expect(await termCount(dictionary.id)).toBe(0);
    const staged = await entries(admin, area.id);
    expect(staged.map((e) => [e.format, e.label]).sort()).toEqual([
      ['SKOS', 'eng: mountain; deu: Berg'],
      ['SPREADSHEET', 'eng: lake; deu: See'],
      ['SPREADSHEET', 'eng: river; deu: Fluss'],
    ]);
    expect(staged.every((e) => e.importJobId !== null)).toBe(true);
    const jobIds = [...new Set(staged.map((e) => e.importJobId))];
    expect(jobIds).toHaveLength(2);
    expect(
      await entries(admin, area.id, `&import-job-id=${staged.find((e) => e.format === 'SKOS')!.importJobId}`),
    ).toHaveLength(1);

    const accepted = await admin.post<{ accepted: number }>(`/staging-areas/${area.id}/entries/accept`, {
      filter: { source: 'IMPORT' },
    });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body.accepted).toBe(3);
    expect(await termCount(dictionary.id)).toBe(6);
  });
});

describe('volume', () => {
  it('stages 1,000 TBX entries and accepts them in one bulk call (prints the rates)', async () => {
    const { admin } = await newTenant(t, sysadmin);
    const dictionary = await createDictionary(admin, { languages: [{ code: 'eng' }, { code: 'deu' }] });
    const area = await createArea(admin, dictionary.id);
    const count = 1000;
    const body = Array.from(
      { length: count },
      (_, i) =>
        `<termEntry id="v${i}"><descrip type="definition">Definition ${i}</descrip><langSet xml:lang="en"><tig><term>word ${i}</term></tig></langSet><langSet xml:lang="de"><tig><term>Wort ${i}</term></tig></langSet></termEntry>`,
    ).join('\n');
    const file = `<?xml version="1.0" encoding="UTF-8"?>
<martif type="TBX" xml:lang="en"><martifHeader><fileDesc><sourceDesc><p>volume</p></sourceDesc></fileDesc></martifHeader><text><body>
${body}
</body></text></martif>`;
    const staging = performance.now();
    await upload(admin, '/dictionaries/import-tbx', file, 'volume.tbx', {
      'staging-area-id': String(area.id),
    });
    const staged = performance.now() - staging;
    const listing = performance.now();
    const page = await admin.get<{ totalElements: number }>(
      `/staging-areas/${area.id}/entries?size=200&text=word%209`,
    );
    const listed = performance.now() - listing;
    expect(page.body.totalElements).toBe(111);
    const accepting = performance.now();
    const accepted = await admin.post<{ accepted: number }>(`/staging-areas/${area.id}/entries/accept`, {
      filter: { status: 'PENDING' },
    });
    const accept = performance.now() - accepting;
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body.accepted).toBe(count);
    expect(await termCount(dictionary.id)).toBe(2 * count);
    const rate = (ms: number) => Math.round((count / ms) * 1000);
    console.log(
      `staging ${count} entries: staged in ${Math.round(staged)} ms (${rate(staged)}/s), filtered page in ${Math.round(listed)} ms, bulk accept in ${Math.round(accept)} ms (${rate(accept)}/s)`,
    );
  }, 120_000);
});
