/**
 * The multipart upload routes of the imports (TBX and MultiTerm XML, spreadsheets, SKOS) and their OpenAPI
 * entries, made one way: the caller's token is checked before anything is read, the file is streamed to a
 * directory of its own (never held in memory, never kept beyond MAX_FILE_SIZE), the other members come
 * from the form or the query string (each once), and a procedure runs on the upload. An import answers
 * 200 with the InvocationResult when done in time, else 202 with its jobTaskId; a preview answers its JSON.
 */
import { createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import type { Config } from '../../config.js';
import { sendError } from '../../rest/error-body.js';
import { multipartRefusal } from '../../rest/multipart.js';
import { type ContextFactory, callProcedure, signedIn } from '../../rest/procedure-call.js';
import { oneQueryValue, parseQuery } from '../../rest/query-params.js';
import { errorContent, uploadErrorResponses } from '../../rest/raw-route.js';
import { InvocationResultSchema } from '../../shared/common.schema.js';
import { TbxMergeModes, TbxUpload } from './tbx-import.service.js';
import { makeUploadDir } from './tbx-upload-dir.js';

/** Room for the form fields and part headers beside the file, when judging a Content-Length. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

type Schema = { type: 'string' | 'integer' | 'boolean'; [key: string]: unknown };

/** A member of the form beside `file`; also a query parameter unless bodyOnly. */
export interface UploadMember {
  name: string;
  schema: Schema;
  description?: string;
  required?: boolean;
  /** Long (a JSON mapping): only in the form, never in the query string. */
  bodyOnly?: boolean;
  /** Documented as a query parameter only (`format`: the OpenAPI polish moves a body `format` there). */
  queryOnly?: boolean;
  /** A second file (MultiTerm's termbase definition beside its XML): kept beside the upload. */
  file?: boolean;
}

/** Where an import goes, as every import route takes it (docs/tbx.md). */
export const TARGET_MEMBERS: UploadMember[] = [
  { name: 'dictionary-id', schema: { type: 'integer' }, description: 'absent: a new dictionary' },
  { name: 'name', schema: { type: 'string' }, description: "a new dictionary's name" },
  {
    name: 'merge',
    schema: { type: 'string', enum: [...TbxMergeModes], default: 'ENTRY_ID' },
    description: 'ENTRY_ID: same entry id updates; TERM: same term in the same language; NONE: always new',
  },
  {
    name: 'section-oid',
    schema: { type: 'string' },
    description: "new concepts' section (default: the first)",
  },
  {
    name: 'staging-area-id',
    schema: { type: 'integer' },
    description:
      'the entries wait in this staging area for review instead of being written (docs/staging.md)',
  },
];

/** The members an upload brought, and how to read them. */
export interface ReceivedUpload {
  upload: TbxUpload;
  /** A member from the form, else the query string (unless bodyOnly). */
  param(name: string): string | undefined;
}

/** Failures the route answers itself: 400 with this message. */
export class UploadRefusal extends Error {}

type Caller = Parameters<Parameters<typeof callProcedure>[3]>[0];

export interface UploadRouteSpec<T> {
  path: string;
  operationId: string;
  summary: string;
  description: string;
  /** The import's target members (dictionary-id, name, merge, section-oid) first; default true. */
  target?: boolean;
  members?: UploadMember[];
  /** Largest non-file member (a mapping is larger than a flag). */
  fieldBytes?: number;
  /** Who gets 403. */
  forbidden?: string;
  /** A preview's answer (200 with this schema); absent: an import's InvocationResult (200 or 202). */
  preview?: { description: string; schema: unknown };
  call(api: Caller, received: ReceivedUpload): Promise<T>;
}

export interface UploadRoute {
  paths: ZodOpenApiPathsObject;
  register(app: FastifyInstance, config: Config, createContext: ContextFactory): void;
}

/** The members of a spec in order: target members first when it has them. */
const membersOf = (spec: UploadRouteSpec<unknown>) => [
  ...(spec.target === false ? [] : TARGET_MEMBERS),
  ...(spec.members ?? []),
];

/** One multipart route: its OpenAPI entry and its handler. */
export function uploadImportRoute<T>(spec: UploadRouteSpec<T>): UploadRoute {
  const members = membersOf(spec as UploadRouteSpec<unknown>);
  const queryMembers = members.filter((member) => !member.bodyOnly && !member.file);
  const querySchema = z.object(
    Object.fromEntries(queryMembers.map((member) => [member.name, oneQueryValue.optional()])),
  );
  const fileMembers = members.filter((member) => member.file).map((member) => member.name);
  const responses = spec.preview
    ? {
        200: {
          description: spec.preview.description,
          content: { 'application/json': { schema: spec.preview.schema } },
        },
        ...uploadErrorResponses(spec.forbidden ?? 'Never (any signed-in user may preview a file)'),
      }
    : {
        200: {
          description: 'Done in time',
          content: { 'application/json': { schema: InvocationResultSchema } },
        },
        202: {
          description: 'Still running',
          content: { 'application/json': { schema: InvocationResultSchema } },
        },
        ...uploadErrorResponses(
          spec.forbidden ?? 'No CONCEPT_IMPORT in the section, or not an administrator (new dictionary)',
        ),
        404: { description: 'No such dictionary (or not readable)', content: errorContent },
        422: { description: 'The name of the new dictionary is taken', content: errorContent },
      };
  const paths: ZodOpenApiPathsObject = {
    [spec.path]: {
      post: {
        operationId: spec.operationId,
        tags: ['dictionaries'],
        summary: spec.summary,
        description: spec.description,
        ...(queryMembers.length
          ? {
              parameters: queryMembers.map((member) => ({
                name: member.name,
                in: 'query' as const,
                schema: member.schema,
                ...(member.description ? { description: member.description } : {}),
              })),
            }
          : {}),
        requestBody: {
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                required: ['file', ...members.filter((m) => m.required).map((m) => m.name)],
                properties: {
                  file: { type: 'string', format: 'binary' },
                  ...Object.fromEntries(
                    members
                      .filter((member) => !member.queryOnly)
                      .map((member) => [
                        member.name,
                        member.file
                          ? { type: 'string', format: 'binary', description: member.description }
                          : {
                              ...member.schema,
                              ...(member.description ? { description: member.description } : {}),
                            },
                      ]),
                  ),
                },
              },
            },
          },
        },
        responses,
      } as never,
    },
  };

  const register = (app: FastifyInstance, config: Config, createContext: ContextFactory) => {
    app.post(spec.path, async (request, reply) => {
      // The token is checked before anything is read, so anonymous callers never make the server store a file.
      if (!signedIn(request, reply)) return reply;
      const received = await receiveFile(request, config.MAX_FILE_SIZE, spec.fieldBytes, fileMembers);
      if ('status' in received) {
        const code = received.status === 413 ? 'PAYLOAD_TOO_LARGE' : 'BAD_REQUEST';
        return sendError(reply, received.status, { code, message: received.message });
      }
      const { upload, fields } = received;
      try {
        const query: Record<string, string | undefined> = parseQuery(querySchema, request.query);
        const param = (name: string) => fields[name] ?? query[name];
        let result: T | undefined;
        try {
          result = await callProcedure(createContext, request, reply, (api) =>
            spec.call(api, { upload, param }),
          );
        } catch (error) {
          if (!(error instanceof UploadRefusal)) throw error;
          return sendError(reply, 400, { code: 'BAD_REQUEST', message: error.message });
        }
        if (result === undefined) return reply;
        const started = !spec.preview && (result as { jobTaskId?: number }).jobTaskId !== undefined;
        return reply
          .code(started ? 202 : 200)
          .type('application/json; charset=utf-8')
          .send(result);
      } finally {
        if (!upload.claimed) await upload.discard();
      }
    });
  };
  return { paths, register };
}

