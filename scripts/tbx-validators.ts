/**
 * The official TBX validators, for tests and CI: jing (RELAX NG), Saxon-HE with SchXslt (Schematron)
 * fetched from Maven Central with `mvn` into a cache outside the clone, and xmllint (Debian's
 * libxml2-utils) for the v2 DTD. Every run validates many files in one JVM, since starting Java costs
 * far more than validating a file.
 *
 *   npx tsx scripts/tbx-validators.ts fetch                      download, print the cache folder
 *   npx tsx scripts/tbx-validators.ts check <file.tbx>...        validate (v3 or v2 by the root), print errors
 *
 * See docs/tbx.md (Validation).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const JING_VERSION = '20220510';
export const SAXON_VERSION = '12.5';
export const SCHXSLT_VERSION = '1.10.1';

const VERSIONS = `jing-${JING_VERSION}_saxon-${SAXON_VERSION}_schxslt-${SCHXSLT_VERSION}`;

/** `$POLYTERM_CACHE/tbx-validators/<versions>`, else `~/.cache/polyterm/tbx-validators/<versions>`. */
export function tbxValidatorsCacheDir(): string {
  const root =
    process.env.POLYTERM_CACHE ??
    path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'), 'polyterm');
  return path.join(path.resolve(root), 'tbx-validators', VERSIONS);
}

function run(
  command: string,
  args: string[],
  cwd?: string,
): { stdout: string; stderr: string; status: number } {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (result.error) throw new Error(`${command} could not be started: ${result.error.message}`);
  return { stdout: result.stdout, stderr: result.stderr, status: result.status ?? 1 };
}

function mustRun(command: string, args: string[], cwd?: string): string {
  const result = run(command, args, cwd);
  if (result.status !== 0) {
    const output = `${result.stdout}${result.stderr}`.trim().split('\n').slice(-20).join('\n');
    throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status}):\n${output}`);
  }
  return result.stdout;
}

/** Saxon and its xmlresolver in `saxon/`, jing alone in `jing/` (its pom pins an old Saxon we do not want). */
const POM = `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>polyterm</groupId><artifactId>tbx-validators</artifactId><version>1</version>
  <dependencies>
    <dependency><groupId>net.sf.saxon</groupId><artifactId>Saxon-HE</artifactId><version>${SAXON_VERSION}</version></dependency>
  </dependencies>
