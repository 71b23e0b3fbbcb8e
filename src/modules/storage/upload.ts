import type { FastifyRequest } from 'fastify';
import { multipartRefusal } from '../../rest/multipart.js';
import { type BlobInfo, type BlobStore, BlobTooLargeError } from './blob-store.js';

/** Room for the form fields and part headers beside the file, when judging a Content-Length. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

export interface ReceivedBlob {
  blob: BlobInfo;
  /** Name the client gave the file (shown and offered on download, never trusted for the type). */
  filename: string | undefined;
  /** The part's Content-Type as the client said (compare it with `blob.contentType`, never trust it). */
  declaredType: string | undefined;
  /** The other members of the form. */
  fields: Record<string, string>;
}

export type BlobUpload = ReceivedBlob | { status: 400 | 413; message: string };

export interface BlobUploadOptions {
  /** MAX_FILE_SIZE, or FEEDBACK_MAX_FILE_SIZE for feedback. */
  maxBytes: number;
  /** Name of the limit in the 413 message. */
  limitName?: string;
  /** Form member holding the file; default `file`. */
  field?: string;
  clientId?: number;
}

/**
 * Streams the one file of a multipart request straight into the blob store: never whole in memory, never
 * more than maxBytes kept. A declared Content-Length beyond the limit is refused before reading; a
 * stream that grows beyond it is cut and answered 413, and nothing is stored. Not multipart or no file:
 * 400. The caller checks permissions afterwards and deletes the blob when it refuses the request.
 */
export async function receiveBlob(
  request: FastifyRequest,
  store: BlobStore,
  options: BlobUploadOptions,
): Promise<BlobUpload> {
  const field = options.field ?? 'file';
  const tooLarge = {
    status: 413 as const,
    message: `The file is larger than the ${options.maxBytes} bytes allowed (${options.limitName ?? 'MAX_FILE_SIZE'})`,
  };
  if (!request.isMultipart()) {
    return { status: 400, message: `Send the file as multipart/form-data (member "${field}")` };
  }
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > options.maxBytes + MULTIPART_OVERHEAD_BYTES) return tooLarge;
  const fields: Record<string, string> = {};
  let received: Omit<ReceivedBlob, 'fields'> | undefined;
  try {
    // busboy stops at maxBytes + 1 so that the store sees the excess and refuses the blob itself.
    for await (const part of request.parts({
      limits: { fields: 20, fieldSize: 4096, files: 1, fileSize: options.maxBytes + 1 },
    })) {
      if (part.type === 'file') {
        if (part.fieldname !== field || received) {
          part.file.resume();
          continue;
        }
        const blob = await store.put(part.file, { maxBytes: options.maxBytes, clientId: options.clientId });
        received = { blob, filename: part.filename || undefined, declaredType: part.mimetype || undefined };
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    if (received) await store.delete(received.blob.key);
    if (error instanceof BlobTooLargeError) {
      // The rest of the body is drained by the multipart plugin once the iteration ends.
      return tooLarge;
    }
    const refusal = multipartRefusal(error, options.maxBytes);
    if (refusal) return refusal.status === 413 ? tooLarge : refusal;
    throw error;
  }
  if (!received) return { status: 400, message: `The multipart member "${field}" is missing` };
  return { ...received, fields };
}
