/**
 * TBX import (docs/tbx.md): the uploaded file is parsed once to check it (a malformed file answers 400
 * with its line and changes nothing) and to count its entries, then imported as a job in ONE
 * transaction: a failure anywhere leaves the dictionary as it was. Entries are read as a stream and
 * written in batches with set-based SQL (tbx-import-run.ts); cross-references are collected in a
 * temporary table and become relations once the whole file is in.
 */

import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Scope } from '../../shared/scope.js';
import { isZip, unpackBundle, zipEntryNames } from '../attachment/attachment-bundle.js';
import { bindBundledValues, storeBundledFiles } from '../attachment/attachment-import.js';
import type { AsyncOutcome } from '../jobs/job-runner.js';
import { applyDefinition, fieldTargets, type MtfFieldMapping } from '../multiterm/mtf-field-mapping.js';
import { bindMediaValues, mediaResolver, referencedMedia } from '../multiterm/mtf-media.js';
import { unpackMultiTermZip, uploadedDefinition } from '../multiterm/mtf-package.js';
import { TBX_IMPORT_JOB } from '../search/search-runtime.js';
import type { SheetMapping } from '../spreadsheet/sheet-mapping.js';
import { type ImportContext, sql } from './tbx-import-context.js';
import type { TbxMergeMode } from './tbx-import-merge.js';
import { writeRelations } from './tbx-import-relations.js';
import { runImportJob } from './tbx-import-run.js';
import { type FileScan, type ImportTarget, importTarget, scanFile } from './tbx-import-target.js';
import type { TbxEntry } from './tbx-model.js';
import { storedStatusMapping } from './tbx-settings.js';
import { effectiveMapping, type PartialStatusMapping, type StatusMapping } from './tbx-status-mapping.js';
import { readTermbaseFile } from './termbase-file.js';

// The import's callers (router, REST route, CLI) take all they need from this file.
export { type TbxMergeMode, TbxMergeModes } from './tbx-import-merge.js';

export interface TbxImportOptions {
  /** Absent: a new dictionary (client administrators). */
  dictionaryId?: number;
  /** Name of a new dictionary (default: the file's title). */
  name?: string;
  merge: TbxMergeMode;
  /** Section of the new concepts (default: the dictionary's first). */
  sectionOid?: string;
  /** The file is a spreadsheet (CSV, XLSX) read by this mapping (spreadsheet/, docs/exchange.md). */
  spreadsheet?: SheetMapping;
  /** Administrative statuses -> term statuses, over the dictionary's mapping (tbx-status-mapping.ts). */
  statusMapping?: PartialStatusMapping;
  /** MultiTerm XML: where its fields go (multiterm/mtf-field-mapping.ts). */
  fieldMapping?: MtfFieldMapping;
  /** The entries wait in this staging area instead of being written (docs/staging.md). */
  stagingAreaId?: number;
}

/**
 * An uploaded file on disk, in a directory of its own. The import takes it over (claim) and removes it
 * when its job ends; until then whoever received the upload removes it.
 */
export class TbxUpload {
  private claimedByImport = false;
  /** Other files of the same upload by member name (MultiTerm's termbase definition), in its directory. */
  readonly companions: Record<string, string> = {};
  constructor(
    readonly path: string,
    readonly size: number,
    readonly fileName: string | null,
    private readonly directory: string,
  ) {}

  claim(): void {
    this.claimedByImport = true;
  }

  get claimed(): boolean {
    return this.claimedByImport;
  }

  async discard(): Promise<void> {
    await rm(this.directory, { recursive: true, force: true });
  }
}

/**
 * Checks the caller may import there and that the file is TBX, then imports it as a job. Refusals
 * (403/404, 400 for a malformed file with its line, 422 for a taken name) come before the job starts.
 */
