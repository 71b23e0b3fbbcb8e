/**
 * `npm run tbx` (scripts/tbx.ts) as a child process, in both modes: directly in the database
 * (--database URL --user NAME --client LOGIN, no password) and through a server listening on a socket.
 * The database mode must leave the user's file alone, refuse what the server refuses, and refuse a
 * database whose migrations are not this version's.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readTbx } from '../../src/modules/tbx/tbx-reader.js';
import { UPLOADS_FOLDER } from '../../src/modules/tbx/tbx-upload-dir.js';
import { type Server, startServer } from '../concepts/concept-helpers.js';
import { createUser, type TestTenant } from '../factories/tenant.js';
import { ICELANDIC_TERM_BANK_DIR } from '../helpers/datasets.js';
import { newTenant, rows, uniqueSuffix } from '../helpers/structure.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const SJODYR = `${ICELANDIC_TERM_BANK_DIR}sjodyr.tbx`;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  pid: number;
}

/** The environment of a shell: vitest adds Vite's BASE_URL ('/'), which the server's config refuses. */
const { BASE_URL: _vite, ...shellEnv } = process.env;

/** Runs the CLI from the checkout, as `npm run tbx -- ...` would. */
function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      TSX,
      ['scripts/tbx.ts', ...args],
      { cwd: ROOT, env: { ...shellEnv, MULTI_TENANT: 'true', ...env }, timeout: 120_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr, pid: child.pid! });
      },
    );
  });
}

let server: Server;
let tenant: TestTenant;
let adminToken: string;
let databaseUrl: string;
let work: string;

/** Acting as the tenant's administrator directly in the test database. */
const direct = (...args: string[]) => [
  ...args,
  '--database',
  databaseUrl,
  '--user',
  'admin',
  '--client',
  tenant.loginName,
];

