import type { FastifyPluginAsync } from 'fastify';
import type { ZodOpenApiPathsObject } from 'zod-openapi';

/** A REST-only route (binary download, upload, script) with its entry for the OpenAPI document. */
export interface RawRoute {
  plugin: FastifyPluginAsync;
  paths: ZodOpenApiPathsObject;
}
