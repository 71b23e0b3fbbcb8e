/**
 * TBX export (docs/tbx.md) over a real socket: both formats as streamed attachments, restriction by
 * languages, fields and filter, permissions, and the lossless round trip import -> export -> import
 * (a hand-written file and the Icelandic sjodyr.tbx).
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Server, startServer } from '../concepts/concept-helpers.js';
import { ICELANDIC_TERM_BANK_DIR } from '../helpers/datasets.js';
import {
  createScheme,
  type DictionaryBody,
  getDictionary,
  grant,
  groupWith,
  loggedInUser,
  newTenant,
  rows,
  uniqueSuffix,
} from '../helpers/structure.js';

interface Summary {
  dictionaryId: number;
  concepts: number;
  terms: number;
  updated: number;
  skipped: number;
  errors: { line: number; message: string }[];
}

let server: Server;
let tenantInfo: Awaited<ReturnType<typeof newTenant>>;
let adminToken: string;

beforeAll(async () => {
  server = await startServer();
  tenantInfo = await newTenant(server.t, server.sysadmin);
  adminToken = tenantInfo.admin.token!;
});
afterAll(async () => {
  await server?.close();
});

const query = (params: Record<string, string | number | undefined>) => {
  const entries = Object.entries(params).filter(([, v]) => v !== undefined) as [string, string | number][];
  return entries.length ? `?${new URLSearchParams(entries.map(([k, v]) => [k, String(v)])).toString()}` : '';
};

async function waitForJob(id: number): Promise<{ status: string; result: unknown; message: string | null }> {
  for (const deadline = Date.now() + 120_000; Date.now() < deadline; ) {
    const response = await fetch(`${server.base}/api/v4/jobs/${id}`, {
      headers: { 'x-auth-token': adminToken },
    });
    const job = (await response.json()) as { status: string; result: unknown; message: string | null };
    if (job.status !== 'RUNNING') return job;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`job ${id} still running`);
}

/** Imports as the administrator (multipart over the socket) and answers the job's summary. */
async function importTbx(content: string | Buffer, params: Record<string, string | number | undefined>) {
  const form = new FormData();
  form.append('file', new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), 'in.tbx');
  const response = await fetch(`${server.base}/api/v4/dictionaries/import-tbx${query(params)}`, {
    method: 'POST',
    headers: { 'x-auth-token': adminToken },
    body: form,
  });
  const body = (await response.json()) as { result?: Summary; jobTaskId?: number; message?: string };
  if (response.status === 202) {
    const job = await waitForJob(body.jobTaskId!);
    if (job.status !== 'DONE') throw new Error(`import failed: ${job.message}`);
    return job.result as Summary;
  }
  if (response.status !== 200) throw new Error(`import: ${response.status} ${body.message}`);
  return body.result!;
}