beforeAll(async () => {
  // The server answers every import with its job at once, so the server mode follows the job too.
  server = await startServer({ ASYNC_THRESHOLD_MS: '0' });
  const created = await newTenant(server.t, server.sysadmin);
  tenant = created.tenant;
  adminToken = created.admin.token!;
  databaseUrl = inject('databaseUrl');
  work = await mkdtemp(join(tmpdir(), 'polyterm-cli-test-'));
});
afterAll(async () => {
  await server?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** Entries and terms of a TBX file, read by the reader the import uses. */
async function contents(file: string) {
  let entries = 0;
  const terms: string[] = [];
  for await (const entry of readTbx([await readFile(file)])) {
    entries++;
    for (const language of entry.languages) for (const term of language.terms) terms.push(term.term);
  }
  return { entries, terms: terms.sort() };
}

async function stored(dictionaryId: number) {
  const [concepts] = await rows<{ n: number }>(
    server.t,
    'select count(*)::int as n from concepts where dictionary_id = ? and not deleted',
    [dictionaryId],
  );
  const terms = await rows<{ name: string }>(
    server.t,
    'select name from terms where dictionary_id = ? and not deleted',
    [dictionaryId],
  );
  return { concepts: concepts!.n, terms: terms.map((term) => term.name).sort() };
}

const SUMMARY = /^dictionary (\d+): (\d+) concepts, (\d+) terms$/m;

// Each run starts a process (tsx, the ORM): a few seconds.
describe('database mode (--database)', { timeout: 90_000 }, () => {
  let dictionaryId: number;

  it('imports a file with the same summary as the server mode, and leaves the file where it was', async () => {
    const expected = await contents(SJODYR);
    const before = await stat(SJODYR);
    const run = await cli(direct('import', SJODYR, '--name', `cli sjodyr ${uniqueSuffix()}`));
    expect(run.code, run.stderr).toBe(0);
    const [, id, concepts, terms] = SUMMARY.exec(run.stdout) ?? [];
    expect(Number(concepts)).toBe(expected.entries);
    expect(Number(terms)).toBe(expected.terms.length);
    expect(run.stdout).toContain('updated 0, skipped 0, errors 0');
    dictionaryId = Number(id);
    expect(await stored(dictionaryId)).toEqual({ concepts: expected.entries, terms: expected.terms });

    // The user's file is untouched; the upload directory of the run is gone.
    const after = await stat(SJODYR);
    expect({ size: after.size, mtime: after.mtimeMs }).toEqual({ size: before.size, mtime: before.mtimeMs });
    const left = await readdir(join(tmpdir(), UPLOADS_FOLDER)).catch(() => []);
    expect(left.filter((name) => name.includes(`-${run.pid}-`))).toEqual([]);
    // The job is the acting user's, and the session opened for the run is ended.
    const [job] = await rows<{ status: string; processed: number; user: string }>(
      server.t,
      `select j.status, j.processed, u.username as user from job_tasks j join users u on u.id = j.user_id
        where j.client_id = ? and j.type = 'dictionaries.import-tbx' order by j.id desc limit 1`,
      [tenant.id],
    );
    expect(job).toEqual({ status: 'DONE', processed: expected.entries, user: 'admin' });
    const [open] = await rows<{ n: number }>(
      server.t,
      'select count(*)::int as n from sessions where client_id = ? and ip_address is null and ended_at is null',
      [tenant.id],
    );
    expect(open!.n).toBe(0);
  });

  it('exports the dictionary to --out: a TBX file with the same terms', async () => {
    const out = join(work, 'direct.tbx');
    const run = await cli(direct('export', String(dictionaryId), '--out', out));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`wrote ${out}`);
    const exported = await contents(out);
    const inDatabase = await stored(dictionaryId);
    expect(exported).toEqual({ entries: inDatabase.concepts, terms: inDatabase.terms });

    const v2 = join(work, 'direct-v2.tbx');
    const onlyIcelandic = await cli(
      direct('export', String(dictionaryId), '--out', v2, '--format', 'TBX_V2', '--languages', 'isl'),
    );
    expect(onlyIcelandic.code, onlyIcelandic.stderr).toBe(0);
    const text = await readFile(v2, 'utf8');
    expect(text).toContain('<martif');
    expect(text).toContain('<langSet xml:lang="is"');
    expect(text).not.toContain('<langSet xml:lang="en"');
  });

  it('maps administrative statuses with --status-mapping, writes them back, and refuses an unknown one', async () => {
    const file = join(work, 'statuses.tbx');
    await writeFile(
      file,
      `<?xml version="1.0" encoding="UTF-8"?>
<martif type="TBX" xml:lang="en"><martifHeader><fileDesc><sourceDesc><p>statuses</p></sourceDesc></fileDesc></martifHeader>
<text><body><termEntry id="f1"><langSet xml:lang="en"><tig><term>blacklist</term>
<termNote type="administrativeStatus">deprecatedTerm-admn-sts</termNote></tig></langSet></termEntry></body></text></martif>
`,
    );
    const mapping = ['--status-mapping', 'deprecatedTerm:forbidden'];
    const run = await cli(direct('import', file, '--name', `cli statuses ${uniqueSuffix()}`, ...mapping));
    expect(run.code, run.stderr).toBe(0);
    const id = Number(SUMMARY.exec(run.stdout)?.[1]);
    const [term] = await rows<{ values: string[] }>(
      server.t,
      'select array(select jsonb_array_elements_text(v) from jsonb_each(field_map) as e(k, v)) as values from terms where dictionary_id = ?',
      [id],
    );
    expect(term!.values).toEqual(['forbiddenTerm-admn-sts']);
    const out = join(work, 'statuses-out.tbx');
    const exported = await cli(direct('export', String(id), '--out', out));
    expect(exported.code, exported.stderr).toBe(0);
    expect(await readFile(out, 'utf8')).toContain('>deprecatedTerm-admn-sts<');

    const bad = await cli(direct('import', file, '--status-mapping', 'deprecatedTerm:banned'));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--status-mapping: "banned" is not a term status');
  });

  it('refuses what the server refuses, with its message, and never deletes the file', async () => {
    const bad = join(FIXTURES, 'bad-malformed.tbx');
    const malformed = await cli(direct('import', bad, '--dictionary', String(dictionaryId)));
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toMatch(/^Import failed: BAD_REQUEST: Not a valid TBX file: line \d+/m);
    expect((await stat(bad)).isFile()).toBe(true);

    // A user without the administrator role may not make a new dictionary (the service's own check).
    const user = await createUser(server.t.orm, tenant.id);
    const plain = await cli([
      'import',
      join(FIXTURES, 'v3-dca.tbx'),
      '--database',
      databaseUrl,
      '--user',
      user.username,
      '--client',
      tenant.loginName,
    ]);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toContain(
      'Import failed: FORBIDDEN: Only administrators import into a new dictionary',
    );

    const stranger = await cli(direct('export', '999999999', '--out', join(work, 'none.tbx')));
    expect(stranger.code).toBe(1);
    expect(stranger.stderr).toContain('Export failed: NOT_FOUND');

    const nobody = await cli([
      'import',
      bad,
      '--database',
      databaseUrl,
      '--user',
      'nobody',
      '--client',
      tenant.loginName,
    ]);
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toContain(`No user "nobody" in client "${tenant.loginName}"`);

    const mixed = await cli(direct('import', bad, '--token', 'x'));
    expect(mixed.code).toBe(1);
    expect(mixed.stderr).toContain('belong to the server mode');
  });

  it('refuses a database without this version’s migrations instead of migrating it', async () => {
    const name = `polyterm_cli_${Date.now()}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    const url = new URL(databaseUrl);
    url.pathname = `/${name}`;
    try {
      const empty = await cli(['import', SJODYR, '--database', url.toString(), '--user', 'admin']);
      expect(empty.code).toBe(1);
      expect(empty.stderr).toContain('The database has no Polyterm tables');

      const partial = new pg.Client({ connectionString: url.toString() });
      await partial.connect();
      await partial.query(
        `create table mikro_orm_migrations (id serial primary key, name varchar(255), executed_at timestamptz);
         insert into mikro_orm_migrations (name, executed_at) values ('Migration20261121054202_platform', now())`,
      );
      await partial.end();
      const behind = await cli(['import', SJODYR, '--database', url.toString(), '--user', 'admin']);
      expect(behind.code).toBe(1);
      expect(behind.stderr).toMatch(/The database lacks \d+ migration\(s\) of this version/);
    } finally {
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    }
  });
});

describe('server mode (--server)', { timeout: 90_000 }, () => {
  it('imports through the REST route with the job’s progress, and exports to --out', async () => {
    const file = join(FIXTURES, 'v3-dca.tbx');
    const expected = await contents(file);
    const run = await cli([
      'import',
      file,
      '--name',
      `cli server ${uniqueSuffix()}`,
      '--server',
      server.base,
      '--user',
      'admin',
      '--password',
      tenant.adminPassword,
      '--client',
      tenant.loginName,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const [, id, concepts, terms] = SUMMARY.exec(run.stdout) ?? [];
    expect({ concepts: Number(concepts), terms: Number(terms) }).toEqual({
      concepts: expected.entries,
      terms: expected.terms.length,
    });
    expect(run.stdout).toMatch(/^updated 0, skipped 0, errors \d+$/m);
    expect(await stored(Number(id))).toEqual({ concepts: expected.entries, terms: expected.terms });

    const out = join(work, 'server.tbx');
    const exported = await cli(['export', id!, '--out', out, '--server', server.base, '--token', adminToken]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(await contents(out)).toEqual(expected);

    const refused = await cli([
      'export',
      id!,
      '--out',
      out,
      '--server',
      server.base,
      '--token',
      'not-a-token',
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^Export failed: 401 UNAUTHORIZED: /m);
  });
});

describe('mappings on the command line', { timeout: 120_000 }, () => {
  const MULTITERM = fileURLToPath(new URL('../multiterm/fixtures/', import.meta.url));

  it('previews a CSV, imports it by the edited --mapping, and exports synonyms in columns (server mode)', async () => {
    const sheet = join(work, 'glossary.csv');
    await writeFile(sheet, 'English;German;Note\r\n"valve; cock";Ventil;keep out\r\npump;Pumpe;\r\n');
    const server$ = ['--server', server.base, '--token', adminToken];
    const previewed = await cli(['preview', sheet, '--out', join(work, 'preview.json'), ...server$]);
    expect(previewed.code, previewed.stderr).toBe(0);
    const { mapping } = JSON.parse(await readFile(join(work, 'preview.json'), 'utf8')) as {
      mapping: { columns: { role: string }[] };
    };
    expect(mapping.columns.map((column) => column.role)).toEqual(['term', 'term', 'conceptField']);
    mapping.columns[2] = { role: 'ignore' };
    await writeFile(join(work, 'mapping.json'), JSON.stringify(mapping));
    const run = await cli([
      'import',
      sheet,
      '--mapping',
      join(work, 'mapping.json'),
      '--name',
      `cli sheet ${uniqueSuffix()}`,
      ...server$,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const [, id, concepts, terms] = SUMMARY.exec(run.stdout) ?? [];
    expect([Number(concepts), Number(terms)]).toEqual([2, 5]);
    const out = join(work, 'columns.csv');
    const exported = await cli([
      'export',
      id!,
      '--format',
      'CSV',
      '--synonyms',
      'COLUMNS',
      '--out',
      out,
      ...server$,
    ]);
    expect(exported.code, exported.stderr).toBe(0);
    const header = (await readFile(out, 'utf8')).replace(/^\uFEFF/, '').split('\r\n')[0];
    expect(header).toBe('ID,Domain,English,English,German');
  });

  it('previews MultiTerm XML with its .xdt and imports by the edited --field-mapping (database mode)', async () => {
    const xml = join(MULTITERM, 'maschinenbau.xml');
    const xdt = join(MULTITERM, 'maschinenbau.xdt');
    const previewed = await cli(direct('preview', xml, '--definition', xdt));
    expect(previewed.code, previewed.stderr).toBe(0);
    const { mapping } = JSON.parse(previewed.stdout) as { mapping: { name: string; field: string | null }[] };
    const edited = mapping.map((entry) => (entry.name === 'Kunde' ? { ...entry, field: null } : entry));
    await writeFile(join(work, 'fields.json'), JSON.stringify(edited));
    const run = await cli(
      direct(
        'import',
        xml,
        '--definition',
        xdt,
        '--field-mapping',
        join(work, 'fields.json'),
        '--name',
        `cli mtf ${uniqueSuffix()}`,
      ),
    );
    expect(run.code, run.stderr).toBe(0);
    const [, id, concepts, terms] = SUMMARY.exec(run.stdout) ?? [];
    expect([Number(concepts), Number(terms)]).toEqual([2, 6]);
    const fields = await rows<{ name: string }>(server.t, 'select name from fields where dictionary_id = ?', [
      Number(id),
    ]);
    expect(fields.map((field) => field.name)).not.toContain('Kunde');
    const languages = await rows<{ code: string }>(
      server.t,
      'select code from languages where dictionary_id = ? order by code',
      [Number(id)],
    );
    expect(languages.map((language) => language.code)).toEqual(['deu', 'eng', 'fra']);
  });
});
