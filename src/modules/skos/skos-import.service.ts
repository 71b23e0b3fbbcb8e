/**
 * SKOS import (docs/exchange.md): the file is read whole first (a file that is no RDF, or holds no
 * skos:Concept, answers 400 and changes nothing), then imported as a job in ONE transaction with the
 * TBX import's run (tbx-import-run.ts): each concept planned as an entry (skos-entries.ts) and written in
 * batches with set-based SQL, indexed as it goes into a new dictionary; the hierarchy once every concept
 * is in.
 */
import { AppError } from '../../shared/errors.js';
import type { Scope } from '../../shared/scope.js';
import type { AsyncOutcome } from '../jobs/job-runner.js';
import { SKOS_IMPORT_JOB } from '../search/search-runtime.js';
import type { TbxMergeMode, TbxUpload } from '../tbx/tbx-import.service.js';
import { type ImportContext, sql } from '../tbx/tbx-import-context.js';
import type { PlannedConcept } from '../tbx/tbx-import-plan.js';
import { runImportJob } from '../tbx/tbx-import-run.js';
import { type ImportTarget, importTarget } from '../tbx/tbx-import-target.js';
import { entryOf } from './skos-entries.js';
import { BROADER, RELATED, type RelationPair, writeSkosRelations } from './skos-import-relations.js';
import {
  detectFormat,
  readSkos,
  type SkosConceptIn,
  SkosFormatError,
  type SkosVocabulary,
} from './skos-reader.js';
import type { SkosFormat } from './skos-writers.js';

export { SKOS_IMPORT_JOB };

export interface SkosImportOptions {
  /** Absent: from the file name, else from the file's first characters. */
  format?: SkosFormat;
  /** Absent: a new dictionary (client administrators). */
  dictionaryId?: number;
  /** Name of a new dictionary (default: the scheme's title, else the file name). */
  name?: string;
  merge: TbxMergeMode;
  sectionOid?: string;
  /** The status of skos:hiddenLabel terms. */
  hidden: 'FORBIDDEN' | 'DEPRECATED';
  /** The entries wait in this staging area instead of being written (docs/staging.md). */
  stagingAreaId?: number;
}

/**
 * Checks the caller may import there and that the file is SKOS, then imports it as a job. Refusals
 * (403/404, 400 for a file that is no RDF or has no concept, 422 for a taken name) come before the job.
 */
export async function importSkos(
  scope: Scope,
  upload: TbxUpload,
  options: SkosImportOptions,
): Promise<AsyncOutcome> {
  let target: ImportTarget;
  let vocabulary: SkosVocabulary;
  try {
    target = await importTarget(scope, options);
    const format = options.format ?? (await detectFormat(upload.path, upload.fileName));
    vocabulary = await readSkos(upload.path, format);
  } catch (error) {
    await upload.discard();
    if (error instanceof SkosFormatError) throw new AppError('BAD_REQUEST', error.message);
    throw error;
  }
  // The vocabulary is in memory: the file is not needed any more.
  await upload.discard();
  upload.claim();
  // The concept each IRI of the file became, for the hierarchy.
  const written = new Map<string, PlannedConcept>();
  return runImportJob<SkosConceptIn>(scope, {
    type: SKOS_IMPORT_JOB,
    target,
    scan: { header: { dialect: 'TBX_V3_DCA', sourceLang: null, title: vocabulary.title } },
    fileName: upload.fileName ?? 'SKOS import',
    merge: options.merge,
    format: 'SKOS',
    upload,
    open: async (ctx) => ({
      items: vocabulary.concepts,
      total: vocabulary.concepts.length,
      nordic: false,
      entryOf: (concept: SkosConceptIn) => entryOf(concept, options, (message) => ctx.error(0, message)),
      written: (concept, planned) => written.set(concept.iri, planned),
      links: (concept) => [
        ...[...concept.broader].map((target) => ({ kind: 'broader' as const, target })),
        ...[...concept.narrower].map((target) => ({ kind: 'narrower' as const, target })),
        ...[...concept.related].map((target) => ({ kind: 'related' as const, target })),
      ],
      finish: async (ctx) => {
        await writeSkosRelations(ctx, await hierarchy(ctx, vocabulary, written));
      },
    }),
  });
}

/**
 * The relation pairs of the file: broader (and the inverse of narrower) first, then related, between
 * concepts of the file or concepts the dictionary already holds under that IRI.
 */
async function hierarchy(
  ctx: ImportContext,
  vocabulary: SkosVocabulary,
  written: Map<string, PlannedConcept>,
): Promise<RelationPair[]> {
  const wanted = new Set<string>();
  for (const concept of vocabulary.concepts) {
    for (const iri of [...concept.broader, ...concept.narrower, ...concept.related]) {
      if (!written.has(iri)) wanted.add(iri);
    }
  }
  const existing = new Map<string, number>();
  if (wanted.size) {
    const rows = await sql<{ id: number; oid: string }[]>(
      ctx.em,
      `select id, oid from concepts where client_id = ? and dictionary_id = ? and not deleted and oid = any(?::text[])`,
      [ctx.clientId, ctx.dictionaryId, [...wanted]],
    );
    for (const row of rows) existing.set(row.oid, row.id);
  }
  const idOf = (iri: string) => written.get(iri)?.writtenId ?? existing.get(iri);
  const broader: RelationPair[] = [];
  const related: RelationPair[] = [];
  for (const concept of vocabulary.concepts) {
    const self = idOf(concept.iri);
    if (self === undefined) continue;
    const link = (kind: string, iri: string, pair: (other: number) => RelationPair, list: RelationPair[]) => {
      const other = idOf(iri);
      if (other === undefined)
        ctx.error(0, `${concept.iri}: skos:${kind} ${iri} is no concept of the file or the dictionary`);
      else list.push(pair(other));
    };
    for (const iri of concept.broader)
      link('broader', iri, (other) => ({ source: self, target: other, ...BROADER }), broader);
    for (const iri of concept.narrower)
      link('narrower', iri, (other) => ({ source: other, target: self, ...BROADER }), broader);
    for (const iri of concept.related)
      link('related', iri, (other) => ({ source: self, target: other, ...RELATED }), related);
  }
  return [...broader, ...related];
}
