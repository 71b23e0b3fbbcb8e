/**
 * Attachments (docs/attachments.md): uploaded files named by key in ATTACHMENT field values. A file is
 * reached only through a concept whose values (its own, or a term's the caller sees) name its key, so
 * it follows the concept's permissions, workflow visibility, soft deletion and tenant; history, undo
 * and copies work because rows and blobs never change.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, notFound } from '../../shared/errors.js';
import type { Scope } from '../../shared/scope.js';
import { boundRows } from '../../shared/sql.js';
import { dictionaryAccess } from '../access/access.service.js';
import { getConcept } from '../concept/concept.service.js';
import { readableConcept } from '../concept/concept-access.js';
import type { BlobInfo, BlobStore } from '../storage/blob-store.js';
import { PgBlobStore } from '../storage/pg-blob-store.js';
import type { AttachmentDto, ConceptAttachmentDto } from './attachment.schema.js';
import { hasThumbnail, makeThumbnail } from './attachment-thumbnail.js';
import { assertTypeMatches } from './attachment-types.js';

/** The store of attachment files: PostgreSQL (docs/attachments.md names the S3-compatible alternative). */
export const attachmentStore = (em: EntityManager): BlobStore => new PgBlobStore(em);

interface AttachmentRow {
  key: string;
  dictionary_id: number | null;
  file_name: string;
  content_type: string;
  size: string;
  sha256: string;
  width: number | null;
  height: number | null;
  thumbnail_key: string | null;
  created_at: Date;
  created_by_id: number | null;
}

const dtoOf = (row: AttachmentRow): AttachmentDto => ({
  key: row.key,
  dictionaryId: row.dictionary_id,
  fileName: row.file_name,
  contentType: row.content_type,
  size: Number(row.size),
  sha256: row.sha256,
  width: row.width,
  height: row.height,
  hasThumbnail: row.thumbnail_key !== null,
  created: new Date(row.created_at).getTime(),
  createdById: row.created_by_id,
});

/** The shown name: no path, no control characters, at most 255 characters. */
export function cleanFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const clean = base.replace(/[\p{Cc}\p{Cf}]/gu, '').trim();
  return [...(clean || 'file')].slice(0, 255).join('');
}

export interface NewAttachment {
  dictionaryId: number;
  blob: BlobInfo;
  fileName: string | undefined;
  /** The part's Content-Type, as the client said. */
  declaredType: string | undefined;
}

/**
 * Registers an uploaded blob as an attachment of a dictionary: the caller must be able to create or edit
 * concepts there (another client's or an unreadable dictionary: 404), and the bytes must be what the name
 * says (400). Images get a thumbnail. The key is then set as a field value through the concept calls.
 */
export async function createAttachment(scope: Scope, input: NewAttachment): Promise<AttachmentDto> {
  await assertMayAttach(scope, input.dictionaryId);
  return insertAttachment(scope.em, {
    clientId: scope.actor.clientId,
    userId: scope.actor.userId,
    maxBytes: scope.config.MAX_FILE_SIZE,
    ...input,
  });
}

const ATTACHMENT_INSERT = `insert into attachments (key, client_id, dictionary_id, file_name, content_type, size, sha256, width, height, thumbnail_key, created_by_id)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning *`;

/**
 * Registers a stored blob as an attachment, with no permission check (the caller made one: the upload
 * route's, the import's): checks the type against the name (400) and makes the thumbnail of an image.
 */
export async function insertAttachment(
  em: EntityManager,
  input: NewAttachment & { clientId: number; userId: number; maxBytes: number },
): Promise<AttachmentDto> {
  const fileName = cleanFileName(input.fileName);
  assertTypeMatches(input.blob.contentType, fileName, input.declaredType);
  const store = attachmentStore(em);
  const thumbnail = hasThumbnail(input.blob.contentType)
    ? await makeThumbnail(store, input.blob, input.maxBytes, input.clientId)
    : undefined;
  let row: AttachmentRow | undefined;
  try {
    // The attachment and its event in one statement: one transaction without opening one.
    [row] = await em.execute<AttachmentRow[]>(
      `with added as (${ATTACHMENT_INSERT}), logged as (
         insert into event_drafts (client_id, type, dictionary_id, actor_id, data)
         select client_id, 'attachment.added', dictionary_id, created_by_id,
                jsonb_build_object('key', key, 'fileName', file_name, 'contentType', content_type, 'size', size)
           from added returning 1
       ) select * from added`,
      [
        input.blob.key,
        input.clientId,
        input.dictionaryId,
        fileName,
        input.blob.contentType,
        input.blob.size,
        input.blob.sha256,
        thumbnail?.width ?? null,
        thumbnail?.height ?? null,
        thumbnail?.blob.key ?? null,
        input.userId,
      ],
    );
  } catch (error) {
    if (thumbnail) await store.delete(thumbnail.blob.key);
    throw error;
  }
  return dtoOf(row!);
}

