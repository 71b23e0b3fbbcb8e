import type { FastifyPluginAsync } from 'fastify';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { ErrorBodySchema } from '../shared/common.schema.js';

/** A REST-only route (binary download, upload, script) with its entry for the OpenAPI document. */
export interface RawRoute {
  plugin: FastifyPluginAsync;
  paths: ZodOpenApiPathsObject;
}

/** Our error body, as OpenAPI content of a raw route's error answers. */
export const errorContent = { 'application/json': { schema: ErrorBodySchema } };

/** The error answers every upload route documents; `forbidden` says who gets 403. */
export const uploadErrorResponses = (forbidden: string) => ({
  400: { description: 'Invalid file', content: errorContent },
  401: { description: 'Token missing or not valid', content: errorContent },
  403: { description: forbidden, content: errorContent },
  413: { description: 'File larger than MAX_FILE_SIZE', content: errorContent },
});

/** A boolean form member or query parameter as browsers and scripts send it. */
export const flag = (value: unknown): boolean => value === true || value === 'true' || value === '1';
