/**
 * File imports over GraphQL (docs/clients.md): the GraphQL multipart request specification over a real
 * socket, for TBX, MultiTerm XML, a spreadsheet (preview, then the import with its mapping) and SKOS,
 * each starting the REST routes' job and answering its summary; refusals come as GraphQL errors with
 * the procedures' codes, and another tenant's dictionary is not found.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Server, startServer } from '../concepts/concept-helpers.js';
import { newTenant, uniqueSuffix } from '../helpers/structure.js';
import { waitForJob } from '../skos/skos-helpers.js';

let server: Server;
let token: string;
let otherToken: string;

beforeAll(async () => {
  server = await startServer();
  token = (await newTenant(server.t, server.sysadmin)).admin.token!;
  otherToken = (await newTenant(server.t, server.sysadmin)).admin.token!;
});
afterAll(async () => {
  await server?.close();
});

interface Answer {
  data?: Record<string, { summary?: Summary | null; jobTaskId?: number | null } | null>;
  errors?: { message: string; extensions: { code: string } }[];
}
interface Summary {
  dictionaryId: number;
  concepts: number;
  terms: number;
  errorCount: number;
}

/** One mutation with its file as the multipart request specification sends it (operations, map, 0). */
async function upload(
  query: string,
  variables: Record<string, unknown>,
  file: { name: string; content: string | Buffer },
  as = token,
): Promise<Answer> {
  const form = new FormData();
  form.set('operations', JSON.stringify({ query, variables: { ...variables, file: null } }));
  form.set('map', JSON.stringify({ 0: ['variables.file'] }));
  const bytes = typeof file.content === 'string' ? file.content : new Uint8Array(file.content);
  form.set('0', new Blob([bytes]), file.name);
  const response = await fetch(`${server.base}/graphql`, {
    method: 'POST',
    headers: { 'x-auth-token': as },
    body: form,
  });
  expect(response.headers.get('content-type')).toMatch(/json/);
  return (await response.json()) as Answer;
}

/** The import's summary: answered at once, or read from its job. */
async function summaryOf(answer: Answer, field: string): Promise<Summary> {
  expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
  const outcome = answer.data![field]!;
  if (outcome.jobTaskId != null) {
    const job = await waitForJob(server, token, outcome.jobTaskId);
    expect(job.status, job.message ?? '').toBe('DONE');
    return job.result as Summary;
  }
  return outcome.summary!;
}

const TBX = `<?xml version="1.0" encoding="UTF-8"?>
<tbx type="TBX-Basic" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2">
<tbxHeader><fileDesc><sourceDesc><p>GraphQL upload</p></sourceDesc></fileDesc></tbxHeader>
<text><body>
<conceptEntry id="c1"><langSec xml:lang="en"><termSec><term>upload</term></termSec></langSec>
<langSec xml:lang="is"><termSec><term>upphal</term></termSec></langSec></conceptEntry>
</body></text></tbx>`;

const SKOS = `@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
<http://example.org/g/a> a skos:Concept ; skos:prefLabel "alpha"@en ; skos:altLabel "first"@en .
<http://example.org/g/b> a skos:Concept ; skos:prefLabel "beta"@en ; skos:broader <http://example.org/g/a> .
`;

const IMPORT_TBX = `mutation($file: File!, $name: String, $dictionaryId: Int, $merge: String) {
  importTbx(file: $file, name: $name, dictionaryId: $dictionaryId, merge: $merge) { summary jobTaskId } }`;

describe('GraphQL file imports', { timeout: 120_000 }, () => {
  it('imports TBX and MultiTerm XML into new dictionaries, and merges into an existing one', async () => {
    const tbx = await summaryOf(
      await upload(IMPORT_TBX, { name: `GraphQL TBX ${uniqueSuffix()}` }, { name: 'a.tbx', content: TBX }),
      'importTbx',
    );
    expect(tbx).toMatchObject({ concepts: 1, terms: 2, errorCount: 0 });
    const again = await summaryOf(
      await upload(IMPORT_TBX, { dictionaryId: tbx.dictionaryId }, { name: 'a.tbx', content: TBX }),
      'importTbx',
    );
    // The same entry id merges: no new concept.
    expect(again).toMatchObject({ dictionaryId: tbx.dictionaryId, concepts: 0 });

    const sample = await readFile(new URL('../multiterm/fixtures/multiterm-sample.xml', import.meta.url));
    const multiterm = await summaryOf(
      await upload(IMPORT_TBX, { name: `GraphQL MTF ${uniqueSuffix()}` }, { name: 'm.xml', content: sample }),
      'importTbx',
    );
    expect(multiterm).toMatchObject({ concepts: 2, terms: 6 });

    // Another tenant's dictionary is not found; a file that is no TBX is the caller's mistake.
    const hidden = await upload(
      IMPORT_TBX,
      { dictionaryId: tbx.dictionaryId },
      { name: 'a.tbx', content: TBX },
      otherToken,
    );
    expect(hidden.errors?.[0]?.extensions.code).toBe('NOT_FOUND');
    const broken = await upload(
      IMPORT_TBX,
      { name: `Broken ${uniqueSuffix()}` },
      { name: 'b.tbx', content: '<tbx' },
    );
    expect(broken.errors?.[0]?.extensions.code).toBe('BAD_REQUEST');
  });

  it('previews a spreadsheet and imports it with the mapping', async () => {
    const csv = 'English;Icelandic;Definition\ncomputer;tölva;A machine that computes\nscreen;skjár;\n';
    const preview = await upload(
      `mutation($file: File!) { previewSpreadsheet(file: $file) }`,
      {},
      { name: 'glossary.csv', content: csv },
    );
    expect(preview.errors, JSON.stringify(preview.errors)).toBeUndefined();
    const proposal = preview.data!.previewSpreadsheet as unknown as {
      delimiter: string;
      rows: string[][];
      mapping: { columns: { role: string }[] };
    };
    expect(proposal.delimiter).toBe(';');
    expect(proposal.rows[1]).toEqual(['computer', 'tölva', 'A machine that computes']);
    expect(proposal.mapping.columns.filter((c) => c.role === 'term')).toHaveLength(2);
    const summary = await summaryOf(
      await upload(
        `mutation($file: File!, $name: String, $mapping: JSON!) {
          importSpreadsheet(file: $file, name: $name, mapping: $mapping) { summary jobTaskId } }`,
        { name: `GraphQL sheet ${uniqueSuffix()}`, mapping: proposal.mapping },
        { name: 'glossary.csv', content: csv },
      ),
      'importSpreadsheet',
    );
    expect(summary).toMatchObject({ concepts: 2, terms: 4, errorCount: 0 });
  });

  it('imports SKOS', async () => {
    const summary = await summaryOf(
      await upload(
        `mutation($file: File!, $name: String) { importSkos(file: $file, name: $name) { summary jobTaskId } }`,
        { name: `GraphQL SKOS ${uniqueSuffix()}` },
        { name: 'v.ttl', content: SKOS },
      ),
      'importSkos',
    );
    expect(summary).toMatchObject({ concepts: 2, terms: 3, errorCount: 0 });
    const notRdf = await upload(
      `mutation($file: File!) { importSkos(file: $file, format: "turtle") { summary } }`,
      {},
      { name: 'v.ttl', content: 'this is no turtle' },
    );
    expect(notRdf.errors?.[0]?.extensions.code).toBe('BAD_REQUEST');
  });
});