/** Uploading needs CONCEPT_CREATE, CONCEPT_UPDATE or CONCEPT_EDIT_FIELDS in some section of the dictionary. */
async function assertMayAttach(scope: Scope, dictionaryId: number) {
  const access = await dictionaryAccess(scope, [dictionaryId]).catch((error: unknown) => {
    if (error instanceof AppError && error.code === 'NOT_FOUND') throw notFound('Dictionary', dictionaryId);
    throw error;
  });
  const [permissions] = access.permissions;
  if (!permissions?.permissions.DICT_READ) throw notFound('Dictionary', dictionaryId);
  const editable = Object.values(permissions.sectionPermissions).some(
    (map) => map.CONCEPT_CREATE || map.CONCEPT_UPDATE || map.CONCEPT_EDIT_FIELDS,
  );
  if (!editable && !permissions.permissions.CONCEPT_CREATE) {
    throw new AppError('FORBIDDEN', 'You may not add files to concepts of this dictionary');
  }
}

/**
 * The attachments a concept shows the caller: the keys in its ATTACHMENT fields and in those of the
 * terms the caller sees (getConcept applies permissions, workflow visibility and soft deletion).
 */
export async function conceptAttachments(scope: Scope, conceptId: number): Promise<ConceptAttachmentDto[]> {
  const concept = await getConcept(scope, conceptId, { format: 'FULL' });
  const fields = await scope.em.execute<{ oid: string }[]>(
    `select oid from fields where dictionary_id = ? and client_id = ? and field_type = 'ATTACHMENT' and not deleted`,
    [concept.dictionaryId, scope.actor.clientId],
  );
  const attachmentFields = new Set(fields.map((field) => field.oid));
  const uses: { key: string; fieldOid: string; termId: number | null }[] = [];
  const collect = (fieldMap: Record<string, string[]>, termId: number | null) => {
    for (const [fieldOid, values] of Object.entries(fieldMap)) {
      if (attachmentFields.has(fieldOid)) for (const key of values) uses.push({ key, fieldOid, termId });
    }
  };
  collect(concept.fieldMap ?? {}, null);
  for (const term of concept.terms ?? []) collect(term.fieldMap, term.id);
  if (uses.length === 0) return [];
  const rows = await boundRows<AttachmentRow>(scope.em, {
    text: 'select * from attachments where client_id = ? and key = any(?::uuid[])',
    params: [scope.actor.clientId, [...new Set(uses.map((use) => use.key))]],
  });
  const byKey = new Map(rows.map((row) => [row.key, row]));
  return uses.flatMap((use) => {
    const row = byKey.get(use.key);
    if (!row) return [];
    const url = `/api/v4/concepts/${conceptId}/attachments/${row.key}`;
    return [
      {
        ...dtoOf(row),
        conceptId,
        termId: use.termId,
        fieldOid: use.fieldOid,
        url,
        thumbnailUrl: row.thumbnail_key ? `${url}/thumbnail` : null,
      },
    ];
  });
}

/** The blob of a concept's attachment (or of its thumbnail) for download; 404 when the concept does not show it. */
export async function attachmentDownload(
  scope: Scope,
  conceptId: number,
  key: string,
  thumbnail: boolean,
): Promise<{ info: BlobInfo; fileName: string }> {
  const [row] = await scope.em.execute<AttachmentRow[]>(
    'select * from attachments where key = ? and client_id = ?',
    [key, scope.actor.clientId],
  );
  if (!row || !(await conceptShows(scope, conceptId, key))) throw notFound('Attachment', key);
  const blobKey = thumbnail ? row.thumbnail_key : key;
  if (!blobKey) throw notFound('Thumbnail of attachment', key);
  const info = await attachmentStore(scope.em).stat(blobKey);
  if (!info) throw notFound('Attachment', key);
  const fileName = thumbnail ? `${row.file_name.replace(/\.[^.]*$/, '')}-thumbnail.png` : row.file_name;
  return { info, fileName };
}

/**
 * Whether the concept shows the caller the key: in its own ATTACHMENT values once it is readable (the
 * common case, one load), else among the values of the terms the caller sees (the full read).
 */
async function conceptShows(scope: Scope, conceptId: number, key: string): Promise<boolean> {
  const { concept } = await readableConcept(scope, conceptId);
  const own = await scope.em.execute<{ oid: string }[]>(
    `select oid from fields where dictionary_id = ? and client_id = ? and field_type = 'ATTACHMENT' and level = 'CONCEPT' and not deleted`,
    [concept.dictionary.id, scope.actor.clientId],
  );
  if (own.some((field) => concept.fieldMap[field.oid]?.includes(key))) return true;
  return (await conceptAttachments(scope, conceptId)).some((entry) => entry.key === key);
}
