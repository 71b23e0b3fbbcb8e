import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { buildRouteTable } from '../rest/route-table.js';
import { VERSION } from '../version.js';
import { openApiComponents } from './openapi-components.js';
import { polishOpenApiDocument } from './openapi-polish.js';
import { openApiTags } from './openapi-tags.js';
import { appRouter } from './router.js';

type Operation = {
  responses?: Record<
    string,
    { description?: string; headers?: Record<string, unknown>; content?: Record<string, unknown> }
  >;
  security?: unknown[];
};

const errorStatuses: Record<string, string> = {
  '400': 'Invalid input',
  '401': 'Token missing or not valid',
  '403': 'Not allowed',
  '404': 'Not found (also hides objects the caller may not see)',
  '405': 'Method not supported on this path',
  '409': 'Version missing or stale',
  '413': 'Body or file larger than allowed',
  '422': 'An equal object already exists',
  '429': 'Too many attempts: wait the seconds of Retry-After',
  '500': 'Internal server error (the body says no more)',
  '503': 'Busy or a dependency is unavailable: nothing was written; retry after the seconds of Retry-After',
};

const retryAfterHeader = {
  'Retry-After': { description: 'seconds to wait', schema: { type: 'integer', minimum: 1 } },
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/**
 * REST-only routes need X-Auth-Token like procedures (src/rest/token-gate.ts): their operations get the
 * security requirement unless they state their own (`security: []` for an open one).
 */
function tokenRequiredUnlessOpen(rawPaths: ZodOpenApiPathsObject): ZodOpenApiPathsObject {
  const paths: ZodOpenApiPathsObject = {};
  for (const [path, item] of Object.entries(rawPaths)) {
    const copy = { ...item };
    for (const method of METHODS) {
      const operation = copy[method];
      if (operation && operation.security === undefined) {
        copy[method] = { ...operation, security: [{ XAuthToken: [] }] };
      }
    }
    paths[path] = copy;
  }
  return paths;
}

/**
 * The OpenAPI document of /api/v4: every procedure with `meta.openapi` plus the REST-only routes, with the
 * real success statuses (201, 204 text/plain, 202 for running jobs), the X-Auth-Token scheme and our error body.
 */
export function buildOpenApiDocument(rawPaths: ZodOpenApiPathsObject): OpenAPIObject {
  const document = generateOpenApiDocument(appRouter, {
    title: 'Polyterm API',
    description:
      'Multilingual terminology service. Times are ms epoch; every path but login and features needs X-Auth-Token.',
    version: VERSION,
    baseUrl: '/api/v4',
    securitySchemes: { XAuthToken: { type: 'apiKey', in: 'header', name: 'X-Auth-Token' } },
    paths: tokenRequiredUnlessOpen(rawPaths),
    defs: openApiComponents,
  });

  for (const route of buildRouteTable(appRouter)) {
    const operation = document.paths?.[route.template]?.[route.method.toLowerCase() as 'get'] as
      | Operation
      | undefined;
    if (!operation?.responses) continue;
    const responses = operation.responses;
    const success = route.meta.successStatus;
    if (success === 204) {
      delete responses['200'];
      responses['204'] = { description: 'Done; empty text/plain body' };
    } else if (success && responses['200']) {
      responses[String(success)] = responses['200'];
      delete responses['200'];
    }
    if (route.meta.openapi?.description?.includes('202')) {
      responses['202'] = {
        description: 'Still running as a job task; the body holds jobTaskId',
        content: responses['200']?.content ?? {},
      };
    }
    for (const [status, description] of Object.entries(errorStatuses)) {
      if (!responses[status]) continue;
      responses[status] = {
        description,
        ...(status === '429' || status === '503' ? { headers: retryAfterHeader } : {}),
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    }
  }
  document.tags = openApiTags.map((tag) => ({ ...tag }));
  return polishOpenApiDocument(document);
}
