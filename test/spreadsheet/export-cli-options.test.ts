/**
 * The command line's export options `--saved-query` and `--with-files` (docs/exchange.md), run as
 * `npm run tbx` / `npm run skos` would run them (child processes) against a server on a socket: with a
 * saved query only its concepts come out, in every format that takes one (the TBX dialects, MultiTerm
 * XML, CSV, XLSX, SKOS); with files a zip holds the attachment files byte for byte (the TBX dialects) or
 * the termbase definition and the files (MultiTerm XML). One database-mode run checks the option's
 * parsing there too.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { Parser } from 'n3';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Server, startServer } from '../concepts/concept-helpers.js';
import type { RestClient } from '../helpers/rest.js';
import { createDictionary, newTenant } from '../helpers/structure.js';
import { unzip } from '../multiterm/zip-files.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSX = join(ROOT, 'node_modules/.bin/tsx');
/** The environment of a shell: vitest adds Vite's BASE_URL ('/'), which the server's config refuses. */
const { BASE_URL: _vite, ...shellEnv } = process.env;

function cli(script: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      TSX,
      [script, ...args],
      { cwd: ROOT, env: { ...shellEnv, MULTI_TENANT: 'true' }, timeout: 180_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

/** Runs the commands a few at a time (each is a process of its own: tsx, the ORM). */
async function inTurns<T>(jobs: (() => Promise<T>)[], width = 3): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < jobs.length) {
        const index = next++;
        results[index] = await jobs[index]!();
      }
    }),
  );
  return results;
}

const png = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

let server: Server;
let admin: RestClient;
let tenantLogin: string;
let token: string;
let work: string;
let dictionaryId: number;
let savedQueryId: number;
/** The attachments: key -> file name and bytes. */
const files = new Map<string, { name: string; bytes: Buffer }>();
let riverImage: string;
let lakeImage: string;
let termImage: string;

