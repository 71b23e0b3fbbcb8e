/**
 * Attachments in TBX (docs/attachments.md, "TBX"): an ATTACHMENT value is written as
 * `<xref type="xGraphic">` (images) or `<xref type="xSource">` (other files) whose target is the file's
 * download URL, or, in a bundle, its path in the zip (`files/<key>/<name>`). A bundle is one zip holding
 * the TBX document and the files; the import reads it back (attachment-bundle.ts).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { boundRows } from '../../shared/sql.js';

export interface AttachmentInfo {
  fileName: string;
  contentType: string;
}

/** What an export knows of attachments: its ATTACHMENT fields and the files they name. */
export interface ExportAttachments {
  fieldOids: Set<string>;
  info: Map<string, AttachmentInfo>;
  /** Bundle: targets are paths in the zip, and the files written are collected in `written`. */
  bundle: boolean;
  written: Map<string, string>;
}

/** Path of a file in a bundle: its key keeps names apart, the name stays readable. */
export const bundlePath = (key: string, fileName: string) =>
  `files/${key}/${fileName.replace(/[\\/:*?"<>|\p{Cc}]/gu, '_') || 'file'}`;

export const BUNDLE_PATH = /^files\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/([^/]+)$/;

/** The ATTACHMENT fields of a dictionary among `oids`, and the files the dictionary's live entries name. */
export async function exportAttachments(
  em: EntityManager,
  clientId: number,
  dictionaryId: number,
  attachmentFieldOids: readonly string[],
  bundle: boolean,
): Promise<ExportAttachments> {
  const info = new Map<string, AttachmentInfo>();
  if (attachmentFieldOids.length) {
    const rows = await boundRows<{ key: string; file_name: string; content_type: string }>(em, {
      text: `select a.key, a.file_name, a.content_type from attachments a
              where a.client_id = ? and a.key::text in (
                select v from concepts c, jsonb_each(c.field_map) e, jsonb_array_elements_text(e.value) v
                 where c.dictionary_id = ? and not c.deleted and e.key = any(?::text[])
                union all
                select v from terms t, jsonb_each(t.field_map) e, jsonb_array_elements_text(e.value) v
                 where t.dictionary_id = ? and not t.deleted and e.key = any(?::text[]))`,
      params: [clientId, dictionaryId, attachmentFieldOids, dictionaryId, attachmentFieldOids],
    });
    for (const row of rows) info.set(row.key, { fileName: row.file_name, contentType: row.content_type });
  }
  return { fieldOids: new Set(attachmentFieldOids), info, bundle, written: new Map() };
}

/**
 * An ATTACHMENT value as a TBX xref. The label is the file name; the target the bundle path or the
 * download URL through the concept. A key without a file row (never the case for a valid value) is
 * written as a note by the caller's dialect rules.
 */
export function attachmentXref(attachments: ExportAttachments, key: string, conceptId: number) {
  const info = attachments.info.get(key);
  const category = info?.contentType.startsWith('image/') ? 'xGraphic' : 'xSource';
  if (!info) return { category, element: 'xref', value: key };
  if (attachments.bundle) {
    const path = bundlePath(key, info.fileName);
    attachments.written.set(key, path);
    return { category, element: 'xref', value: info.fileName, target: path };
  }
  return {
    category,
    element: 'xref',
    value: info.fileName,
    target: `/api/v4/concepts/${conceptId}/attachments/${key}`,
  };
}
