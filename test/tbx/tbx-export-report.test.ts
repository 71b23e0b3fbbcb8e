/**
 * The export's account of what TBX-Basic could not express reaches the user (docs/tbx.md, The export's
 * job): the download names its job in X-Job-Task-Id, and the job, DONE once the download ended, has
 * the summary (counts per report line, a bounded list of examples); the command line prints it.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportSummary } from '../../scripts/tbx/output.js';
import type { Server } from '../concepts/concept-helpers.js';
import { startTbxSuite, type TbxClient } from './tbx-sample-files.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const { BASE_URL: _vite, ...shellEnv } = process.env;

let server: Server;
let client: TbxClient;
let token: string;
let work: string;

beforeAll(async () => {
  ({ server, token, client } = await startTbxSuite());
  work = await mkdtemp(join(tmpdir(), 'polyterm-export-report-'));
}, 120_000);
afterAll(async () => {
  await server?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** Twelve productSubset values (more than the 5 examples kept per line), a Noun, a custom term field. */
const FILE = `<?xml version="1.0"?>
<martif type="TBX" xml:lang="en"><martifHeader><fileDesc><sourceDesc><p>test</p></sourceDesc></fileDesc></martifHeader>
<text><body>
${Array.from(
  { length: 12 },
  (_, i) => `<termEntry id="e${i}"><admin type="productSubset">P${i}</admin>
<langSet xml:lang="en"><tig><term>t${i}</term><termNote type="partOfSpeech">Noun</termNote><descrip type="surface">S${i}</descrip></tig></langSet></termEntry>`,
).join('\n')}
</body></text></martif>`;

/** The export job's result: the summary the command line prints, with the dictionary it came from. */
type Summary = ExportSummary & { dictionaryId: number };

async function download(dictionaryId: number, format: string) {
  const response = await fetch(
    `${server.base}/api/v4/dictionaries/export-tbx/${dictionaryId}?format=${format}`,
    { headers: { 'x-auth-token': token } },
  );
  const text = await response.text();
  expect(response.status, text).toBe(200);
  const jobId = response.headers.get('x-job-task-id');
  expect(jobId).toMatch(/^\d+$/);
  // The job is DONE before the last byte is sent: no waiting needed.
  const job = (await (
    await fetch(`${server.base}/api/v4/jobs/${jobId}`, { headers: { 'x-auth-token': token } })
  ).json()) as { status: string; type: string; result: Summary; processed: number };
  return { text, job };
}

describe('the TBX export job', () => {
  it('answers the account of a TBX-Basic export in its job: counts per line and at most 5 examples per line', async () => {
    const summary = await client.importNew(Buffer.from(FILE), 'export report', 'NONE');
    const { text, job } = await download(summary.dictionaryId, 'TBX');
    expect(job.status).toBe('DONE');
    expect(job.type).toBe('dictionaries.export-tbx');
    expect(job.processed).toBe(12);
    const result = job.result;
    expect(result).toMatchObject({
      dictionaryId: summary.dictionaryId,
      format: 'TBX',
      exportedConcepts: 12,
      exportedTerms: 12,
    });
    expect(result.notExpressed.counts).toEqual({
      'written as note: productSubset (not a TBX-Basic category)': 12,
      'written as note: surface (not a TBX-Basic category)': 12,
      'mapped: partOfSpeech "Noun" as "noun"': 12,
    });
    expect(result.notExpressed.total).toBe(36);
    const productSubset = result.notExpressed.examples.filter((e) => e.what.includes('productSubset'));
    expect(productSubset).toHaveLength(5);
    expect(productSubset[0]).toEqual({
      what: 'written as note: productSubset (not a TBX-Basic category)',
      entryId: 'e0',
      level: 'concept',
      lang: null,
      term: null,
      value: 'P0',
    });
    expect(result.notExpressed.examples.find((e) => e.what.includes('surface'))).toEqual({
      what: 'written as note: surface (not a TBX-Basic category)',
      entryId: 'e0',
      level: 'term',
      lang: 'en',
      term: 't0',
      value: 'S0',
    });
    // The file says the same at its end.
    expect(text).toContain('12 x written as note: productSubset (not a TBX-Basic category)');
  }, 120_000);

  it('reports nothing not expressed for a full export; the job is the caller’s', async () => {
    const summary = await client.importNew(Buffer.from(FILE), 'export report full', 'NONE');
    const { job } = await download(summary.dictionaryId, 'TBX_V3_FULL');
    expect(job.status).toBe('DONE');
    expect(job.result.notExpressed).toEqual({ total: 0, counts: {}, examples: [] });
    expect(job.result.exportedTerms).toBe(12);
  }, 120_000);

  it('the command line prints the summary (through a server)', async () => {
    const summary = await client.importNew(Buffer.from(FILE), 'export report cli', 'NONE');
    const out = join(work, 'basic.tbx');
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        join(ROOT, 'node_modules/.bin/tsx'),
        [
          'scripts/tbx.ts',
          'export',
          String(summary.dictionaryId),
          '--out',
          out,
          '--server',
          server.base,
          '--token',
          token,
        ],
        { cwd: ROOT, env: shellEnv, timeout: 120_000 },
        (error, stdout, stderr) => resolve({ code: error ? 1 : 0, stdout, stderr }),
      );
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`wrote ${out}: 12 concepts, 12 terms (TBX)`);
    expect(run.stdout).toContain('not expressed as such: 36');
    expect(run.stdout).toContain('  12 x written as note: productSubset (not a TBX-Basic category)');
    expect(run.stdout).toContain('    e.g. entry e0, language en, term "t0": "S0"');
  }, 120_000);
});
