/**
 * MultiTerm XML into a staging area (docs/staging.md): the file comes through the TBX import's route and
 * is staged with format MULTITERM, the dictionary unchanged; accepting one entry writes it through the
 * import's merge, with the terms and values the file gave it.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import { createDictionary, newTenant, rows, waitForJob } from '../helpers/structure.js';
import { byLabel, createArea, type DetailBody, type EntryBody, entries } from './staging-helpers.js';

const SAMPLE = readFileSync(new URL('../multiterm/fixtures/multiterm-sample.xml', import.meta.url), 'utf8');

let t: TestApp;
let sysadmin: RestClient;

beforeAll(async () => {
  t = await buildTestApp();
  sysadmin = await loginSysadmin(t.app);
});
afterAll(async () => {
  await t?.close();
});

describe('MultiTerm XML into a staging area', () => {
  it('stages the entries with format MULTITERM and accepting one writes it', async () => {
    const { admin } = await newTenant(t, sysadmin);
    const dictionary = await createDictionary(admin, {
      languages: [{ code: 'eng' }, { code: 'deu' }, { code: 'isl' }],
    });
    const area = await createArea(admin, dictionary.id);
    const response = await admin.upload<{ result?: { concepts: number }; jobTaskId?: number }>(
      '/dictionaries/import-tbx',
      { content: SAMPLE, filename: 'multiterm-sample.xml', contentType: 'application/xml' },
      { 'staging-area-id': String(area.id) },
    );
    expect([200, 202], response.text).toContain(response.status);
    if (response.status === 202) {
      const job = await waitForJob(admin, response.body.jobTaskId!);
      expect(job.status, job.message ?? '').toBe('DONE');
    } else {
      expect(response.body.result?.concepts).toBe(2);
    }
    const [terms] = await rows<{ n: number }>(
      t,
      'select count(*)::int as n from terms where dictionary_id = ? and not deleted',
      [dictionary.id],
    );
    expect(terms!.n).toBe(0);

    const staged = await entries(admin, area.id);
    expect(staged).toHaveLength(2);
    expect(staged.every((e: EntryBody) => e.format === 'MULTITERM' && e.status === 'PENDING')).toBe(true);
    expect(staged.every((e) => e.fileName === 'multiterm-sample.xml')).toBe(true);
    const computer = byLabel(staged, 'computer');
    expect(computer.entryId).toBe('1');
    expect(computer.languages.sort()).toEqual(['eng', 'isl']);
    const laptop = byLabel(staged, 'laptop');
    expect(laptop.entry.languages.flatMap((l) => l.terms.map((term) => term.term)).sort()).toEqual([
      'Klapprechner',
      'Laptop',
      'laptop',
    ]);

    // The reviewer sees what accepting would add: a new concept with the file's terms and definition.
    const detail = await admin.get<DetailBody>(`/staged-entries/${computer.id}`);
    expect(detail.status, detail.text).toBe(200);
    expect(detail.body.target).toBeNull();
    const added = detail.body.diff.changes.filter((c) => c.kind === 'ADDED' && c.subject === 'TERM');
    expect(added.map((c) => c.term).sort()).toEqual(['computer', 'electronic brain', 'tölva']);

    const accepted = await admin.post<{
      entry: EntryBody;
      result: { accepted: number; conceptIds: number[] };
    }>(`/staged-entries/${computer.id}/accept`, {});
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body.result.accepted).toBe(1);
    expect(accepted.body.entry.status).toBe('ACCEPTED');
    const conceptId = accepted.body.result.conceptIds[0]!;
    expect(accepted.body.entry.decision?.conceptId).toBe(conceptId);
    const written = await rows<{ name: string }>(
      t,
      'select name from terms where concept_id = ? and not deleted order by name',
      [conceptId],
    );
    expect(written.map((row) => row.name)).toEqual(['computer', 'electronic brain', 'tölva']);
    const concept = await admin.get<{ id: number }>(`/concepts/${conceptId}`);
    expect(concept.status, concept.text).toBe(200);
    expect(JSON.stringify(concept.body)).toContain('A device that stores and processes data');
    // The other entry still waits.
    expect(byLabel(await entries(admin, area.id, '&status=PENDING'), 'laptop').id).toBe(laptop.id);
  });
});