/** GET /dictionaries/export-tbx/{id}. */
async function exportTbx(
  id: number,
  params: Record<string, string | number | undefined> = {},
  token = adminToken,
) {
  const response = await fetch(`${server.base}/api/v4/dictionaries/export-tbx/${id}${query(params)}`, {
    headers: token ? { 'x-auth-token': token } : {},
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const count = (text: string, pattern: RegExp) => (text.match(pattern) ?? []).length;

const DCA = `<?xml version="1.0" encoding="UTF-8"?>
<tbx type="TBX-Basic" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2">
 <tbxHeader><fileDesc><titleStmt><title>Round trip</title></titleStmt><sourceDesc><p>test</p></sourceDesc></fileDesc></tbxHeader>
 <text>
  <body>
   <conceptEntry id="c1">
    <descrip type="subjectField">Physics</descrip>
    <descrip type="definition" xml:space="preserve">A unit of force.
Second line &amp; "quotes" &lt;tags&gt;.</descrip>
    <admin type="source">ISO 80000</admin>
    <descrip type="myCustomCategory">custom value</descrip>
    <xref type="externalCrossReference" target="https://example.org/newton">Newton on the web</xref>
    <transacGrp><transac type="transactionType">origination</transac><date>2020-01-02</date></transacGrp>
    <transacGrp><transac type="transactionType">modification</transac><date>2021-03-04T05:06:07Z</date></transacGrp>
    <ref type="crossReference" target="c2">joule</ref>
    <langSec xml:lang="en-US">
     <descrip type="definition">The force that accelerates one kilogram by one metre per second squared.</descrip>
     <termSec>
      <term id="t1">newton</term>
      <termNote type="termType">fullForm</termNote>
      <termNote type="partOfSpeech">noun</termNote>
      <termNote type="administrativeStatus">preferredTerm-admn-sts</termNote>
      <note>SI unit</note>
      <note>second note</note>
     </termSec>
     <termSec>
      <term id="t2">N</term>
      <termNote type="termType">abbreviation</termNote>
     </termSec>
    </langSec>
    <langSec xml:lang="de">
     <termSec><term id="t3">Newton</term><termNote type="grammaticalGender">neuter</termNote><termNote type="partOfSpeech">weirdPos</termNote></termSec>
    </langSec>
    <langSec xml:lang="zh-Hant"><termSec><term>牛頓</term></termSec></langSec>
   </conceptEntry>
   <conceptEntry id="c2">
    <descrip type="subjectField">Physics</descrip>
    <descrip type="subjectField">Energy</descrip>
    <langSec xml:lang="en"><termSec><term id="t4">joule</term><descrip type="context">Work is measured in joules &amp; more.</descrip></termSec></langSec>
   </conceptEntry>
   <conceptEntry id="c3">
    <descrip type="subjectField">Energy</descrip>
    <langSec xml:lang="fr"><termSec><term id="t5">watt</term></termSec></langSec>
    <langSec xml:lang="en"><termSec><term id="t6">watt</term></termSec></langSec>
   </conceptEntry>
  </body>
 </text>
</tbx>
`;

/**
 * A dictionary's content keyed the way it survives a round trip: concepts by entry id, fields by name,
 * domains by name, relations by entry ids, terms in order with language, variants, ids and values.
 */
async function dump(dictionaryId: number) {
  const fields = await rows<{ oid: string; name: string; level: string }>(
    server.t,
    'select oid, name, level from fields where dictionary_id = ? and not deleted',
    [dictionaryId],
  );
  const nameOf = new Map(fields.map((f) => [f.oid, `${f.level}:${f.name}`]));
  const byName = <T>(map: Record<string, T>) =>
    Object.fromEntries(
      Object.entries(map)
        .map(([oid, values]) => [nameOf.get(oid) ?? oid, values] as const)
        .sort(([a], [b]) => a.localeCompare(b)),
    );
  const concepts = await rows<{
    id: number;
    oid: string;
    created_at: Date;
    changed_at: Date;
    field_map: Record<string, string[]>;
    field_parts: Record<string, unknown>;
  }>(
    server.t,
    'select id, oid, created_at, changed_at, field_map, field_parts from concepts where dictionary_id = ? and not deleted',
    [dictionaryId],
  );
  const terms = await rows<{
    concept_id: number;
    name: string;
    language_code: string;
    region_code: string | null;
    script_code: string | null;
    oid: string | null;
    field_map: Record<string, string[]>;
    field_parts: Record<string, unknown>;
  }>(
    server.t,
    `select concept_id, name, language_code, region_code, script_code, oid, field_map, field_parts from terms
      where dictionary_id = ? and not deleted order by concept_id, id`,
    [dictionaryId],
  );
  const domains = await rows<{ concept_id: number; name: string }>(
    server.t,
    `select cd.concept_id, d.name from concept_domains cd join domains d on d.id = cd.domain_id
      where d.dictionary_id = ? order by d.name`,
    [dictionaryId],
  );
  const relations = await rows<{ source: string; target: string; type: number; text: string | null }>(
    server.t,
    `select s.oid as source, t.oid as target, r.type, r.text from concept_relations r
       join concepts s on s.id = r.source_concept_id join concepts t on t.id = r.target_concept_id
      where r.dictionary_id = ? order by s.oid, t.oid`,
    [dictionaryId],
  );
  const result: Record<string, unknown> = {};
  for (const concept of concepts) {
    result[concept.oid] = {
      created: new Date(concept.created_at).toISOString(),
      changed: new Date(concept.changed_at).toISOString(),
      fields: byName(concept.field_map),
      // Links and joined values, kept beside the values (issue 37).
      parts: byName(concept.field_parts),
      domains: domains.filter((d) => d.concept_id === concept.id).map((d) => d.name),
      terms: terms
        .filter((t) => t.concept_id === concept.id)
        .map((t) => ({
          name: t.name,
          lang: [t.language_code, t.region_code, t.script_code].join(';'),
          oid: t.oid,
          fields: byName(t.field_map),
          parts: byName(t.field_parts),
        })),
    };
  }
  return { concepts: result, relations };
}

describe('export', () => {
  let dictionaryId: number;
  beforeAll(async () => {
    dictionaryId = (await importTbx(DCA, { name: `export ${uniqueSuffix()}` })).dictionaryId;
  });

  it('streams TBX-Basic v3 DCA by default as an attachment', async () => {
    const response = await exportTbx(dictionaryId);
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/x-tbx');
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="export [0-9a-f]+\.tbx"/,
    );
    const text = response.text;
    expect(text).toMatch(
      /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<tbx type="TBX-Basic" style="dca" xml:lang="en"/,
    );
    expect(count(text, /<conceptEntry /g)).toBe(3);
    expect(text).toContain('<conceptEntry id="c1">');
    expect(text).toContain('<descrip type="subjectField">Physics</descrip>');
    expect(text).toContain('<ref type="crossReference" target="c2">joule</ref>');
    expect(text).toContain('<langSec xml:lang="en-US">');
    expect(text).toContain('<langSec xml:lang="zh-Hant">');
    expect(text).toContain('<termNote type="administrativeStatus">preferredTerm-admn-sts</termNote>');
    expect(text).toContain(
      '<xref type="externalCrossReference" target="https://example.org/newton">Newton on the web</xref>',
    );
    // The language's definition, shared by all its terms, is written once on langSec.
    expect(count(text, /<descrip type="definition">The force/g)).toBe(1);
    expect(text).toContain('<date>2020-01-02</date>');
    expect(text).toMatch(/<\/tbx>\n$/);
  });

  it('writes TBX v2 (martif, termEntry/langSet/tig) with format=TBX_V2', async () => {
    const response = await exportTbx(dictionaryId, { format: 'TBX_V2' });
    expect(response.status, response.text).toBe(200);
    expect(response.text).toContain('<martif type="TBX-Basic"');
    expect(count(response.text, /<termEntry /g)).toBe(3);
    expect(count(response.text, /<tig>/g)).toBe(7);
    expect(response.text).not.toContain('<conceptEntry');
  });

  it('restricts to languages and fields', async () => {
    const dictionary = await getDictionary(tenantInfo.admin, dictionaryId);
    const definition = dictionary.conceptFields.find((f) => f.name === 'definition')!.oid!;
    const response = await exportTbx(dictionaryId, { languages: 'fra,de', fields: definition });
    expect(response.status, response.text).toBe(200);
    const text = response.text;
    // c2 has neither French nor German terms: it is left out.
    expect(count(text, /<conceptEntry /g)).toBe(2);
    expect(text).toContain('<langSec xml:lang="fr">');
    expect(text).toContain('<langSec xml:lang="de">');
    expect(text).not.toContain('xml:lang="en-US"');
    expect(text).toContain('<descrip type="definition">A unit of force.&#13;\nSecond line');
    expect(text).not.toContain('termType');
    expect(text).not.toContain('type="source"');
  });

  it('restricts to what a filter selects', async () => {
    const dictionary = await getDictionary(tenantInfo.admin, dictionaryId);
    const domains = await fetch(`${server.base}/api/v4/domains?dictionary-id=${dictionaryId}&size=50`, {
      headers: { 'x-auth-token': adminToken },
    });
    const energy = ((await domains.json()) as { content: { name: string; oid: string }[] }).content.find(
      (d) => d.name === 'Energy',
    )!;
    const created = await fetch(`${server.base}/api/v4/filters`, {
      method: 'POST',
      headers: { 'x-auth-token': adminToken, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: `energy ${uniqueSuffix()}`,
        dictionaryId: dictionary.id,
        criteria: { domainOids: [energy.oid], languages: ['eng'] },
      }),
    });
    expect(created.status).toBe(201);
    const filter = (await created.json()) as { id: number };
    const response = await exportTbx(dictionaryId, { 'filter-id': filter.id });
    expect(response.status, response.text).toBe(200);
    expect(count(response.text, /<conceptEntry /g)).toBe(2);
    expect(response.text).toContain('<conceptEntry id="c2">');
    expect(response.text).toContain('<conceptEntry id="c3">');
    // The filter's languages also restrict the terms written.
    expect(response.text).not.toContain('xml:lang="fr"');

    const fieldFilter = await fetch(`${server.base}/api/v4/filters`, {
      method: 'POST',
      headers: { 'x-auth-token': adminToken, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: `noun ${uniqueSuffix()}`,
        dictionaryId: dictionary.id,
        criteria: {
          fieldConditions: [
            {
              fieldOid: dictionary.termFields.find((f) => f.name === 'partOfSpeech')!.oid,
              operator: 'EQUALS',
              value: 'NOUN',
            },
          ],
        },
      }),
    });
    const byField = await exportTbx(dictionaryId, {
      'filter-id': ((await fieldFilter.json()) as { id: number }).id,
    });
    expect(count(byField.text, /<conceptEntry /g)).toBe(1);
    expect(byField.text).toContain('<conceptEntry id="c1">');

    const dateFilter = await fetch(`${server.base}/api/v4/filters`, {
      method: 'POST',
      headers: { 'x-auth-token': adminToken, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: `old ${uniqueSuffix()}`,
        dictionaryId: dictionary.id,
        criteria: { created: { to: '2020-01-02' } },
      }),
    });
    const byDate = await exportTbx(dictionaryId, {
      'filter-id': ((await dateFilter.json()) as { id: number }).id,
    });
    expect(count(byDate.text, /<conceptEntry /g)).toBe(1);
    expect(byDate.text).toContain('<conceptEntry id="c1">');
  });

  it('refuses unknown languages, fields, formats and filters (400)', async () => {
    for (const params of [{ languages: 'xx' }, { fields: 'nope' }, { format: 'PDF' }]) {
      const response = await exportTbx(dictionaryId, params);
      expect(response.status, response.text).toBe(400);
    }
    expect((await exportTbx(dictionaryId, { 'filter-id': 999_999 })).status).toBe(404);
  });

  it('needs CONCEPT_EXPORT (403), hides unreadable dictionaries (404) and needs a token (401)', async () => {
    const [exporter, reader, stranger] = await Promise.all([
      loggedInUser(server.t, tenantInfo.tenant),
      loggedInUser(server.t, tenantInfo.tenant),
      loggedInUser(server.t, tenantInfo.tenant),
    ]);
    const exporters = await groupWith(tenantInfo.admin, [exporter.id]);
    const readers = await groupWith(tenantInfo.admin, [reader.id]);
    const scheme = await createScheme(tenantInfo.admin, [
      grant(exporters.id, ['DICT_READ', 'CONCEPT_EXPORT']),
      grant(readers.id, ['DICT_READ']),
    ]);
    const id = (await importTbx(DCA, { name: `guarded ${uniqueSuffix()}` })).dictionaryId;
    const dictionary: DictionaryBody = await getDictionary(tenantInfo.admin, id);
    const put = await fetch(`${server.base}/api/v4/dictionaries/${id}`, {
      method: 'PUT',
      headers: { 'x-auth-token': adminToken, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: dictionary.name,
        version: dictionary.version,
        permissionSchemeId: scheme.id,
        languages: dictionary.languages.map((l) => ({
          id: l.id,
          code: l.code,
          variants: l.variants.map((v) => ({ id: v.id, type: v.type, code: v.code })),
        })),
        conceptFields: dictionary.conceptFields.map((f) => ({
          id: f.id,
          name: f.name,
          dataCategory: f.dataCategory,
          fieldType: f.fieldType,
          model: f.model,
        })),
        termFields: dictionary.termFields.map((f) => ({
          id: f.id,
          name: f.name,
          dataCategory: f.dataCategory,
          fieldType: f.fieldType,
          model: f.model,
        })),
      }),
    });
    expect(put.status, await put.text()).toBe(200);
    const allowed = await exportTbx(id, {}, exporter.rest.token!);
    expect(allowed.status, allowed.text).toBe(200);
    expect(count(allowed.text, /<conceptEntry /g)).toBe(3);
    expect((await exportTbx(id, {}, reader.rest.token!)).status).toBe(403);
    expect((await exportTbx(id, {}, stranger.rest.token!)).status).toBe(404);
    expect((await exportTbx(id, {}, '')).status).toBe(401);
  });
});