beforeAll(async () => {
  server = await startServer({ ASYNC_THRESHOLD_MS: '0' });
  const created = await newTenant(server.t, server.sysadmin);
  admin = created.admin;
  tenantLogin = created.tenant.loginName;
  token = admin.token!;
  work = await mkdtemp(join(tmpdir(), 'polyterm-export-cli-'));
  const dictionary = await createDictionary(admin, {
    languages: [{ code: 'eng' }, { code: 'isl' }],
    conceptFields: [{ name: 'Illustration', fieldType: 'ATTACHMENT' }],
    termFields: [{ name: 'Term image', fieldType: 'ATTACHMENT' }],
  });
  dictionaryId = dictionary.id;
  const [conceptField, termField] = [dictionary.conceptFields[0]!.oid!, dictionary.termFields[0]!.oid!];
  const upload = async (name: string, bytes: Buffer) => {
    const response = await admin.upload<{ key: string }>(`/attachments?dictionary-id=${dictionaryId}`, {
      content: bytes,
      filename: name,
      contentType: 'image/png',
    });
    expect(response.status, response.text).toBe(201);
    files.set(response.body.key, { name, bytes });
    return response.body.key;
  };
  riverImage = await upload('river.png', await png(24, 16, '#2a7'));
  termImage = await upload('á.png', await png(12, 12, '#27a'));
  lakeImage = await upload('lake.png', await png(16, 24, '#a27'));
  const concept = async (english: string, icelandic: string, fieldMap: object, termMap: object = {}) => {
    const response = await admin.post('/concepts', {
      dictionaryId,
      sectionOid: dictionary.sections[0]!.oid,
      fieldMap,
      terms: [
        { name: english, languageCode: 'eng', fieldMap: termMap },
        { name: icelandic, languageCode: 'isl' },
      ],
    });
    expect(response.status, response.text).toBe(201);
  };
  await concept('river', 'á', { [conceptField]: [riverImage] }, { [termField]: [termImage] });
  await concept('riverbank', 'árbakki', {});
  await concept('lake', 'stöðuvatn', { [conceptField]: [lakeImage] });
  // Prefix "river" in English: river and riverbank, not lake.
  const saved = await admin.put<{ id: number }>('/saved-queries', {
    name: 'Rivers',
    query: `q=river&d=${dictionaryId}&lang=eng&mode=PREFIX`,
  });
  expect(saved.status, saved.text).toBe(200);
  savedQueryId = saved.body.id;
}, 120_000);
afterAll(async () => {
  await server?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

const viaServer = () => ['--server', server.base, '--token', token];

/** The English terms a file of the format holds, read as a user's tool would read it. */
async function englishTerms(format: string, file: string): Promise<string[]> {
  const bytes = await readFile(file);
  if (format === 'CSV') {
    const rows = parse(bytes, { bom: true }) as string[][];
    const column = rows[0]!.indexOf('English');
    return rows.slice(1).map((row) => row[column]!);
  }
  if (format === 'XLSX') {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as never);
    const sheet = workbook.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).indexOf('English');
    const terms: string[] = [];
    sheet.eachRow((row, number) => {
      if (number > 1) terms.push(String(row.getCell(header).value));
    });
    return terms;
  }
  if (format === 'SKOS') {
    return new Parser()
      .parse(bytes.toString('utf8'))
      .filter(
        (q) =>
          q.predicate.value.endsWith('#prefLabel') && (q.object as { language?: string }).language === 'en',
      )
      .map((q) => q.object.value);
  }
  // TBX and MultiTerm XML: the terms of English language sections.
  const text = bytes.toString('utf8');
  const sections =
    format === 'MULTITERM_XML'
      ? /<languageGrp>[\s\S]*?<\/languageGrp>/g
      : /<langSec[\s\S]*?<\/langSec>|<langSet[\s\S]*?<\/langSet>/g;
  return (text.match(sections) ?? [])
    .filter((section) => /lang="(en|EN)[^"]*"|xml:lang="en"/.test(section))
    .flatMap((section) => [...section.matchAll(/<term>([^<]*)<\/term>/g)].map((m) => m[1]!));
}

