// Over 500 lines by design: one area's cases share one test server per file (that keeps CI short); its describe blocks are the chapters.
/**
 * TBX import (docs/tbx.md) over a real socket: the four Icelandic Term Bank files with exact counts,
 * hand-written v2/v3 DCA/DCT files with every mapped data category, merging (ENTRY_ID, TERM, NONE),
 * bad files that change nothing (malformed, wrong root, XXE, too large), permissions and job progress.
 */
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOADS_FOLDER, uploadDirPrefix } from '../../src/modules/tbx/tbx-upload-dir.js';
import { type Api, type Server, startServer } from '../concepts/concept-helpers.js';
import { ICELANDIC_TERM_BANK_DIR } from '../helpers/datasets.js';
import {
  createDictionary,
  createScheme,
  type DictionaryBody,
  getDictionary,
  grant,
  groupWith,
  type JobBody,
  loggedInUser,
  newTenant,
  rows,
  uniqueSuffix,
} from '../helpers/structure.js';

const DATASETS = ICELANDIC_TERM_BANK_DIR.replace(/\/$/, '');
const MAX_FILE_SIZE = 3 * 1024 * 1024;

interface Summary {
  dictionaryId: number;
  concepts: number;
  terms: number;
  updated: number;
  skipped: number;
  errors: { line: number; message: string }[];
  errorCount: number;
}

interface Answer<T = unknown> {
  status: number;
  body: T & { code?: string; message?: string; jobTaskId?: number; result?: unknown };
  text: string;
}

let server: Server;
let admin: Api;
let adminToken: string;
let tenantInfo: Awaited<ReturnType<typeof newTenant>>;

beforeAll(async () => {
  // Every import answers its jobTaskId at once, so the job path (progress, result) is what is tested.
  server = await startServer({ MAX_FILE_SIZE: String(MAX_FILE_SIZE), ASYNC_THRESHOLD_MS: '0' });
  tenantInfo = await newTenant(server.t, server.sysadmin);
  admin = server.api(tenantInfo.admin);
  adminToken = tenantInfo.admin.token!;
});
afterAll(async () => {
  await server?.close();
});

const query = (params: Record<string, string | number | undefined>) => {
  const entries = Object.entries(params).filter(([, v]) => v !== undefined) as [string, string | number][];
  return entries.length ? `?${new URLSearchParams(entries.map(([k, v]) => [k, String(v)])).toString()}` : '';
};

/** POST /dictionaries/import-tbx as multipart over the socket. */
async function upload(
  token: string | undefined,
  content: string | Buffer,
  params: Record<string, string | number | undefined> = {},
): Promise<Answer> {
  const form = new FormData();
  form.append(
    'file',
    new Blob([typeof content === 'string' ? content : new Uint8Array(content)]),
    'terms.tbx',
  );
  const response = await fetch(`${server.base}/api/v4/dictionaries/import-tbx${query(params)}`, {
    method: 'POST',
    headers: token ? { 'x-auth-token': token } : {},
    body: form,
  });
  const text = await response.text();
  const json = (response.headers.get('content-type') ?? '').includes('json') && text !== '';
  return { status: response.status, body: json ? JSON.parse(text) : {}, text };
}