describe('round trip: import -> export -> import', () => {
  it('keeps concepts, terms, field values, domains, relations and times of a hand-written file, in both full dialects', async () => {
    const first = await importTbx(DCA, { name: `trip ${uniqueSuffix()}` });
    expect(first.errors).toEqual([]);
    const original = await dump(first.dictionaryId);
    for (const format of ['TBX_V3_FULL', 'TBX_V2_FULL']) {
      const exported = await exportTbx(first.dictionaryId, { format });
      expect(exported.status).toBe(200);
      const second = await importTbx(exported.text, { name: `trip back ${format} ${uniqueSuffix()}` });
      expect(second.errors).toEqual([]);
      expect(await dump(second.dictionaryId)).toEqual(original);
    }
    // The original's values as the first import stored them (so the comparison above is not of empties).
    expect(original.concepts.c1).toMatchObject({
      created: '2020-01-02T00:00:00.000Z',
      changed: '2021-03-04T05:06:07.000Z',
      fields: {
        'CONCEPT:definition': ['A unit of force.\r\nSecond line & "quotes" <tags>.'],
        // The link is no part of the text (issue 37): it is kept beside it.
        'CONCEPT:externalCrossReference': ['Newton on the web'],
      },
      parts: {
        'CONCEPT:externalCrossReference': [
          {
            stored: 'Newton on the web',
            parts: [{ value: 'Newton on the web', target: 'https://example.org/newton' }],
          },
        ],
      },
    });
    expect(original.relations).toEqual([{ source: 'c1', target: 'c2', type: 4, text: 'joule' }]);
  });

  it('re-imports its own export into the same dictionary without change (merge by entry id)', async () => {
    const first = await importTbx(DCA, { name: `self ${uniqueSuffix()}` });
    const before = await dump(first.dictionaryId);
    const exported = await exportTbx(first.dictionaryId, { format: 'TBX_V3_FULL' });
    const again = await importTbx(exported.text, { 'dictionary-id': first.dictionaryId });
    expect(again).toMatchObject({ concepts: 0, terms: 0, updated: 0, skipped: 3 });
    expect(await dump(first.dictionaryId)).toEqual(before);
  });

  it('keeps everything of sjodyr.tbx', async () => {
    const content = await readFile(`${ICELANDIC_TERM_BANK_DIR}sjodyr.tbx`);
    const first = await importTbx(content, { name: `sjodyr ${uniqueSuffix()}` });
    const original = await dump(first.dictionaryId);
    const started = Date.now();
    const exported = await exportTbx(first.dictionaryId, { format: 'TBX_V3_FULL' });
    const terms = count(exported.text, /<term[ >]/g);
    console.log(`sjodyr export: ${terms} terms in ${Date.now() - started} ms`);
    expect(exported.status).toBe(200);
    const second = await importTbx(exported.text, { name: `sjodyr back ${uniqueSuffix()}` });
    expect(second).toMatchObject({ concepts: 985, terms: 8971, errors: [] });
    expect(await dump(second.dictionaryId)).toEqual(original);
    expect(Object.keys(original.concepts)).toHaveLength(985);
    // Two imports of 8,971 terms: well within 30 s on an idle machine, not on a shared one.
  }, 180_000);
});
