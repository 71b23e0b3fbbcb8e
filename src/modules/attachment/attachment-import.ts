/**
 * The files of a TBX bundle, taken in by the import (docs/attachments.md, "TBX"): each stored as an
 * attachment of the target dictionary inside the import's transaction, and the entries' xGraphic and
 * xSource values that point at them turned into ATTACHMENT values.
 */
import { createReadStream } from 'node:fs';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../shared/errors.js';
import type { TbxEntry, TbxValue } from '../tbx/tbx-model.js';
import { attachmentStore, insertAttachment } from './attachment.service.js';
import { BUNDLE_PATH } from './attachment-tbx.js';

export interface BundleImport {
  em: EntityManager;
  clientId: number;
  userId: number;
  dictionaryId: number;
  maxBytes: number;
  error(line: number, message: string): void;
}

/** Stores the bundle's files; answers bundle path -> new attachment key (refused files are reported). */
export async function storeBundledFiles(
  ctx: BundleImport,
  files: ReadonlyMap<string, string>,
): Promise<Map<string, string>> {
  const keys = new Map<string, string>();
  const store = attachmentStore(ctx.em);
  for (const [path, diskPath] of files) {
    // A TBX bundle's path (files/<key>/<name>), else a MultiTerm package's file name as zipped.
    const bundled = BUNDLE_PATH.exec(path)?.[2];
    const fileName = bundled ? decodeURIComponent(bundled) : path.split('/').at(-1) || 'file';
    const blob = await store.put(createReadStream(diskPath), {
      maxBytes: ctx.maxBytes,
      clientId: ctx.clientId,
    });
    try {
      const attachment = await insertAttachment(ctx.em, {
        clientId: ctx.clientId,
        userId: ctx.userId,
        maxBytes: ctx.maxBytes,
        dictionaryId: ctx.dictionaryId,
        blob,
        fileName,
        declaredType: undefined,
      });
      keys.set(path, attachment.key);
    } catch (error) {
      await store.delete(blob.key);
      if (!(error instanceof AppError)) throw error;
      ctx.error(0, `${path}: ${error.message}; values naming it are skipped`);
    }
  }
  return keys;
}

/** A value that names a bundled file carries the file's new key; one naming a missing file is dropped. */
export function bindBundledValues(entry: TbxEntry, keys: ReadonlyMap<string, string>, ctx: BundleImport) {
  const bind = (values: TbxValue[]) =>
    values.flatMap((value) => {
      if (value.element !== 'xref' || !BUNDLE_PATH.test(value.target ?? '')) return [value];
      const key = keys.get(value.target!);
      if (!key) {
        ctx.error(value.line ?? entry.line, `${value.target} is not in the zip; the value is skipped`);
        return [];
      }
      return [{ ...value, attachmentKey: key }];
    });
  entry.values = bind(entry.values);
  for (const section of entry.languages) {
    section.values = bind(section.values);
    for (const term of section.terms) term.values = bind(term.values);
  }
}
