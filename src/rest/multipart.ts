import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { oneQueryValue, parseQuery } from './query-params.js';

/** Room for the form fields and part headers beside the file, when judging a Content-Length. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
/** Non-file members of an upload: few and short (fileName, flags). */
const FIELD_LIMITS = { fields: 20, fieldSize: 4096 };

/** An error the app's error handler answers with its status and `{code, message}`. */
class UploadError extends Error {
  constructor(
    readonly statusCode: 400 | 413,
    message: string,
  ) {
    super(message);
  }
}

export interface UploadedFile {
  /** The file's bytes; never more than maxBytes. */
  buffer: Buffer;
  /** Name the client gave the file, if any. */
  filename: string | undefined;
  mimetype: string;
  /** The other members of the form, plus the query parameters (form members win). */
  fields: Record<string, string>;
}

export interface UploadLimits {
  /** Largest accepted file, in bytes (MAX_FILE_SIZE, or FEEDBACK_MAX_FILE_SIZE for feedback). */
  maxBytes: number;
  /** Form member holding the file; default `file`. */
  field?: string;
}

/**
 * Makes a Fastify scope able to take uploads: multipart parsing (nothing is read until a route asks),
 * and any other body left unread so that the route can answer that it wants multipart.
 */
export async function registerUploads(app: FastifyInstance): Promise<void> {
  await app.register(multipart, { limits: { ...FIELD_LIMITS, files: 1 } });
  app.addContentTypeParser('*', (_request, payload, done) => {
    payload.resume();
    done(null, undefined);
  });
}

const tooLargeMessage = (maxBytes: number) =>
  `The file is larger than the ${maxBytes} bytes allowed (MAX_FILE_SIZE)`;
const tooLarge = (maxBytes: number) => new UploadError(413, tooLargeMessage(maxBytes));

const isMultipartLimit = (error: unknown, code: string): boolean =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;

/**
 * What an error met while reading a multipart body means for the caller: 413 for a limit, 400 for a body
 * that cannot be parsed (no boundary, a boundary that never comes, a body cut off). Undefined for the
 * server's own failures (a system error writing the file), which stay server errors.
 */
export function multipartRefusal(
  error: unknown,
  maxBytes: number,
): { status: 400 | 413; message: string } | undefined {
  if (isMultipartLimit(error, 'FST_REQ_FILE_TOO_LARGE'))
    return { status: 413, message: tooLargeMessage(maxBytes) };
  if (isMultipartLimit(error, 'FST_FILES_LIMIT'))
    return { status: 413, message: 'Send one file per request' };
  if (typeof error === 'object' && error !== null && 'syscall' in error) return undefined;
  const reason = error instanceof Error ? error.message : String(error);
  return { status: 400, message: `The multipart body cannot be read: ${reason}` };
}

/**
 * Reads the one file of a multipart request, refusing it before it is buffered when too large: a
 * Content-Length beyond the limit is answered at once, and the stream stops at maxBytes otherwise. Not
 * multipart, malformed multipart or no file: 400; too large or a second file: 413. Use in a scope set up
 * by registerUploads.
 */
export async function readSingleFile(request: FastifyRequest, limits: UploadLimits): Promise<UploadedFile> {
  const field = limits.field ?? 'file';
  if (!request.isMultipart()) throw new UploadError(400, 'Send the file as multipart/form-data');
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limits.maxBytes + MULTIPART_OVERHEAD_BYTES) {
    throw tooLarge(limits.maxBytes);
  }
  // Members may come in the query string as well; each is taken once (a repeated one is refused).
  const fields: Record<string, string> = {
    ...parseQuery(z.record(z.string(), oneQueryValue), request.query),
  };
  const bodyMembers = new Set<string>();
  let file: Omit<UploadedFile, 'fields'> | undefined;
  try {
    for await (const part of request.parts({
      limits: { ...FIELD_LIMITS, files: 1, fileSize: limits.maxBytes },
    })) {
      if (part.type === 'file') {
        if (part.fieldname !== field || file) {
          part.file.resume();
          continue;
        }
        // toBuffer() stops reading at fileSize and throws; nothing beyond the limit is kept.
        file = {
          buffer: await part.toBuffer(),
          filename: part.filename || undefined,
          mimetype: part.mimetype,
        };
      } else if (typeof part.value === 'string') {
        // A body member wins over the query string's; given twice in the body, it is a guess.
        if (bodyMembers.has(part.fieldname)) {
          throw new UploadError(400, `The member "${part.fieldname}" is given twice`);
        }
        bodyMembers.add(part.fieldname);
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    if (error instanceof UploadError) throw error;
    const refusal = multipartRefusal(error, limits.maxBytes);
    if (refusal) throw new UploadError(refusal.status, refusal.message);
    throw error;
  }
  if (!file) throw new UploadError(400, `The multipart member "${field}" is missing`);
  return { ...file, fields };
}