async function waitForJob(token: string, id: number): Promise<JobBody> {
  const api = new (admin.constructor as new (base: string, token?: string) => Api)(server.base, token);
  const deadline = Date.now() + 120_000;
  for (;;) {
    const response = await api.get<JobBody>(`/jobs/${id}`);
    if (response.status !== 200) throw new Error(`job ${id}: ${response.status} ${response.text}`);
    if (response.body.status !== 'RUNNING') return response.body;
    if (Date.now() > deadline) throw new Error(`job ${id} still running`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Uploads and waits for the job; expects it DONE and answers its summary. */
async function importTbx(
  content: string | Buffer,
  params: Record<string, string | number | undefined> = {},
  token = adminToken,
): Promise<{ summary: Summary; job: JobBody }> {
  const answer = await upload(token, content, params);
  expect(answer.status, answer.text).toBe(202);
  const job = await waitForJob(token, answer.body.jobTaskId!);
  expect(job.status, job.message ?? '').toBe('DONE');
  return { summary: job.result as unknown as Summary, job };
}

const dataset = (name: string) => readFile(`${DATASETS}/${name}.tbx`);

/** Nordic and other tags of the Icelandic files -> the ISO 639-2 codes terms carry (independent of the code). */
const CODE_OF_TAG: Record<string, string> = {
  is: 'isl',
  en: 'eng',
  dk: 'dan',
  sf: 'fin',
  no: 'nor',
  nn: 'nno',
  sv: 'swe',
  fo: 'fao',
  gl: 'kal',
  de: 'deu',
  fr: 'fra',
  es: 'spa',
  pt: 'por',
  la: 'lat',
};

/** What a file holds, counted with plain regular expressions (an oracle independent of the reader). */
function countFile(xml: string) {
  const entries = (xml.match(/<termEntry[\s>]/g) ?? []).length;
  const terms: Record<string, number> = {};
  for (const match of xml.matchAll(/<langSet xml:lang="([^"]+)">([\s\S]*?)<\/langSet>/g)) {
    const code = CODE_OF_TAG[match[1]!] ?? match[1]!;
    terms[code] = (terms[code] ?? 0) + (match[2]!.match(/<term[\s>]/g) ?? []).length;
  }
  return { entries, terms };
}

async function countDictionary(dictionaryId: number) {
  const [concepts] = await rows<{ n: number }>(
    server.t,
    'select count(*)::int as n from concepts where dictionary_id = ? and not deleted',
    [dictionaryId],
  );
  const perLanguage = await rows<{ language_code: string; n: number }>(
    server.t,
    'select language_code, count(*)::int as n from terms where dictionary_id = ? and not deleted group by 1',
    [dictionaryId],
  );
  return {
    entries: concepts!.n,
    terms: Object.fromEntries(perLanguage.map((row) => [row.language_code, row.n])),
  };
}

/** Everything a dictionary holds, for "nothing changed" checks. */
async function state(dictionaryId: number) {
  const [row] = await rows<Record<string, number>>(
    server.t,
    `select (select count(*)::int from concepts where dictionary_id = ?) as concepts,
            (select count(*)::int from terms where dictionary_id = ?) as terms,
            (select count(*)::int from fields where dictionary_id = ?) as fields,
            (select count(*)::int from languages where dictionary_id = ?) as languages,
            (select count(*)::int from domains where dictionary_id = ?) as domains,
            (select count(*)::int from concept_history where dictionary_id = ?) as history,
            (select coalesce(sum(version), 0)::int from concepts where dictionary_id = ?) as versions`,
    Array(7).fill(dictionaryId),
  );
  return row!;
}

/** This process's upload directories (src/modules/tbx/tbx-upload-dir.ts). */
const uploadDirectories = async () =>
  (await readdir(join(tmpdir(), UPLOADS_FOLDER)).catch(() => [] as string[])).filter((name) =>
    name.startsWith(uploadDirPrefix()),
  ).length;

// ---------------------------------------------------------------- real data

describe('the Icelandic Term Bank files', () => {
  for (const name of ['fundarordno', 'hugbunadur', 'sjodyr', 'stjornsysla']) {
    it(`imports ${name}.tbx into a new dictionary with the file's counts of concepts and terms per language`, async () => {
      const content = await dataset(name);
      const expected = countFile(content.toString('utf8'));
      const started = Date.now();
      const { summary, job } = await importTbx(content, { name: `${name} ${uniqueSuffix()}` });
      const seconds = (Date.now() - started) / 1000;
      const total = Object.values(expected.terms).reduce((sum, n) => sum + n, 0);
      const jobSeconds = (job.finished! - job.created) / 1000;
      console.log(
        `${name}.tbx: ${total} terms in ${seconds.toFixed(2)} s end to end = ${Math.round(total / seconds)} terms/s; ` +
          `job ${jobSeconds.toFixed(2)} s = ${Math.round(total / jobSeconds)} terms/s`,
      );
      expect(await countDictionary(summary.dictionaryId)).toEqual(expected);
      expect(summary).toMatchObject({ concepts: expected.entries, terms: total, updated: 0, skipped: 0 });
      expect(summary.errors).toEqual([]);
      expect(job).toMatchObject({
        type: 'dictionaries.import-tbx',
        processed: expected.entries,
        total: expected.entries,
      });
      // One CREATE history item per concept.
      const [history] = await rows<{ n: number; creates: number }>(
        server.t,
        `select count(*)::int as n, count(*) filter (where action = 'CREATE')::int as creates
           from concept_history where dictionary_id = ?`,
        [summary.dictionaryId],
      );
      expect(history).toEqual({ n: expected.entries, creates: expected.entries });
    });
  }

  it('adds the languages of the file, reading the Nordic codes (dk, sf, gl) as the Nordic files mean them', async () => {
    const { summary } = await importTbx(await dataset('fundarordno'), { name: `nordic ${uniqueSuffix()}` });
    const dictionary = await getDictionary(tenantInfo.admin, summary.dictionaryId);
    expect(dictionary.languages.map((l) => l.code).sort()).toEqual(
      ['dan', 'fao', 'fin', 'isl', 'kal', 'nno', 'nor', 'swe'].sort(),
    );
  });

  it('keeps synonyms as extra terms with their termType, and entry and term ids as oids', async () => {
    const { summary } = await importTbx(await dataset('sjodyr'), { name: `sjodyr ${uniqueSuffix()}` });
    const dictionary = await getDictionary(tenantInfo.admin, summary.dictionaryId);
    const termType = dictionary.termFields.find((field) => field.dataCategory === 'TERM_TYPE')!;
    expect(termType).toMatchObject({ name: 'termType', fieldType: 'PICKLIST', level: 'TERM' });
    const synonyms = await rows<{ n: number }>(
      server.t,
      `select count(*)::int as n from terms where dictionary_id = ? and field_map -> ? ->> 0 = 'synonym'`,
      [summary.dictionaryId, termType.oid],
    );
    expect(synonyms[0]!.n).toBe(2499);
    const [whale] = await rows<{ oid: string; terms: string[] }>(
      server.t,
      `select c.oid, array_agg(t.name order by t.id) as terms from concepts c join terms t on t.concept_id = c.id
        where c.dictionary_id = ? and c.oid = 'eid-ordabanki-sjodyr-440904' and t.language_code = 'fra' group by c.oid`,
      [summary.dictionaryId],
    );
    expect(whale).toEqual({
      oid: 'eid-ordabanki-sjodyr-440904',
      terms: ['baleine bleue', 'rorqual bleu', 'rorqual de Sibbald'],
    });
    const [term] = await rows<{ n: number }>(
      server.t,
      `select count(*)::int as n from terms where dictionary_id = ? and oid = 'tid-ordabanki-sjodyr-440904-fr1'`,
      [summary.dictionaryId],
    );
    expect(term!.n).toBe(1);
  });
});

// ---------------------------------------------------------------- hand-written files

const DCA = `<?xml version="1.0" encoding="UTF-8"?>
<tbx type="TBX-Basic" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2">
 <tbxHeader>
  <fileDesc><titleStmt><title>Hand-written glossary</title></titleStmt><sourceDesc><p>test</p></sourceDesc></fileDesc>
 </tbxHeader>
 <text>
  <body>
   <conceptEntry id="c1">
    <descrip type="subjectField">Physics</descrip>
    <descrip type="definition">A unit of force.</descrip>
    <admin type="source">ISO 80000</admin>
    <descrip type="myCustomCategory">custom value</descrip>
    <transacGrp><transac type="transactionType">origination</transac><date>2020-01-02</date><transacNote type="responsibility">jane</transacNote></transacGrp>
    <ref type="crossReference" target="c2">joule</ref>
    <langSec xml:lang="en-US">
     <descrip type="definition">The force that accelerates one kilogram by one metre per second squared.</descrip>
     <termSec>
      <term id="t1">newton</term>
      <termNote type="termType">fullForm</termNote>
      <termNote type="partOfSpeech">noun</termNote>
      <termNote type="administrativeStatus">preferredTerm</termNote>
      <note>SI unit</note>
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
  </body>
 </text>
</tbx>
`;

const DCT = `<?xml version="1.0" encoding="UTF-8"?>
<tbx type="TBX-Basic" style="dct" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2" xmlns:basic="http://www.tbxinfo.net/ns/basic">
 <tbxHeader><fileDesc><sourceDesc><p>DCT test</p></sourceDesc></fileDesc></tbxHeader>
 <text>
  <body>
   <conceptEntry id="d1">
    <basic:subjectField>Chemistry</basic:subjectField>
    <langSec xml:lang="en">
     <basic:definition>The liquid H2O.</basic:definition>
     <termSec>
      <term>water</term>
      <basic:partOfSpeech>noun</basic:partOfSpeech>
      <basic:termType>fullForm</basic:termType>
     </termSec>
    </langSec>
   </conceptEntry>
  </body>
 </text>
</tbx>
`;

const V2 = `<?xml version="1.0"?>
<!DOCTYPE martif SYSTEM "TBXcoreStructV02.dtd">
<martif type="TBX" xml:lang="en">
 <martifHeader><fileDesc><sourceDesc><p>v2 quirks</p></sourceDesc></fileDesc></martifHeader>
 <text>
  <body>
   <termEntry id="v1">
    <langSet xml:lang="en-us">
     <ntig><termGrp><term>color</term><termNote type="administrativeStatus">admittedTerm</termNote></termGrp></ntig>
     <tig><term>colour</term><termNote type="termType">synonym</termNote></tig>
    </langSet>
    <langSet xml:lang="zh-cn"><tig><term>颜色</term></tig></langSet>
   </termEntry>
  </body>
 </text>
</martif>
`;

interface ConceptView {
  oid: string | null;
  created: string;
  fields: Record<string, string[]>;
  domains: string[];
  /** Language fields by language tag (`eng-US`), when the concept has any. */
  languages?: Record<string, Record<string, string[]>>;
  terms: {
    name: string;
    lang: string;
    region: string | null;
    script: string | null;
    oid: string | null;
    fields: Record<string, string[]>;
  }[];
}

/** A dictionary's concepts by entry id, with field values keyed by field name. */
async function conceptsOf(dictionaryId: number): Promise<Record<string, ConceptView>> {
  const fields = await rows<{ oid: string; name: string }>(
    server.t,
    'select oid, name from fields where dictionary_id = ? and not deleted',
    [dictionaryId],
  );
  const nameOf = new Map(fields.map((f) => [f.oid, f.name]));
  const byName = (map: Record<string, string[]>) =>
    Object.fromEntries(Object.entries(map).map(([oid, values]) => [nameOf.get(oid) ?? oid, values]));
  const concepts = await rows<{
    id: number;
    oid: string | null;
    created_at: Date;
    field_map: Record<string, string[]>;
  }>(
    server.t,
    'select id, oid, created_at, field_map from concepts where dictionary_id = ? and not deleted order by id',
    [dictionaryId],
  );
  const result: Record<string, ConceptView> = {};
  for (const concept of concepts) {
    const domains = await rows<{ name: string }>(
      server.t,
      'select d.name from concept_domains cd join domains d on d.id = cd.domain_id where cd.concept_id = ? order by d.name',
      [concept.id],
    );
    const terms = await rows<{
      name: string;
      language_code: string;
      region_code: string | null;
      script_code: string | null;
      oid: string | null;
      field_map: Record<string, string[]>;
    }>(
      server.t,
      'select name, language_code, region_code, script_code, oid, field_map from terms where concept_id = ? and not deleted order by id',
      [concept.id],
    );
    const languageRows = await rows<{ tag: string; field_map: Record<string, string[]> }>(
      server.t,
      `select concat_ws('-', language_code, script_code, region_code) as tag, field_map
         from concept_language_fields where concept_id = ? order by 1`,
      [concept.id],
    );
    result[concept.oid ?? `#${concept.id}`] = {
      languages: languageRows.length
        ? Object.fromEntries(languageRows.map((row) => [row.tag, byName(row.field_map)]))
        : undefined,
      oid: concept.oid,
      created: new Date(concept.created_at).toISOString(),
      fields: byName(concept.field_map),
      domains: domains.map((d) => d.name),
      terms: terms.map((t) => ({
        name: t.name,
        lang: t.language_code,
        region: t.region_code,
        script: t.script_code,
        oid: t.oid,
        fields: byName(t.field_map),
      })),
    };
  }
  return result;
}

const lineOf = (text: string, needle: string) => text.slice(0, text.indexOf(needle)).split('\n').length;

describe('hand-written files', () => {
  it('maps every TBX-Basic category of a v3 DCA file: fields by data category, domains, relations, times', async () => {
    const { summary } = await importTbx(DCA, { name: `dca ${uniqueSuffix()}` });
    expect(summary).toMatchObject({ concepts: 2, terms: 5, updated: 0, skipped: 0, errors: [] });
    const dictionary = await getDictionary(tenantInfo.admin, summary.dictionaryId);
    expect(dictionary.name).toMatch(/^dca /);
    const concept = (name: string) => dictionary.conceptFields.find((f) => f.name === name);
    const term = (name: string) => dictionary.termFields.find((f) => f.name === name);
    expect(concept('definition')).toMatchObject({ dataCategory: 'DEFINITION', fieldType: 'MULTILINE' });
    expect(concept('source')).toMatchObject({ dataCategory: 'SOURCE' });
    expect(concept('myCustomCategory')).toMatchObject({ dataCategory: 'GENERIC', fieldType: 'MULTILINE' });
    expect(term('definition')).toMatchObject({ dataCategory: 'DEFINITION', level: 'TERM' });
    expect(term('administrativeStatus')).toMatchObject({
      dataCategory: 'USAGE_STATUS',
      fieldType: 'PICKLIST',
    });
    expect(term('grammaticalGender')).toMatchObject({ dataCategory: 'GRAMMATICAL_GENDER' });
    expect(term('context')).toMatchObject({ dataCategory: 'CONTEXT' });
    expect(term('note')).toMatchObject({ dataCategory: 'GENERIC' });
    // A value outside a TBX picklist becomes an item of it.
    expect(term('partOfSpeech')!.model.picklistItems.map((i) => i.tbxName)).toContain('weirdPos');
    expect(dictionary.languages.map((l) => l.code).sort()).toEqual(['deu', 'eng', 'zho']);
    expect(dictionary.languages.find((l) => l.code === 'eng')!.variants.map((v) => v.code)).toEqual(['US']);
    expect(dictionary.languages.find((l) => l.code === 'zho')!.variants.map((v) => v.code)).toEqual(['hant']);

    const concepts = await conceptsOf(summary.dictionaryId);
    const definition = 'The force that accelerates one kilogram by one metre per second squared.';
    expect(concepts.c1).toEqual({
      oid: 'c1',
      created: '2020-01-02T00:00:00.000Z',
      fields: { definition: ['A unit of force.'], source: ['ISO 80000'], myCustomCategory: ['custom value'] },
      domains: ['Physics'],
      // The language section's definition stays at the language.
      languages: { 'eng-US': { definition: [definition] } },
      terms: [
        {
          name: 'newton',
          lang: 'eng',
          region: 'US',
          script: null,
          oid: 't1',
          fields: {
            termType: ['fullForm'],
            partOfSpeech: ['noun'],
            administrativeStatus: ['preferredTerm-admn-sts'],
            note: ['SI unit'],
          },
        },
        {
          name: 'N',
          lang: 'eng',
          region: 'US',
          script: null,
          oid: 't2',
          fields: { termType: ['abbreviation'] },
        },
        {
          name: 'Newton',
          lang: 'deu',
          region: null,
          script: null,
          oid: 't3',
          fields: { grammaticalGender: ['neuter'], partOfSpeech: ['weirdPos'] },
        },
        { name: '牛頓', lang: 'zho', region: null, script: 'hant', oid: null, fields: {} },
      ],
    });
    expect(concepts.c2!.domains).toEqual(['Energy', 'Physics']);
    expect(concepts.c2!.terms[0]!.fields).toEqual({ context: ['Work is measured in joules & more.'] });

    // crossReference -> one ASSOCIATIVE relation, shown in the CREATE snapshots of both ends.
    const relations = await rows<{
      source: string;
      target: string;
      type: number;
      attribute: number;
      text: string;
    }>(
      server.t,
      `select s.oid as source, t.oid as target, r.type, r.attribute, r.text from concept_relations r
         join concepts s on s.id = r.source_concept_id join concepts t on t.id = r.target_concept_id
        where r.dictionary_id = ?`,
      [summary.dictionaryId],
    );
    expect(relations).toEqual([{ source: 'c1', target: 'c2', type: 4, attribute: 11, text: 'joule' }]);
    const snapshots = await rows<{ oid: string; relations: number }>(
      server.t,
      `select c.oid, jsonb_array_length(h.snapshot -> 'relations')::int as relations
         from concept_history h join concepts c on c.id = h.concept_id where h.dictionary_id = ? and h.action = 'CREATE' order by c.oid`,
      [summary.dictionaryId],
    );
    expect(snapshots).toEqual([
      { oid: 'c1', relations: 1 },
      { oid: 'c2', relations: 1 },
    ]);
  });

  it('reads v3 DCT files (basic: elements)', async () => {
    const { summary } = await importTbx(DCT, { name: `dct ${uniqueSuffix()}` });
    const concepts = await conceptsOf(summary.dictionaryId);
    expect(concepts.d1).toMatchObject({
      domains: ['Chemistry'],
      languages: { eng: { definition: ['The liquid H2O.'] } },
      terms: [
        {
          name: 'water',
          lang: 'eng',
          fields: { partOfSpeech: ['noun'], termType: ['fullForm'] },
        },
      ],
    });
  });

  it('accepts the quirks of v2 files: en-us, zh-cn, ntig, status values without -admn-sts', async () => {
    const { summary } = await importTbx(V2, { name: `v2 ${uniqueSuffix()}` });
    const concepts = await conceptsOf(summary.dictionaryId);
    expect(concepts.v1!.terms).toEqual([
      {
        name: 'color',
        lang: 'eng',
        region: 'US',
        script: null,
        oid: null,
        fields: { administrativeStatus: ['admittedTerm-admn-sts'] },
      },
      {
        name: 'colour',
        lang: 'eng',
        region: 'US',
        script: null,
        oid: null,
        fields: { termType: ['synonym'] },
      },
      { name: '颜色', lang: 'zho', region: 'CN', script: null, oid: null, fields: {} },
    ]);
  });

  it('names a new dictionary after the file title, and refuses a name already taken (422)', async () => {
    const first = await importTbx(DCA);
    const second = await importTbx(DCA);
    const names = [
      (await getDictionary(tenantInfo.admin, first.summary.dictionaryId)).name,
      (await getDictionary(tenantInfo.admin, second.summary.dictionaryId)).name,
    ];
    expect(names[0]).toMatch(/^Hand-written glossary/);
    expect(names[1]).not.toBe(names[0]);
    const clash = await upload(adminToken, DCA, { name: names[0] });
    expect(clash.status, clash.text).toBe(422);
  });

  it('leaves out values the existing fields refuse, counting each with its line', async () => {
    const dictionary = await createDictionary(tenantInfo.admin, {
      languages: [{ code: 'eng' }],
      termFields: [{ name: 'note', fieldType: 'SINGLELINE', model: { maxLen: 3 } }],
      conceptFields: [
        { name: 'Source', dataCategory: 'SOURCE', fieldType: 'SINGLELINE', model: { regExp: '[0-9]+' } },
      ],
    });
    const { summary } = await importTbx(DCA, { 'dictionary-id': dictionary.id });
    expect(summary.concepts).toBe(2);
    expect(summary.errorCount).toBe(2);
    expect(summary.errors).toEqual(
      expect.arrayContaining([
        { line: lineOf(DCA, '<conceptEntry id="c1">'), message: expect.stringContaining('Field "Source"') },
        { line: lineOf(DCA, '<term id="t1">'), message: expect.stringContaining('Field "note"') },
      ]),
    );
    const concepts = await conceptsOf(dictionary.id);
    expect(concepts.c1!.fields.Source).toBeUndefined();
    expect(concepts.c1!.fields.definition).toEqual(['A unit of force.']);
    expect(concepts.c1!.terms[0]!.fields.note).toBeUndefined();
    expect(concepts.c1!.terms[0]!.fields.termType).toEqual(['fullForm']);
  });
});

describe('several values of one category', () => {
  it('joins text values, keeps the first of a single-valued picklist and reports the others', async () => {
    const file = `<?xml version="1.0"?>
<martif type="TBX" xml:lang="en"><martifHeader><fileDesc><sourceDesc><p>many</p></sourceDesc></fileDesc></martifHeader>
<text><body>
<termEntry id="m1"><langSet xml:lang="en"><tig>
<term>thing</term>
<termNote type="termType">fullForm</termNote>
<termNote type="termType">variant</termNote>
<termNote type="termType">fullForm</termNote>
<note>first note</note>
<note>second note</note>
</tig></langSet></termEntry>
</body></text></martif>`;
    const { summary } = await importTbx(file, { name: `many ${uniqueSuffix()}` });
    expect(summary.errors).toEqual([
      { line: lineOf(file, '<term>thing'), message: expect.stringContaining('"variant" is left out') },
    ]);
    const concepts = await conceptsOf(summary.dictionaryId);
    expect(concepts.m1!.terms[0]!.fields).toEqual({
      termType: ['fullForm'],
      note: ['first note\r\n\r\nsecond note'],
    });
  });
});

// ---------------------------------------------------------------- merging

describe('merging into an existing dictionary', () => {
  it('merge=ENTRY_ID (default) updates the concept with the same entry id instead of adding one', async () => {
    const { summary } = await importTbx(DCA, { name: `merge ${uniqueSuffix()}` });
    const id = summary.dictionaryId;
    const before = await state(id);
    const again = await importTbx(DCA, { 'dictionary-id': id });
    expect(again.summary).toMatchObject({ concepts: 0, terms: 0, updated: 0, skipped: 2 });
    expect(await state(id)).toEqual(before);

    const changed = DCA.replace('A unit of force.', 'The SI unit of force.').replace(
      '<langSec xml:lang="de">',
      '<langSec xml:lang="fr"><termSec><term id="t5">newton (fr)</term></termSec></langSec>\n    <langSec xml:lang="de">',
    );
    const third = await importTbx(changed, { 'dictionary-id': id, merge: 'ENTRY_ID' });
    expect(third.summary).toMatchObject({ concepts: 0, terms: 1, updated: 1, skipped: 1 });
    const concepts = await conceptsOf(id);
    expect(Object.keys(concepts).sort()).toEqual(['c1', 'c2']);
    expect(concepts.c1!.fields.definition).toEqual(['The SI unit of force.']);
    expect(concepts.c1!.terms.map((t) => t.name)).toEqual(['newton', 'N', 'Newton', '牛頓', 'newton (fr)']);
    const history = await rows<{ action: string; revision: number; version: number }>(
      server.t,
      `select h.action, h.revision, c.version from concept_history h join concepts c on c.id = h.concept_id
        where c.oid = 'c1' and c.dictionary_id = ? order by h.revision`,
      [id],
    );
    expect(history).toEqual([
      { action: 'CREATE', revision: 1, version: 2 },
      { action: 'UPDATE', revision: 2, version: 2 },
    ]);
    const [relations] = await rows<{ n: number }>(
      server.t,
      'select count(*)::int as n from concept_relations where dictionary_id = ?',
      [id],
    );
    expect(relations!.n).toBe(1);
  });

  it('merges a whole real file again without duplicates', async () => {
    const content = await dataset('hugbunadur');
    const expected = countFile(content.toString('utf8'));
    const { summary } = await importTbx(content, { name: `hugbunadur twice ${uniqueSuffix()}` });
    const again = await importTbx(content, { 'dictionary-id': summary.dictionaryId });
    expect(again.summary).toMatchObject({ concepts: 0, terms: 0, updated: 0, skipped: expected.entries });
    expect(await countDictionary(summary.dictionaryId)).toEqual(expected);
  });

  const apple = (second: string) => `<?xml version="1.0"?>
<martif type="TBX" xml:lang="en"><martifHeader><fileDesc><sourceDesc><p>fruit</p></sourceDesc></fileDesc></martifHeader>
<text><body>
<termEntry><langSet xml:lang="en"><tig><term>apple</term></tig></langSet>${second}</termEntry>
</body></text></martif>`;

  it('merge=TERM updates the concept holding the same term in the same language', async () => {
    const { summary } = await importTbx(
      apple('<langSet xml:lang="de"><tig><term>Apfel</term></tig></langSet>'),
      {
        name: `fruit ${uniqueSuffix()}`,
      },
    );
    const id = summary.dictionaryId;
    const merged = await importTbx(apple('<langSet xml:lang="fr"><tig><term>pomme</term></tig></langSet>'), {
      'dictionary-id': id,
      merge: 'TERM',
    });
    expect(merged.summary).toMatchObject({ concepts: 0, terms: 1, updated: 1 });
    const concepts = Object.values(await conceptsOf(id));
    expect(concepts).toHaveLength(1);
    expect(concepts[0]!.terms.map((t) => `${t.lang}:${t.name}`)).toEqual([
      'eng:apple',
      'deu:Apfel',
      'fra:pomme',
    ]);
  });

  it('merge=NONE always adds new concepts', async () => {
    const { summary } = await importTbx(DCA, { name: `none ${uniqueSuffix()}` });
    const again = await importTbx(DCA, { 'dictionary-id': summary.dictionaryId, merge: 'NONE' });
    expect(again.summary).toMatchObject({ concepts: 2, terms: 5, updated: 0 });
    expect((await state(summary.dictionaryId)).concepts).toBe(4);
  });
});

// ---------------------------------------------------------------- bad files

describe('bad files change nothing', () => {
  let target: number;
  beforeAll(async () => {
    target = (await importTbx(DCA, { name: `target ${uniqueSuffix()}` })).summary.dictionaryId;
  });

  const refused = async (content: string | Buffer, status: number, ...words: string[]) => {
    const before = await state(target);
    const directories = await uploadDirectories();
    const answer = await upload(adminToken, content, { 'dictionary-id': target });
    expect(answer.status, answer.text).toBe(status);
    for (const word of words) expect(answer.body.message, answer.text).toContain(word);
    expect(await state(target)).toEqual(before);
    expect(await uploadDirectories()).toBe(directories);
    return answer;
  };

  it('refuses malformed XML at the end of the file with its line (400), after the valid entries before it', async () => {
    const broken = DCA.replace(
      '  </body>',
      '   <conceptEntry id="c9"><langSec xml:lang="en"><termSec><term>x</term></termSec>\n   </conceptEntry>\n  </body>',
    );
    await refused(broken, 400, `line ${lineOf(broken, '   </conceptEntry>\n  </body>')}`);
  });

  it('refuses a file whose root is not martif or tbx (400)', async () => {
    await refused('<?xml version="1.0"?>\n<html><body><p>hello</p></body></html>', 400, 'line 2');
  });

  it('refuses a DTD with an external entity (no XXE) and never shows the entity', async () => {
    const xxe = `<?xml version="1.0"?>
<!DOCTYPE martif [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<martif type="TBX" xml:lang="en"><text><body><termEntry><langSet xml:lang="en"><tig><term>&xxe;</term></tig></langSet></termEntry></body></text></martif>`;
    const answer = await refused(xxe, 400, 'line');
    expect(answer.text).not.toContain('root:');
  });

  it('refuses an undefined entity (400)', async () => {
    await refused(DCA.replace('joules &amp; more', 'joules &more;'), 400, 'line');
  });

  it('refuses a file over MAX_FILE_SIZE (413), by its Content-Length and while streaming', async () => {
    const padding = (bytes: number) => DCA.replace('<text>', `<!-- ${'x'.repeat(bytes)} -->\n <text>`);
    await refused(padding(MAX_FILE_SIZE + 200_000), 413, 'MAX_FILE_SIZE');
    // Within the multipart allowance of the Content-Length check: the stream itself stops at the limit.
    await refused(padding(MAX_FILE_SIZE + 100), 413, 'MAX_FILE_SIZE');
  });

  it('refuses a request without the file (400)', async () => {
    const response = await fetch(`${server.base}/api/v4/dictionaries/import-tbx?dictionary-id=${target}`, {
      method: 'POST',
      headers: { 'x-auth-token': adminToken, 'content-type': 'application/xml' },
      body: DCA,
    });
    expect(response.status).toBe(400);
    const form = new FormData();
    form.append('other', new Blob([DCA]), 'terms.tbx');
    const missing = await fetch(`${server.base}/api/v4/dictionaries/import-tbx?dictionary-id=${target}`, {
      method: 'POST',
      headers: { 'x-auth-token': adminToken },
      body: form,
    });
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain('member');
  });

  it('refuses a malformed multipart body (400): no boundary, or cut off', async () => {
    const body = `--b\r\ncontent-disposition: form-data; name="file"; filename="t.tbx"\r\n\r\n${DCA}`;
    for (const contentType of ['multipart/form-data', 'multipart/form-data; boundary=b']) {
      const response = await fetch(`${server.base}/api/v4/dictionaries/import-tbx?dictionary-id=${target}`, {
        method: 'POST',
        headers: { 'x-auth-token': adminToken, 'content-type': contentType },
        body,
      });
      expect(response.status, contentType).toBe(400);
      expect(await response.json()).toEqual({
        code: 'BAD_REQUEST',
        message: expect.stringMatching(/multipart body/),
      });
    }
  });
});

// ---------------------------------------------------------------- permissions

describe('permissions', () => {
  let dictionary: DictionaryBody;
  let importer: { id: number; rest: { token?: string } };
  let stranger: { id: number; rest: { token?: string } };
  let plain: { id: number; rest: { token?: string } };

  beforeAll(async () => {
    [importer, stranger, plain] = await Promise.all([
      loggedInUser(server.t, tenantInfo.tenant),
      loggedInUser(server.t, tenantInfo.tenant),
      loggedInUser(server.t, tenantInfo.tenant),
    ]);
    const importers = await groupWith(tenantInfo.admin, [importer.id]);
    const readers = await groupWith(tenantInfo.admin, [plain.id]);
    const scheme = await createScheme(tenantInfo.admin, [
      grant(importers.id, ['DICT_READ', 'CONCEPT_IMPORT']),
      grant(readers.id, ['DICT_READ', 'CONCEPT_EXPORT']),
    ]);
    dictionary = await createDictionary(tenantInfo.admin, { permissionSchemeId: scheme.id });
  });

  it('needs a token (401)', async () => {
    const answer = await upload(undefined, DCA, { 'dictionary-id': dictionary.id });
    expect(answer.status).toBe(401);
  });

  it('lets a user with CONCEPT_IMPORT import into the dictionary', async () => {
    const { summary } = await importTbx(DCA, { 'dictionary-id': dictionary.id }, importer.rest.token!);
    expect(summary).toMatchObject({ dictionaryId: dictionary.id, concepts: 2 });
    // New fields, languages and domains come with the import.
    expect((await getDictionary(tenantInfo.admin, dictionary.id)).languages.length).toBe(3);
  });

  it('refuses a reader without CONCEPT_IMPORT (403) and hides the dictionary from strangers (404)', async () => {
    const before = await state(dictionary.id);
    expect((await upload(plain.rest.token, DCA, { 'dictionary-id': dictionary.id })).status).toBe(403);
    expect((await upload(stranger.rest.token, DCA, { 'dictionary-id': dictionary.id })).status).toBe(404);
    expect(await state(dictionary.id)).toEqual(before);
  });

  it('lets only administrators import into a new dictionary (403)', async () => {
    const answer = await upload(importer.rest.token, DCA, {});
    expect(answer.status, answer.text).toBe(403);
  });

  it('cannot be driven over /trpc with a forged file (the upload must come through the route)', async () => {
    const before = await state(dictionary.id);
    const response = await fetch(`${server.base}/trpc/tbx.importFile`, {
      method: 'POST',
      headers: { 'x-auth-token': adminToken, 'content-type': 'application/json' },
      body: JSON.stringify({
        file: { path: '/etc/passwd', size: 1, fileName: 'x' },
        'dictionary-id': dictionary.id,
      }),
    });
    expect(response.status).toBe(400);
    const exported = await fetch(
      `${server.base}/trpc/tbx.exportFile?input=${encodeURIComponent(JSON.stringify({ id: dictionary.id }))}`,
      { headers: { 'x-auth-token': adminToken } },
    );
    expect(exported.status).toBe(400);
    expect(await state(dictionary.id)).toEqual(before);
  });

  it('refuses an unknown section (400)', async () => {
    const answer = await upload(adminToken, DCA, { 'dictionary-id': dictionary.id, 'section-oid': 'nope' });
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body.message).toContain('section-oid');
  });
});