</project>`;

/**
 * Downloads the jars once (a private folder renamed into place, so concurrent fetches from parallel
 * test files both end with a complete folder) and unpacks SchXslt's XSLT. Returns the cache folder.
 */
export async function fetchTbxValidators(log: (line: string) => void = () => {}): Promise<string> {
  const home = tbxValidatorsCacheDir();
  if (existsSync(path.join(home, 'done'))) return home;
  await mkdir(path.dirname(home), { recursive: true });
  const work = await mkdtemp(path.join(path.dirname(home), `.fetch-${process.pid}-`));
  try {
    log(`fetching Saxon-HE ${SAXON_VERSION}, jing ${JING_VERSION}, SchXslt ${SCHXSLT_VERSION} with mvn`);
    writeFileSync(path.join(work, 'pom.xml'), POM);
    mustRun(
      'mvn',
      ['-B', '-q', 'dependency:copy-dependencies', `-DoutputDirectory=${path.join(work, 'saxon')}`],
      work,
    );
    for (const [artifact, dir] of [
      [`org.relaxng:jing:${JING_VERSION}`, 'jing'],
      [`name.dmaus.schxslt:schxslt:${SCHXSLT_VERSION}`, 'schxslt'],
    ] as const) {
      mustRun('mvn', [
        '-B',
        '-q',
        'dependency:copy',
        `-Dartifact=${artifact}`,
        `-DoutputDirectory=${path.join(work, dir)}`,
      ]);
    }
    const schxsltJar = path.join(work, 'schxslt', `schxslt-${SCHXSLT_VERSION}.jar`);
    mustRun('unzip', ['-q', schxsltJar, 'xslt/*', '-d', path.join(work, 'schxslt')]);
    writeFileSync(path.join(work, 'done'), `${VERSIONS}\n`);
    try {
      await rename(work, home);
    } catch (error) {
      if (!existsSync(path.join(home, 'done'))) throw error;
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return home;
}

export interface ValidationError {
  file: string;
  line?: number;
  message: string;
}

function classpath(dir: string): string {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jar'))
    .map((name) => path.join(dir, name))
    .join(':');
}

/** `file:line:column: error: message` lines of jing and xmllint. */
function parseLines(output: string, files: string[]): ValidationError[] {
  const errors: ValidationError[] = [];
  for (const line of output.split('\n')) {
    const file = files.find((candidate) => line.startsWith(`${candidate}:`));
    if (!file) continue;
    const rest = line.slice(file.length + 1);
    const match = /^(\d+):(?:\d+:)?\s*(.*)$/.exec(rest);
    if (/^\d+: (?:parser )?warning\b/.test(rest)) continue;
    if (match) errors.push({ file, line: Number(match[1]), message: match[2] ?? '' });
    else if (!/validates$|warning:/.test(rest)) errors.push({ file, message: rest.trim() });
  }
  return errors;
}

/**
 * RELAX NG (XML syntax) with jing: all files in one JVM. Jing would load a file's external DTD (v2 files
 * name `TBXcoreStructV02.dtd`), so it reads copies whose DOCTYPE is blanked out, line breaks kept.
 */
export async function validateRelaxNg(schema: string, files: string[]): Promise<ValidationError[]> {
  if (files.length === 0) return [];
  const home = await fetchTbxValidators();
  const work = await mkdtemp(path.join(tmpdir(), 'polyterm-rng-'));
  try {
    const copies = files.map((file, index) => {
      const copy = path.join(work, `${index}.xml`);
      const text = readFileSync(file, 'utf8').replace(/<!DOCTYPE[^>[]*>/, (doctype) =>
        doctype.replace(/[^\n]/g, ' '),
      );
      writeFileSync(copy, text);
      return copy;
    });
    const result = run('java', [
      '-cp',
      classpath(path.join(home, 'jing')),
      'com.thaiopensource.relaxng.util.Driver',
      schema,
      ...copies,
    ]);
    const errors = parseLines(`${result.stdout}\n${result.stderr}`, copies).map((error) => ({
      ...error,
      file: files[copies.indexOf(error.file)] as string,
    }));
    if (result.status !== 0 && errors.length === 0) {
      throw new Error(`jing failed (exit ${result.status}): ${result.stdout}${result.stderr}`);
    }
    return errors;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** A DTD with xmllint (`--dtdvalid`, so the files' own DOCTYPE is never fetched): all files in one run. */
export function validateDtd(dtd: string, files: string[]): ValidationError[] {
  if (files.length === 0) return [];
  const result = run('xmllint', ['--noout', '--nonet', '--dtdvalid', dtd, ...files]);
  const errors = parseLines(result.stderr, files);
  if (result.status !== 0 && errors.length === 0) {
    throw new Error(`xmllint failed (exit ${result.status}): ${result.stderr}`);
  }
  return errors;
}

/** The Schematron compiled to XSLT by SchXslt, cached by the schema's content. */
async function compiledSchematron(home: string, schema: string): Promise<string> {
  const hash = createHash('sha256').update(readFileSync(schema)).digest('hex').slice(0, 16);
  const compiled = path.join(home, 'compiled', `${path.basename(schema, '.sch')}-${hash}.xsl`);
  if (existsSync(compiled)) return compiled;
  await mkdir(path.dirname(compiled), { recursive: true });
  const partial = `${compiled}.${process.pid}.tmp`;
  mustRun('java', [
    '-cp',
    classpath(path.join(home, 'saxon')),
    'net.sf.saxon.Transform',
    `-xsl:${path.join(home, 'schxslt', 'xslt', '2.0', 'pipeline-for-svrl.xsl')}`,
    `-s:${schema}`,
    `-o:${partial}`,
  ]);
  await rename(partial, compiled);
  return compiled;
}

/**
 * Schematron (XSLT 2 binding) with Saxon-HE and SchXslt: the files are linked into one folder and
 * transformed in one JVM; each failed assert or successful report of the SVRL output is an error.
 */
export async function validateSchematron(schema: string, files: string[]): Promise<ValidationError[]> {
  if (files.length === 0) return [];
  const home = await fetchTbxValidators();
  const xsl = await compiledSchematron(home, schema);
  const work = await mkdtemp(path.join(tmpdir(), 'polyterm-sch-'));
  try {
    const input = path.join(work, 'in');
    const output = path.join(work, 'out');
    await mkdir(input);
    await mkdir(output);
    const names = files.map((_file, index) => `${index}.xml`);
    files.forEach((file, index) => {
      writeFileSync(path.join(input, names[index] as string), readFileSync(file));
    });
    mustRun('java', [
      '-cp',
      classpath(path.join(home, 'saxon')),
      'net.sf.saxon.Transform',
      `-xsl:${xsl}`,
      `-s:${input}`,
      `-o:${output}`,
    ]);
    const errors: ValidationError[] = [];
    files.forEach((file, index) => {
      const svrl = readFileSync(path.join(output, names[index] as string), 'utf8');
      const pattern =
        /<svrl:(failed-assert|successful-report)\b[^>]*?location="([^"]*)"[^>]*>[\s\S]*?<svrl:text>([\s\S]*?)<\/svrl:text>/g;
      for (const match of svrl.matchAll(pattern)) {
        errors.push({ file, message: `${match[3]?.trim()} (at ${match[2]})` });
      }
    });
    return errors;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

const SCHEMAS = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'shared',
  'tbx-schemas',
);

/**
 * Every validation a TBX file must pass (docs/tbx.md, Validation): v3 the core RELAX NG and, when it calls
 * itself TBX-Basic, the TBX-Basic DCA Schematron; v2 the core DTD and, when TBX-Basic, the TBX-Basic v2
 * RELAX NG.
 */
export async function validateTbxFiles(
  files: string[],
  schemas: string = SCHEMAS,
): Promise<ValidationError[]> {
  const roots = new Map(
    files.map((file) => [
      file,
      /<(tbx|martif)\b[^>]*>/.exec(readFileSync(file, 'utf8').slice(0, 4000))?.[0] ?? '',
    ]),
  );
  const v3 = files.filter((file) => roots.get(file)?.startsWith('<tbx'));
  const v2 = files.filter((file) => !v3.includes(file));
  const basic = (file: string) => /\btype="TBX-Basic"/.test(roots.get(file) ?? '');
  return [
    ...(await validateRelaxNg(path.join(schemas, 'v3', 'TBXcoreStructV03.rng'), v3)),
    ...(await validateSchematron(path.join(schemas, 'v3', 'TBX-Basic_DCA.sch'), v3.filter(basic))),
    ...validateDtd(path.join(schemas, 'v2', 'TBXcoreStructV02.dtd'), v2),
    ...(await validateRelaxNg(path.join(schemas, 'v2', 'TBXBasicRNGV02.rng'), v2.filter(basic))),
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const [command, ...args] = process.argv.slice(2);
  if (command === 'fetch') {
    console.log(await fetchTbxValidators((line) => console.error(line)));
  } else if (command === 'check') {
    const errors = await validateTbxFiles(args.map((file) => path.resolve(file)));
    for (const error of errors) console.log(`${error.file}:${error.line ?? ''}: ${error.message}`);
    console.log(`${errors.length} errors`);
    process.exitCode = errors.length > 0 ? 1 : 0;
  } else {
    console.error('usage: tbx-validators.ts fetch | check <file.tbx>...');
    process.exitCode = 2;
  }
}
