/**
 * `npm run tbx -- ... --database URL`: the import and export services the REST routes call, run in this
 * process on the database, as the given user. Inputs pass the procedures' own schemas, so they are read
 * and refused as over REST; the import runs as a job (its row shows the progress) like on the server.
 */
import { copyFile, link, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import type { z } from 'zod';
import { type Config, loadConfig } from '../../src/config.js';
import type { MikroORM } from '../../src/db/orm.js';
import { JobHeartbeat } from '../../src/modules/jobs/job-heartbeat.js';
import { JobTask } from '../../src/modules/jobs/job-task.entity.js';
import { previewMultiTerm } from '../../src/modules/multiterm/mtf-preview.js';
import { TBX_IMPORT_JOB } from '../../src/modules/search/search-runtime.js';
import { SheetMappingSchema } from '../../src/modules/spreadsheet/sheet-mapping.js';
import {
  previewSpreadsheet,
  SheetPreviewInputSchema,
} from '../../src/modules/spreadsheet/spreadsheet.router.js';
import { TbxExportInputSchema, TbxImportInputSchema } from '../../src/modules/tbx/tbx.router.js';
import { exportTbx } from '../../src/modules/tbx/tbx-export.service.js';
import { asExportJob, exportSummary } from '../../src/modules/tbx/tbx-export-job.js';
import { importTbx, TbxUpload } from '../../src/modules/tbx/tbx-import.service.js';
import { type PartialStatusMapping, parseStatusMapping } from '../../src/modules/tbx/tbx-status-mapping.js';
import { makeUploadDir, sweepUploadDirs } from '../../src/modules/tbx/tbx-upload-dir.js';
import { AppError } from '../../src/shared/errors.js';
import type { Scope } from '../../src/shared/scope.js';
import { actAs, openDatabase } from './direct-scope.js';
import type { DirectCli } from './options.js';
import {
  CliError,
  followImport,
  type ImportStarted,
  isSpreadsheetFile,
  type JobState,
  printExportSummary,
  printPreview,
  printSummary,
  readJsonFile,
} from './output.js';
import { writeOut } from './write-out.js';

export const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

export function parse<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  throw new CliError(`Bad parameters: ${problems.join('; ')}`);
}

/** `--status-mapping` in the REST form (`deprecatedTerm:forbidden,...`); a mistake is a usage error. */
function statusMapping(text: string | undefined): PartialStatusMapping | undefined {
  if (text === undefined) return undefined;
  try {
    return parseStatusMapping(text, '--status-mapping');
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error));
  }
}

/**
 * The import removes its upload when its job ends, so it gets a file of its own in an upload directory
 * (a hard link where the file system allows, else a copy), never the user's file.
 */
export async function stage(file: string): Promise<TbxUpload> {
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) throw new CliError(`No file ${file}`);
  // Where no server runs, runs of this tool that were killed are cleaned up by the next one.
  await sweepUploadDirs();
  const directory = await makeUploadDir();
  const path = join(directory, 'upload.tbx');
  try {
    await link(file, path).catch(() => copyFile(file, path));
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    throw new CliError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  return new TbxUpload(path, info.size, basename(file), directory);
}

export async function jobState(orm: MikroORM, id: number): Promise<JobState> {
  const job = await orm.em.fork().findOneOrFail(JobTask, id);
  return {
    status: job.status,
    processed: job.processed,
    total: job.total ?? null,
    result: job.result,
    message: job.message ?? null,
  };
}

/** The termbase definition beside the upload, as the REST route keeps a `definition` member. */
async function stageDefinition(upload: TbxUpload, file: string | undefined): Promise<void> {
  if (!file) return;
  const path = join(dirname(upload.path), 'definition.xdt');
  await copyFile(file, path).catch((error: Error) => {
    throw new CliError(`Cannot read ${file}: ${error.message}`);
  });
  upload.companions.definition = path;
}

async function preview(cli: DirectCli): Promise<void> {
  const upload = await stage(cli.target);
  try {
    await stageDefinition(upload, cli.definition);
    const answer = isSpreadsheetFile(cli.target)
      ? await previewSpreadsheet(parse(SheetPreviewInputSchema, { file: upload, sheet: cli.sheet }))
      : await previewMultiTerm(upload);
    await printPreview(answer, cli.out);
  } finally {
    await upload.discard();
  }
}

