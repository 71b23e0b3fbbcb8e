import type { OpenAPIObject } from 'trpc-to-openapi';
import { ALIAS_OF } from '../shared/openapi-alias.js';
import { operationDescriptions } from './openapi-descriptions.js';
import { requestExamples } from './openapi-examples.js';

/**
 * Corrections of the generated OpenAPI document, so that generators (openapi-typescript, openapi-generator)
 * and `redocly lint` take it as it is. Each step states a fact of the REST surface that the generator cannot
 * know; none changes what the server does.
 */

type Json = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Json;
  description?: string;
}
interface Operation {
  operationId?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Json }> };
  responses?: Record<string, { description?: string; content?: Record<string, unknown> }>;
  security?: unknown[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

function* operations(document: OpenAPIObject): Generator<[string, string, Operation]> {
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = (item as Record<string, Operation | undefined>)[method];
      if (operation) yield [method, path, operation];
    }
  }
}

/** The adapter reads these members of a POST/PUT from the query string (the spec puts them there). */
const QUERY_MEMBERS = ['format', 'with-comments', 'entry-id', 'field-level'];

/** Statuses the procedures answer that trpc-to-openapi cannot see (set through ctx.response or thrown). */
const EXTRA_STATUSES: Record<string, Record<string, string>> = {
  'post /login': {
    '401': 'Bad credentials: the body has token null and errorMessage',
    '403': 'Right credentials refused by a client limit or an API access rule: the body says why',
  },
  'post /dictionaries/copy/{id}': { '404': 'Not found' },
  'post /dictionaries/empty/{id}': { '404': 'Not found' },
  'post /dictionaries/reindex/{id}': { '404': 'Not found' },
  'post /clients/generate-new-api-key/{clientId}': { '404': 'Not found' },
  'get /system/features': { '400': 'Invalid input' },
};

/** Any JSON number is an integer for zod unless bounded: these bounds say nothing and became every example. */
const SAFE_INTEGER = Number.MAX_SAFE_INTEGER;

function walkSchemas(value: unknown, visit: (schema: Json) => void): void {
  if (Array.isArray(value)) {
    for (const item of value) walkSchemas(item, visit);
  } else if (value && typeof value === 'object') {
    visit(value as Json);
    for (const child of Object.values(value)) walkSchemas(child, visit);
  }
}

/** Integers lose the meaningless ±MAX_SAFE_INTEGER bounds; Swagger UI then shows 0 (or the real minimum) as example. */
function dropSafeIntegerBounds(schema: Json): void {
  if (schema.type !== 'integer') return;
  if (schema.minimum === -SAFE_INTEGER) delete schema.minimum;
  if (schema.maximum === SAFE_INTEGER) delete schema.maximum;
}

/**
 * A map over an enum of keys (permission maps) lists its keys as required but declares them only through
 * additionalProperties; naming them as properties makes each a typed member.
 */
function declareEnumKeys(schema: Json): void {
  const names = (schema.propertyNames as Json | undefined)?.enum;
  if (schema.type !== 'object' || schema.properties || !Array.isArray(names)) return;
  const valueSchema = schema.additionalProperties;
  if (!valueSchema || typeof valueSchema !== 'object') return;
  schema.properties = Object.fromEntries(names.map((name) => [String(name), { ...(valueSchema as Json) }]));
  schema.additionalProperties = false;
  delete schema.propertyNames;
}

/** Moves the query members of a body (schema inline) into query parameters. */
function queryMembersAsParameters(operation: Operation): void {
  const content = operation.requestBody?.content;
  if (!content) return;
  const moved = new Map<string, Parameter>();
  for (const media of Object.values(content)) {
    const schema = media.schema;
    const properties = schema?.properties as Record<string, Json> | undefined;
    if (!schema || !properties) continue;
    for (const name of QUERY_MEMBERS) {
      const member = properties[name];
      if (!member) continue;
      const required = (schema.required as string[] | undefined) ?? [];
      const { description, ...memberSchema } = member;
      moved.set(name, {
        name,
        in: 'query',
        ...(required.includes(name) ? { required: true } : {}),
        schema: memberSchema,
        ...(typeof description === 'string' ? { description } : {}),
      });
      delete properties[name];
      schema.required = required.filter((item) => item !== name);
      if ((schema.required as string[]).length === 0) delete schema.required;
    }
  }
  if (moved.size) operation.parameters = [...(operation.parameters ?? []), ...moved.values()];
}