describe('--saved-query', () => {
  it('writes only the saved query’s concepts, in every format that takes one', {
    timeout: 600_000,
  }, async () => {
    const formats = ['TBX', 'TBX_V2', 'TBX_V3_FULL', 'TBX_V2_FULL', 'MULTITERM_XML', 'CSV', 'XLSX', 'SKOS'];
    const extension: Record<string, string> = { CSV: 'csv', XLSX: 'xlsx', SKOS: 'ttl', MULTITERM_XML: 'xml' };
    // The dictionary holds three concepts (river, riverbank, lake): the saved query finds two.
    const runs = await inTurns(
      formats.map((format) => async () => {
        const out = join(work, `saved-${format}.${extension[format] ?? 'tbx'}`);
        const query = ['--saved-query', String(savedQueryId)];
        const run =
          format === 'SKOS'
            ? await cli('scripts/skos.ts', [
                'export',
                String(dictionaryId),
                '--out',
                out,
                ...query,
                ...viaServer(),
              ])
            : await cli('scripts/tbx.ts', [
                'export',
                String(dictionaryId),
                '--out',
                out,
                '--format',
                format,
                ...query,
                ...viaServer(),
              ]);
        return { format, out, run };
      }),
    );
    for (const { format, out, run } of runs) {
      expect(run.code, `${format}: ${run.stderr}`).toBe(0);
      expect(run.stdout, format).toMatch(/^wrote .*: 2 concepts, 4 terms/m);
      expect((await englishTerms(format, out)).sort(), format).toEqual(['river', 'riverbank']);
    }
  });

  it('takes the saved query in database mode too, and refuses another user’s with the server’s 404', {
    timeout: 300_000,
  }, async () => {
    const out = join(work, 'direct.csv');
    const database = ['--database', inject('databaseUrl'), '--user', 'admin', '--client', tenantLogin];
    const direct = await cli('scripts/tbx.ts', [
      'export',
      String(dictionaryId),
      '--out',
      out,
      '--format',
      'CSV',
      '--saved-query',
      String(savedQueryId),
      ...database,
    ]);
    expect(direct.code, direct.stderr).toBe(0);
    expect((await englishTerms('CSV', out)).sort()).toEqual(['river', 'riverbank']);

    const stranger = await newTenant(server.t, server.sysadmin);
    const theirs = await stranger.admin.put<{ id: number }>('/saved-queries', {
      name: 'Theirs',
      query: 'q=lake',
    });
    const refused = await cli('scripts/tbx.ts', [
      'export',
      String(dictionaryId),
      '--out',
      join(work, 'refused.csv'),
      '--format',
      'CSV',
      '--saved-query',
      String(theirs.body.id),
      ...viaServer(),
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/404 NOT_FOUND/);
  });
});

describe('--with-files', () => {
  it('writes a zip with the document and every attachment file, for each TBX dialect', {
    timeout: 600_000,
  }, async () => {
    const formats = ['TBX', 'TBX_V2', 'TBX_V3_FULL', 'TBX_V2_FULL'];
    const runs = await inTurns(
      formats.map((format) => async () => {
        const out = join(work, `files-${format}.zip`);
        const run = await cli('scripts/tbx.ts', [
          'export',
          String(dictionaryId),
          '--out',
          out,
          '--format',
          format,
          '--with-files',
          ...viaServer(),
        ]);
        return { format, out, run };
      }),
    );
    for (const { format, out, run } of runs) {
      expect(run.code, `${format}: ${run.stderr}`).toBe(0);
      const zip = await unzip(await readFile(out));
      const document = [...zip.keys()].find((name) => name.endsWith('.tbx'));
      expect(document, format).toBeDefined();
      const tbx = zip.get(document!)!.toString('utf8');
      // TBX-Basic carries pictures of concepts and languages only; the full dialects those of terms too.
      const expected = format.endsWith('FULL') ? [riverImage, termImage, lakeImage] : [riverImage, lakeImage];
      for (const key of expected) {
        const { name, bytes } = files.get(key)!;
        expect(zip.get(`files/${key}/${name}`)?.equals(bytes), `${format} ${name}`).toBe(true);
        expect(tbx, format).toContain(`files/${key}/${name}`);
      }
    }
  });

  it('writes MultiTerm XML with its termbase definition and the multimedia files', {
    timeout: 300_000,
  }, async () => {
    const out = join(work, 'files-mtf.zip');
    const run = await cli('scripts/tbx.ts', [
      'export',
      String(dictionaryId),
      '--out',
      out,
      '--format',
      'MULTITERM_XML',
      '--with-files',
      '--saved-query',
      String(savedQueryId),
      ...viaServer(),
    ]);
    expect(run.code, run.stderr).toBe(0);
    const zip = await unzip(await readFile(out));
    const names = [...zip.keys()];
    const xml = zip.get(names.find((name) => name.endsWith('.xml'))!)!.toString('utf8');
    const xdt = zip.get(names.find((name) => name.endsWith('.xdt'))!)!.toString('utf8');
    expect(xml.match(/<conceptGrp>/g)).toHaveLength(2);
    expect(xdt).toMatch(/<Name>Illustration<\/Name>\s*<Type>Multimedia<\/Type>/);
    // The saved query left the lake out, and its picture with it.
    for (const key of [riverImage, termImage]) {
      const { name, bytes } = files.get(key)!;
      const path = names.find((entry) => entry.endsWith(`/${key}/${name}`));
      expect(path, name).toBeDefined();
      expect(zip.get(path!)!.equals(bytes)).toBe(true);
      expect(xml).toContain(`Ulink="${path}"`);
    }
    expect(names.some((entry) => entry.includes(lakeImage))).toBe(false);
  });
});