export async function importTbx(
  scope: Scope,
  upload: TbxUpload,
  options: TbxImportOptions,
): Promise<AsyncOutcome> {
  let target: ImportTarget;
  let scan: FileScan;
  let documentPath = upload.path;
  let bundled: Map<string, string> = new Map();
  // A MultiTerm package's multimedia files (zip name -> file on disk), for its multimedia fields.
  let media: Map<string, string> = new Map();
  try {
    target = await importTarget(scope, options);
    // A zip is a MultiTerm package (its XML with the .xdt definition; an Office document is refused
    // there) or a TBX bundle: the document and the files its xGraphic/xSource values name.
    if (!options.spreadsheet && (await isZip(upload.path))) {
      const names = await zipEntryNames(upload.path);
      if (names.some((name) => /\.xdt$/i.test(name) || name === '[Content_Types].xml')) {
        media = await unpackMultiTermZip(upload, { media: true });
      } else {
        documentPath = join(dirname(upload.path), 'bundle-document.tbx');
        bundled = await unpackBundle(
          upload.path,
          dirname(upload.path),
          documentPath,
          scope.config.MAX_FILE_SIZE,
        );
      }
    }
    const definition = await uploadedDefinition(upload);
    const targets = fieldTargets(options.fieldMapping);
    scan = await scanFile(
      documentPath,
      options.spreadsheet,
      definition || targets ? { definition, targets } : undefined,
    );
    // Only the package's files that some value names become attachments.
    if (media.size) media = await referencedMedia(documentPath, media, scan.multiterm);
  } catch (error) {
    // Removed before the refusal is answered, so nothing of a refused file outlives its request.
    await upload.discard();
    throw error;
  }
  upload.claim();
  return runImportJob<TbxEntry>(scope, {
    type: TBX_IMPORT_JOB,
    target,
    scan,
    fileName: upload.fileName,
    merge: options.merge,
    // By the file's root element: `scan.multiterm` is there only with a definition or a field mapping.
    format: options.spreadsheet ? 'SPREADSHEET' : scan.format === 'MULTITERM_XML' ? 'MULTITERM' : 'TBX',
    upload,
    open: async (ctx) => {
      ctx.statusMapping = await importMapping(ctx, target, options.statusMapping);
      const bundle = {
        em: ctx.em,
        clientId: ctx.clientId,
        userId: ctx.scope.actor.userId,
        dictionaryId: ctx.dictionaryId,
        maxBytes: ctx.scope.config.MAX_FILE_SIZE,
        error: (line: number, message: string) => ctx.error(line, message),
      };
      const attachmentKeys = bundled.size ? await storeBundledFiles(bundle, bundled) : null;
      const mediaKeys = scan.format === 'MULTITERM_XML' ? await storeBundledFiles(bundle, media) : null;
      const resolveMedia = mediaResolver(media.keys());
      return {
        items: readTermbaseFile(documentPath, scan),
        total: scan.entries,
        nordic: scan.nordic,
        prepare: (structure) => {
          const multiterm = scan.multiterm;
          if (multiterm?.definition) applyDefinition(structure, multiterm.definition, multiterm.targets);
        },
        entryOf: (entry) => {
          if (attachmentKeys) bindBundledValues(entry, attachmentKeys, bundle);
          if (mediaKeys) bindMediaValues(entry, mediaKeys, resolveMedia, bundle);
          return entry;
        },
        finish: writeRelations,
      };
    },
  });
}

/**
 * The status mapping of the import: the request's statuses over the dictionary's. A dictionary the
 * import makes keeps the request's mapping as its own, so that its exports write the statuses back.
 */
async function importMapping(
  ctx: ImportContext,
  target: ImportTarget,
  requested: PartialStatusMapping | undefined,
): Promise<StatusMapping> {
  if (target.kind === 'new' && requested && Object.keys(requested).length > 0) {
    await sql(
      ctx.em,
      'insert into tbx_settings (dictionary_id, client_id, status_mapping) values (?, ?, ?::jsonb)',
      [ctx.dictionaryId, ctx.clientId, JSON.stringify(requested)],
    );
  }
  return effectiveMapping(await storedStatusMapping(ctx.em, ctx.dictionaryId), requested);
}