async function importFile(orm: MikroORM, scope: Scope, cli: DirectCli): Promise<void> {
  const upload = await stage(cli.target);
  try {
    await stageDefinition(upload, cli.definition);
    const input = parse(TbxImportInputSchema.extend({ mapping: SheetMappingSchema.optional() }), {
      file: upload,
      'dictionary-id': cli.dictionary === undefined ? undefined : Number(cli.dictionary),
      name: cli.name,
      merge: cli.merge,
      'section-oid': cli.section,
      'status-mapping': statusMapping(cli.statusMapping),
      mapping: cli.mapping ? await readJsonFile(cli.mapping, '--mapping') : undefined,
      'field-mapping': cli.fieldMapping ? await readJsonFile(cli.fieldMapping, '--field-mapping') : undefined,
    });
    if (input.mapping && !input.mapping.columns.some((column) => column.role === 'term')) {
      throw new CliError('--mapping: no column holds terms (role "term")');
    }
    // The newest job before this import: the import's own job is the next TBX import job of this user.
    const jobs = (where: object) =>
      orm.em.fork().findOne(JobTask, { userId: scope.actor.userId, ...where }, { orderBy: { id: 'DESC' } });
    const before = (await jobs({}))?.id ?? 0;
    const started = importTbx(scope, input.file, {
      dictionaryId: input['dictionary-id'],
      name: input.name,
      merge: input.merge,
      sectionOid: input['section-oid'],
      statusMapping: input['status-mapping'],
      spreadsheet: input.mapping,
      fieldMapping: input['field-mapping'],
    }).then(({ body }) => body as ImportStarted);
    const summary = await followImport(started, {
      find: async () => (await jobs({ id: { $gt: before }, type: TBX_IMPORT_JOB }))?.id,
      read: (id) => jobState(orm, id),
    });
    printSummary(summary);
  } finally {
    if (!upload.claimed) await upload.discard();
  }
}

async function exportFile(scope: Scope, cli: DirectCli): Promise<void> {
  const input = parse(TbxExportInputSchema, {
    id: Number(cli.target),
    format: cli.format,
    languages: list(cli.languages),
    fields: list(cli.fields),
    'filter-id': cli.filter === undefined ? undefined : Number(cli.filter),
    'saved-query-id': cli.savedQuery === undefined ? undefined : Number(cli.savedQuery),
    'status-mapping': statusMapping(cli.statusMapping),
    synonyms: cli.synonyms,
    'with-files': cli.withFiles,
  });
  const download = await exportTbx(scope, {
    id: input.id,
    format: input.format,
    languages: input.languages,
    fields: input.fields,
    filterId: input['filter-id'],
    savedQueryId: input['saved-query-id'],
    statusMapping: input['status-mapping'],
    synonyms: input.synonyms,
    withFiles: input['with-files'],
  });
  // Recorded as a job as on a server, whose result is the summary printed here.
  const job = await asExportJob(scope, download);
  await writeOut(Readable.from(job.chunks, { objectMode: false }), cli.out!);
  printExportSummary(cli.out!, exportSummary(download));
}

export function directConfig(cli: Pick<DirectCli, 'database'>): Config {
  try {
    // The server's settings (MULTI_TENANT, SESSION_TIMEOUT, ...) from the environment. The import answers
    // its job at once, so the bar follows it from the start.
    // Services log to stderr only when LOG_LEVEL asks: their failures reach the summary anyway.
    return loadConfig({
      ...process.env,
      DATABASE_URL: cli.database,
      ASYNC_THRESHOLD_MS: '0',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'fatal',
    });
  } catch (error) {
    throw new CliError((error as Error).message);
  }
}

export async function runDirectMode(cli: DirectCli): Promise<void> {
  const config = directConfig(cli);
  const orm = await openDatabase(cli.database);
  try {
    const session = await actAs(orm, config, cli.user, cli.client);
    // This process runs the import's job: it keeps it alive as a server would (job-heartbeat.ts), or
    // servers on the same database would take it for abandoned after two minutes.
    const heartbeat = new JobHeartbeat(orm, session.scope.log);
    heartbeat.start();
    try {
      if (cli.command === 'import') await importFile(orm, session.scope, cli);
      else if (cli.command === 'preview') await preview(cli);
      else await exportFile(session.scope, cli);
    } finally {
      await heartbeat.close();
      await session.end();
    }
  } catch (error) {
    // Refusals of the services (403, 404, a malformed file) read as the server would answer them.
    if (!(error instanceof AppError)) throw error;
    const what = { import: 'Import', export: 'Export', preview: 'Preview' }[cli.command];
    throw new CliError(`${what} failed: ${error.code}: ${error.message}`);
  } finally {
    await orm.close(true);
  }
}