const ref = (name: string) => `#/components/schemas/${name}`;

/**
 * A job-capable operation answers 200 with {result} once done, 202 with {jobTaskId} while it runs: one
 * schema each, with its member required, instead of one InvocationResult where both are optional.
 */
function splitInvocationResults(document: OpenAPIObject): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Json>;
  const invocation = schemas.InvocationResult;
  const properties = invocation?.properties as Record<string, Json> | undefined;
  if (!properties?.result || !properties.jobTaskId) return;
  schemas.InvocationDone = {
    type: 'object',
    description: 'The answer of a job-capable call that ended within ASYNC_THRESHOLD_MS',
    properties: { result: properties.result },
    required: ['result'],
  };
  schemas.InvocationStarted = {
    type: 'object',
    description: 'The answer of a job-capable call still running: follow it with GET /jobs/{jobTaskId}',
    properties: { jobTaskId: properties.jobTaskId },
    required: ['jobTaskId'],
  };
  const answer = (name: string) => ({ 'application/json': { schema: { $ref: ref(name) } } });
  for (const [, , operation] of operations(document)) {
    const responses = operation.responses;
    const done = responses?.['200']?.content?.['application/json'] as { schema?: Json } | undefined;
    if (!responses || done?.schema?.$ref !== ref('InvocationResult')) continue;
    responses['200'] = { ...responses['200'], content: answer('InvocationDone') };
    if (responses['202']) responses['202'] = { ...responses['202'], content: answer('InvocationStarted') };
  }
}

/** Components nothing refers to (trpc-to-openapi's own error shapes, which our Error replaced). */
function dropUnusedComponents(document: OpenAPIObject): void {
  const schemas = document.components?.schemas as Record<string, unknown> | undefined;
  if (!schemas) return;
  for (;;) {
    const text = JSON.stringify({ ...document, components: { ...document.components, schemas: {} } });
    const referencedFromSchemas = JSON.stringify(schemas);
    const unused = Object.keys(schemas).filter((name) => {
      const ref = `"#/components/schemas/${name}"`;
      return !text.includes(ref) && !referencedFromSchemas.includes(ref);
    });
    if (!unused.length) return;
    for (const name of unused) delete schemas[name];
  }
}

/** Parameters that only repeat another under an older spelling are accepted but not declared (one name each). */
function dropAliasParameters(operation: Operation): void {
  if (!operation.parameters) return;
  operation.parameters = operation.parameters.filter(
    (parameter) => parameter.schema?.[ALIAS_OF] === undefined,
  );
}

export function polishOpenApiDocument(document: OpenAPIObject): OpenAPIObject {
  document.info = { ...document.info, license: { name: 'Apache-2.0', identifier: 'Apache-2.0' } };
  for (const [method, path, operation] of operations(document)) {
    // Procedures on the public tier (login, features, password reset) are open: say so explicitly.
    if (operation.security === undefined) operation.security = [];
    // Procedures are named <router>-<procedure> by trpc-to-openapi; REST-only routes name theirs alike.
    if (!operation.operationId) throw new Error(`${method} ${path} has no operationId`);
    operation.description ??= operationDescriptions[operation.operationId];
    const example = requestExamples[operation.operationId];
    const json = operation.requestBody?.content?.['application/json'];
    if (example !== undefined && json) (json as { example?: unknown }).example = example;
    if (method === 'post' || method === 'put') queryMembersAsParameters(operation);
    dropAliasParameters(operation);
    const extra = EXTRA_STATUSES[`${method} ${path}`];
    const responses = operation.responses;
    if (extra && responses) {
      for (const [status, description] of Object.entries(extra)) {
        // The login refusals answer the login body; every other error answers the error body.
        const content =
          path === '/login'
            ? responses['200']?.content
            : { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
        responses[status] = { description, ...(content ? { content } : {}) };
      }
    }
  }
  walkSchemas(document.paths, (schema) => {
    dropSafeIntegerBounds(schema);
    delete schema[ALIAS_OF];
    declareEnumKeys(schema);
  });
  walkSchemas(document.components, (schema) => {
    dropSafeIntegerBounds(schema);
    declareEnumKeys(schema);
  });
  splitInvocationResults(document);
  dropUnusedComponents(document);
  return document;
}
