/**
 * `npm run skos` in both modes: through a server (POST /dictionaries/import-skos, GET /jobs/{id},
 * GET /dictionaries/export-skos/{id}) or in this process on the database, with the services the routes
 * call. Both follow the import's job with the TBX tool's progress bar and print the same summary.
 */
import { openAsBlob } from 'node:fs';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import type { MikroORM } from '../../src/db/orm.js';
import { JobHeartbeat } from '../../src/modules/jobs/job-heartbeat.js';
import { JobTask } from '../../src/modules/jobs/job-task.entity.js';
import { SkosExportInputSchema, SkosImportInputSchema } from '../../src/modules/skos/skos.router.js';
import { exportSkos, SKOS_EXPORT_JOB } from '../../src/modules/skos/skos-export.service.js';
import { importSkos, SKOS_IMPORT_JOB } from '../../src/modules/skos/skos-import.service.js';
import { asExportJob, exportSummary } from '../../src/modules/tbx/tbx-export-job.js';
import { AppError } from '../../src/shared/errors.js';
import type { Scope } from '../../src/shared/scope.js';
import { directConfig, jobState, list, parse, stage } from '../tbx/direct-mode.js';
import { actAs, openDatabase } from '../tbx/direct-scope.js';
import { CliError, followImport, type ImportStarted, type JobState, printSummary } from '../tbx/output.js';
import { failure, ServerApi } from '../tbx/server-mode.js';
import { writeOut } from '../tbx/write-out.js';
import type { SkosCli } from './options.js';

const query = (params: Record<string, string | undefined>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  const text = search.toString();
  return text ? `?${text}` : '';
};

interface ExportSummary {
  format: string;
  exportedConcepts: number;
  exportedTerms: number;
}
const printExport = (out: string, summary: ExportSummary) =>
  console.log(
    `wrote ${out}: ${summary.exportedConcepts} concepts, ${summary.exportedTerms} terms (${summary.format})`,
  );

async function serverMode(cli: SkosCli): Promise<void> {
  const api = new ServerApi(cli);
  if (cli.command === 'import') {
    const form = new FormData();
    form.append('file', await openAsBlob(cli.target), basename(cli.target));
    const path = `/dictionaries/import-skos${query({
      format: cli.format,
      'dictionary-id': cli.dictionary,
      name: cli.name,
      merge: cli.merge,
      'section-oid': cli.section,
      hidden: cli.hidden,
    })}`;
    const recentJobs = () =>
      api.json<{ content: { id: number; type: string }[] }>('/jobs?size=5', 'Job list');
    const before = (await recentJobs()).content[0]?.id ?? 0;
    const started = api.json<ImportStarted>(path, 'Import', { method: 'POST', body: form });
    printSummary(
      await followImport(started, {
        find: async () =>
          (await recentJobs()).content.find((job) => job.id > before && job.type === SKOS_IMPORT_JOB)?.id,
        read: (id) => api.json<JobState>(`/jobs/${id}`, 'Job status'),
      }),
    );
    return;
  }
  const path = `/dictionaries/export-skos/${cli.target}${query({
    format: cli.format,
    'base-iri': cli.baseIri,
    deprecated: cli.deprecated,
    'include-unpublished': cli.includeUnpublished ? 'true' : undefined,
    languages: cli.languages,
    fields: cli.fields,
    'filter-id': cli.filter,
    'saved-query-id': cli.savedQuery,
  })}`;
  const response = await api.fetch(path);
  if (!response.ok || !response.body) throw failure('Export', response.status, await response.text());
  await writeOut(Readable.fromWeb(response.body as never), cli.out!);
  const jobId = response.headers.get('x-job-task-id');
  const job = jobId ? await api.json<JobState>(`/jobs/${jobId}`, 'Job status') : null;
  if (job?.status === 'DONE') printExport(cli.out!, job.result as ExportSummary);
  else console.log(`wrote ${cli.out}`);
}

async function directImport(orm: MikroORM, scope: Scope, cli: SkosCli): Promise<void> {
  const upload = await stage(cli.target);
  try {
    const input = parse(SkosImportInputSchema, {
      file: upload,
      format: cli.format,
      'dictionary-id': cli.dictionary === undefined ? undefined : Number(cli.dictionary),
      name: cli.name,
      merge: cli.merge,
      'section-oid': cli.section,
      hidden: cli.hidden,
    });
    const jobs = (where: object) =>
      orm.em.fork().findOne(JobTask, { userId: scope.actor.userId, ...where }, { orderBy: { id: 'DESC' } });
    const before = (await jobs({}))?.id ?? 0;
    const started = importSkos(scope, input.file, {
      format: input.format,
      dictionaryId: input['dictionary-id'],
      name: input.name,
      merge: input.merge,
      sectionOid: input['section-oid'],
      hidden: input.hidden,
    }).then(({ body }) => body as ImportStarted);
    printSummary(
      await followImport(started, {
        find: async () => (await jobs({ id: { $gt: before }, type: SKOS_IMPORT_JOB }))?.id,
        read: (id) => jobState(orm, id),
      }),
    );
  } finally {
    if (!upload.claimed) await upload.discard();
  }
}

async function directExport(scope: Scope, cli: SkosCli): Promise<void> {
  const input = parse(SkosExportInputSchema, {
    id: Number(cli.target),
    format: cli.format,
    'base-iri': cli.baseIri,
    deprecated: cli.deprecated,
    'include-unpublished': cli.includeUnpublished,
    languages: list(cli.languages),
    fields: list(cli.fields),
    'filter-id': cli.filter === undefined ? undefined : Number(cli.filter),
    'saved-query-id': cli.savedQuery === undefined ? undefined : Number(cli.savedQuery),
  });
  const download = await exportSkos(scope, {
    id: input.id,
    format: input.format,
    baseIri: input['base-iri'],
    origin: 'http://localhost',
    deprecatedHidden: input.deprecated === 'hidden',
    includeUnpublished: input['include-unpublished'],
    languages: input.languages,
    fields: input.fields,
    filterId: input['filter-id'],
    savedQueryId: input['saved-query-id'],
  });
  const job = await asExportJob(scope, download, SKOS_EXPORT_JOB);
  await writeOut(Readable.from(job.chunks, { objectMode: false }), cli.out!);
  printExport(cli.out!, exportSummary(download));
}

async function directMode(cli: SkosCli): Promise<void> {
  const config = directConfig(cli);
  const orm = await openDatabase(cli.database);
  try {
    const session = await actAs(orm, config, cli.user!, cli.client);
    const heartbeat = new JobHeartbeat(orm, session.scope.log);
    heartbeat.start();
    try {
      if (cli.command === 'import') await directImport(orm, session.scope, cli);
      else await directExport(session.scope, cli);
    } finally {
      await heartbeat.close();
      await session.end();
    }
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    throw new CliError(
      `${cli.command === 'import' ? 'Import' : 'Export'} failed: ${error.code}: ${error.message}`,
    );
  } finally {
    await orm.close(true);
  }
}

export const runSkosCli = (cli: SkosCli) => (cli.mode === 'direct' ? directMode(cli) : serverMode(cli));
