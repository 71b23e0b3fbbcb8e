/**
 * Every export of every sample file passes the official validators (docs/tbx.md, Validation): v3 the
 * core RELAX NG (and, when it calls itself TBX-Basic, the TBX-Basic DCA Schematron), v2 the core DTD and
 * the TBX-Basic v2 RELAX NG. The validators are the real ones (scripts/tbx-validators.ts), one JVM per
 * validator for all the files.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateTbxFiles } from '../../scripts/tbx-validators.js';
import { type Server, startServer } from '../concepts/concept-helpers.js';
import { newTenant } from '../helpers/structure.js';
import { SAMPLE_FILES, TBX_SCHEMAS_DIR, TbxClient } from './tbx-sample-files.js';

const FORMATS = ['TBX', 'TBX_V2', 'TBX_V3_FULL', 'TBX_V2_FULL'] as const;

const BAD_FILES = {
  'bad-v3.tbx': `<?xml version="1.0" encoding="UTF-8"?>
<tbx type="TBX-Basic" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2">
 <tbxHeader><fileDesc><sourceDesc><p>bad</p></sourceDesc></fileDesc></tbxHeader>
 <text><body><conceptEntry id="c1"><descrip type="myCategory" xml:space="preserve">x</descrip>
  <langSec xml:lang="en"><termSec><term>t</term></termSec></langSec></conceptEntry></body></text>
</tbx>
`,
  'bad-v2.tbx': `<?xml version="1.0" encoding="UTF-8"?>
<martif type="TBX-Basic" xml:lang="en">
 <martifHeader><fileDesc><sourceDesc><p>bad</p></sourceDesc></fileDesc></martifHeader>
 <text><body><termEntry id="1"><langSet xml:lang="en"><tig><term>t</term>
  <transacGrp><transac type="transactionType">origination</transac><date>2020-01-02T03:04:05Z</date></transacGrp>
 </tig></langSet></termEntry></body></text>
</martif>
`,
};

let server: Server;
let client: TbxClient;
let outDir: string;

beforeAll(async () => {
  server = await startServer();
  const tenant = await newTenant(server.t, server.sysadmin);
  client = new TbxClient(server, tenant.admin.token!);
  // TBX_EXPORT_DIR keeps the exports for a look (the folder is then left in place).
  outDir = process.env.TBX_EXPORT_DIR ?? (await mkdtemp(path.join(tmpdir(), 'polyterm-tbx-valid-')));
}, 120_000);
afterAll(async () => {
  await server?.close();
  if (outDir && !process.env.TBX_EXPORT_DIR) await rm(outDir, { recursive: true, force: true });
});

describe('exports of every sample file validate', () => {
  it('0 errors from jing, SchXslt and xmllint', async () => {
    expect(SAMPLE_FILES.length).toBeGreaterThanOrEqual(11);
    const exported: string[] = [];
    for (const file of SAMPLE_FILES) {
      const name = path.basename(file, '.tbx');
      const summary = await client.importNew(readFileSync(file), name);
      for (const format of FORMATS) {
        const out = path.join(outDir, `${name}.${format}.tbx`);
        writeFileSync(out, await client.export(summary.dictionaryId, format));
        exported.push(out);
      }
    }
    // Files each validator must refuse, checked in the same runs: the validators are really at work.
    const bad = Object.entries(BAD_FILES).map(([name, text]) => {
      const file = path.join(outDir, name);
      writeFileSync(file, text);
      return file;
    });
    const all = await validateTbxFiles([...exported, ...bad], TBX_SCHEMAS_DIR);
    const errors = all.filter((error) => !bad.includes(error.file));
    const perFile = new Map<string, number>();
    for (const error of errors) perFile.set(error.file, (perFile.get(error.file) ?? 0) + 1);
    for (const file of exported) console.log(`${path.basename(file)}: ${perFile.get(file) ?? 0} errors`);
    expect(
      errors
        .slice(0, 40)
        .map((error) => `${path.basename(error.file)}:${error.line ?? ''}: ${error.message}`),
    ).toEqual([]);
    const badErrors = (name: string) =>
      all.filter((error) => path.basename(error.file) === name).map((error) => error.message);
    // jing (core RNG): xml:space; SchXslt (DCA Schematron): a custom category.
    expect(badErrors('bad-v3.tbx')).toEqual(
      expect.arrayContaining([
        expect.stringContaining('attribute "xml:space" not allowed'),
        expect.stringContaining('Permitted type value(s): subjectField, context, definition'),
      ]),
    );
    // xmllint (core DTD): an id starting with a digit; jing (TBX-Basic v2 RNG): a date-time in <date>.
    expect(badErrors('bad-v2.tbx')).toEqual(
      expect.arrayContaining([
        expect.stringContaining('Syntax of value for attribute id'),
        expect.stringContaining('must be an ISO date'),
      ]),
    );
  }, 600_000);
});