/** A JSON member (a mapping) read, or the 400 naming it. */
export function jsonMember(received: ReceivedUpload, name: string, required: boolean): unknown {
  const text = received.param(name);
  if (text === undefined || text === '') {
    if (required) throw new UploadRefusal(`The multipart member "${name}" is missing`);
    return undefined;
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new UploadRefusal(`${name}: not JSON`);
  }
}

/** The file and the target members as the import procedures take them. */
export function targetOf(received: ReceivedUpload) {
  return {
    file: received.upload,
    'dictionary-id': optionalNumber(received.param('dictionary-id')),
    name: received.param('name'),
    merge: (received.param('merge')?.toUpperCase() ?? 'ENTRY_ID') as (typeof TbxMergeModes)[number],
    'section-oid': received.param('section-oid') || undefined,
    'staging-area-id': optionalNumber(received.param('staging-area-id')),
  };
}

/** A number member, or undefined; its shape is the procedure's to check. */
export const optionalNumber = (value: string | undefined) =>
  value === undefined || value === '' ? undefined : Number(value);

export type Received =
  | { upload: TbxUpload; fields: Record<string, string> }
  | { status: 400 | 413; message: string };

/**
 * Streams the multipart member `file` (and the named companion files) to files of their own directory,
 * never holding them in memory and never keeping more than maxBytes of each: a larger file is removed
 * and answered 413.
 */
export async function receiveFile(
  request: FastifyRequest,
  maxBytes: number,
  fieldBytes = 4096,
  companions: readonly string[] = [],
): Promise<Received> {
  const tooLarge = {
    status: 413 as const,
    message: `The file is larger than the ${maxBytes} bytes allowed (MAX_FILE_SIZE)`,
  };
  if (!request.isMultipart())
    return { status: 400, message: 'Send the file as multipart/form-data (member "file")' };
  const declared = Number(request.headers['content-length']);
  const allowed = maxBytes * (1 + companions.length) + MULTIPART_OVERHEAD_BYTES;
  if (Number.isFinite(declared) && declared > allowed) return tooLarge;
  const directory = await makeUploadDir();
  const fields: Record<string, string> = {};
  const files = new Map<string, { path: string; name: string | null }>();
  let truncated = false;
  try {
    for await (const part of request.parts({
      limits: { fields: 20, fieldSize: fieldBytes, files: 1 + companions.length, fileSize: maxBytes },
    })) {
      if (part.type === 'file') {
        const wanted = part.fieldname === 'file' || companions.includes(part.fieldname);
        if (!wanted || files.has(part.fieldname)) {
          part.file.resume();
          continue;
        }
        // The companion's own name keeps its extension (.xdt), the file's is fixed.
        const path = join(directory, part.fieldname === 'file' ? 'upload.tbx' : `${part.fieldname}.upload`);
        await pipeline(part.file, createWriteStream(path));
        truncated ||= part.file.truncated;
        files.set(part.fieldname, { path, name: part.filename || null });
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    const refusal = multipartRefusal(error, maxBytes);
    if (refusal) return refusal;
    throw error;
  }
  const main = files.get('file');
  if (!main || truncated) {
    await rm(directory, { recursive: true, force: true });
    return truncated ? tooLarge : { status: 400, message: 'The multipart member "file" is missing' };
  }
  const upload = new TbxUpload(main.path, (await stat(main.path)).size, main.name, directory);
  for (const [name, file] of files) if (name !== 'file') upload.companions[name] = file.path;
  return { upload, fields };
}
