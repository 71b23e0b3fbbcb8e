import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { rawRoutePaths } from '../../src/app.js';
import { buildOpenApiDocument } from '../../src/trpc/openapi.js';
import { operationDescriptions } from '../../src/trpc/openapi-descriptions.js';
import { requestExamples } from '../../src/trpc/openapi-examples.js';
import { appRouter } from '../../src/trpc/router.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';

/** The OpenAPI document as generators and linters read it (built in memory, as the server serves it). */
interface Operation {
  operationId?: string;
  description?: string;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: { type?: string } }>;
  requestBody?: {
    content: Record<string, { schema: { properties?: Record<string, unknown> }; example?: unknown }>;
  };
  responses: Record<string, unknown>;
}
type Document = {
  tags?: Array<{ name: string; description?: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
};
const document = buildOpenApiDocument(rawRoutePaths) as unknown as Document;
const operation = (method: string, path: string): Operation => {
  const found = document.paths[path]?.[method];
  if (!found) throw new Error(`${method} ${path} is not in the document`);
  return found;
};
const allOperations = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => ({ method, path, op })),
);

let t: TestApp;
let sysadmin: RestClient;
beforeAll(async () => {
  t = await buildTestApp();
  sysadmin = await loginSysadmin(t.app);
});
afterAll(() => t?.close());

describe('the OpenAPI document', () => {
  it('passes `redocly lint` with the recommended rules (redocly.yaml)', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'polyterm-openapi-'));
    try {
      const file = join(folder, 'openapi.json');
      await writeFile(file, JSON.stringify(document));
      const { stdout, stderr } = await promisify(execFile)(
        process.execPath,
        [
          'node_modules/@redocly/cli/bin/cli.js',
          'lint',
          file,
          '--config',
          'redocly.yaml',
          '--format',
          'json',
        ],
        { maxBuffer: 64 * 1024 * 1024, env: { ...process.env, REDOCLY_TELEMETRY: 'off', NO_COLOR: '1' } },
      ).catch((error: { stdout: string; stderr: string }) => error);
      const report = JSON.parse(stdout) as {
        totals: { errors: number; warnings: number };
        problems: Array<{ ruleId: string; message: string; location: Array<{ pointer: string }> }>;
      };
      const problems = report.problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
      expect(problems, stderr).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 120_000);

  it('declares the token on every operation that needs one, and `security: []` on the open ones', () => {
    const tokenRoutes = [
      ['get', '/users/export'],
      ['post', '/users/import'],
      ['post', '/dictionaries/export-definition/{id}'],
      ['post', '/dictionaries/import-definition/start'],
      ['get', '/concepts/{id}/print-as-html'],
      ['get', '/concepts/print-as-html/{id}'],
      ['post', '/dictionaries/import-tbx'],
      ['get', '/dictionaries/export-tbx/{id}'],
      ['put', '/user-search-settings/setting'],
    ] as const;
    for (const [method, path] of tokenRoutes) {
      expect(operation(method, path).security, `${method} ${path}`).toEqual([{ XAuthToken: [] }]);
    }
    const open = allOperations
      .filter(({ op }) => op.security?.length === 0)
      .map(({ method, path }) => `${method} ${path}`);
    expect(open.sort()).toEqual(
      [
        'post /login',
        'post /reset-password',
        'post /reset-password/confirm',
        'get /system/features',
        'get /system/features/client/{clientLogin}',
        'get /system/features.js',
      ].sort(),
    );
    expect(allOperations.filter(({ op }) => op.security === undefined)).toEqual([]);
  });

  it('documents the refusals of login and the 404 of operations on one object', () => {
    expect(Object.keys(operation('post', '/login').responses)).toEqual(
      expect.arrayContaining(['200', '401', '403', '429']),
    );
    for (const path of [
      '/dictionaries/copy/{id}',
      '/dictionaries/empty/{id}',
      '/dictionaries/reindex/{id}',
      '/clients/generate-new-api-key/{clientId}',
    ]) {
      expect(Object.keys(operation('post', path).responses), path).toContain('404');
    }
  });

  it('puts format, with-comments and entry-id of POST/PUT in the query, not the body', () => {
    const queryOf = (op: Operation) =>
      (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
    const bodyOf = (op: Operation) =>
      Object.keys(op.requestBody?.content['application/json']?.schema.properties ?? {});
    expect(queryOf(operation('post', '/clients'))).toContain('format');
    expect(queryOf(operation('put', '/concepts/{id}'))).toEqual(
      expect.arrayContaining(['format', 'with-comments']),
    );
    expect(queryOf(operation('post', '/comments'))).toContain('entry-id');
    for (const { method, path, op } of allOperations.filter(
      ({ method }) => method === 'post' || method === 'put',
    )) {
      expect(bodyOf(op), `${method} ${path}`).not.toEqual(expect.arrayContaining(['format']));
      expect(bodyOf(op), `${method} ${path}`).not.toEqual(expect.arrayContaining(['with-comments']));
      expect(bodyOf(op), `${method} ${path}`).not.toEqual(expect.arrayContaining(['entry-id']));
    }
  });

  it('has no ±MAX_SAFE_INTEGER bounds (they became every integer example), shared components, unique tags', () => {
    const text = JSON.stringify(document);
    expect(text).not.toContain(String(Number.MAX_SAFE_INTEGER));
    for (const name of [
      'Concept',
      'Term',
      'Dictionary',
      'JobTask',
      'InvocationDone',
      'InvocationStarted',
      'DisplayConcept',
      'Error',
    ]) {
      expect(
        Object.keys(document.components.schemas).some((key) => key === name || key === `${name}Output`),
        name,
      ).toBe(true);
    }
    // The concept object was copied into 18 operations (13 KB each): now they refer to it.
    expect(text.match(/"#\/components\/schemas\/Concept(Output)?"/g)?.length ?? 0).toBeGreaterThanOrEqual(12);
    const tags = new Set(allOperations.flatMap(({ op }) => op.tags ?? []));
    expect([...tags].filter((tag) => tag.includes(','))).toEqual([]);
  });

  it('declares one name per parameter: none differ only by case or separator (orval would declare both)', () => {
    const wordsOf = (name: string) => name.replace(/[^A-Za-z0-9]/g, '').toLowerCase();
    const twice = allOperations.flatMap(({ method, path, op }) => {
      const names = (op.parameters ?? []).map((parameter) => `${parameter.in}:${wordsOf(parameter.name)}`);
      return names
        .filter((name, index) => names.indexOf(name) !== index)
        .map((name) => `${method} ${path} ${name}`);
    });
    expect(twice).toEqual([]);
  });

  it('gives generated types distinct names, as orval makes them from operation ids and schema names', () => {
    // orval names an operation's types <OperationId>Params and <OperationId>Body, beside the component schemas.
    const pascal = (name: string) =>
      name
        .split(/[^A-Za-z0-9]+/)
        .filter(Boolean)
        .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
        .join('');
    const names = [
      ...Object.keys(document.components.schemas).map(pascal),
      ...allOperations.flatMap(({ op }) => [
        `${pascal(op.operationId ?? '')}Params`,
        `${pascal(op.operationId ?? '')}Body`,
      ]),
    ];
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
  });

  it('describes every operation, and names each <area>-<action> once', () => {
    expect(allOperations.length).toBeGreaterThan(200);
    const undescribed = allOperations.filter(({ op }) => !op.description?.trim());
    expect(undescribed.map(({ method, path }) => `${method} ${path}`)).toEqual([]);
    const ids = allOperations.map(({ op }) => op.operationId ?? '');
    expect(ids.filter((id) => !/^[a-z][A-Za-z]*-[a-z][A-Za-z0-9]*$/.test(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    // Descriptions and examples kept beside the procedures name only operations that exist.
    expect(Object.keys(operationDescriptions).filter((id) => !ids.includes(id))).toEqual([]);
    expect(Object.keys(requestExamples).filter((id) => !ids.includes(id))).toEqual([]);
  });

  it('defines every tag at the top level with a description, and no tag that is unused', () => {
    const defined = (document.tags ?? []).map((tag) => tag.name);
    const used = new Set(allOperations.flatMap(({ op }) => op.tags ?? []));
    expect([...used].filter((tag) => !defined.includes(tag))).toEqual([]);
    expect(defined.filter((tag) => !used.has(tag))).toEqual([]);
    expect((document.tags ?? []).filter((tag) => !tag.description)).toEqual([]);
  });

  it('answers every error, 500 included, with the one Error schema (login refusals: the login body)', () => {
    const other = allOperations.flatMap(({ method, path, op }) =>
      Object.entries(op.responses)
        .filter(([status]) => Number(status) >= 400)
        .filter(([status]) => !(path === '/login' && (status === '401' || status === '403')))
        .filter(([, response]) => !JSON.stringify(response).includes('"#/components/schemas/Error"'))
        .map(([status]) => `${method} ${path} ${status}`),
    );
    expect(other).toEqual([]);
    expect(Object.keys(document.components.schemas).filter((name) => name.startsWith('error.'))).toEqual([]);
  });

  it('shows request examples of the main writes that the server itself accepts', () => {
    const procedures = appRouter._def.procedures as unknown as Record<
      string,
      { _def: { inputs: z.ZodType[] } }
    >;
    const examples = allOperations.filter(({ op }) => op.requestBody?.content['application/json']?.example);
    expect(examples.length).toBeGreaterThanOrEqual(10);
    for (const { method, path, op } of examples) {
      const procedure = procedures[(op.operationId ?? '').replace('-', '.')];
      expect(procedure, `${method} ${path}`).toBeDefined();
      // Required query and path parameters travel beside the body; any valid value does.
      const parameters = Object.fromEntries(
        (op.parameters ?? [])
          .filter((parameter) => parameter.required)
          .map((parameter) => [parameter.name, parameter.schema?.type === 'integer' ? 1 : 'x']),
      );
      const input = { ...parameters, ...(op.requestBody!.content['application/json']!.example as object) };
      for (const schema of procedure!._def.inputs) {
        const parsed = schema.safeParse(input);
        expect(parsed.error?.issues ?? [], `${method} ${path}`).toEqual([]);
      }
    }
  });

  it('answers a job-capable call with a required result (200) or a required jobTaskId (202)', () => {
    const schemas = document.components.schemas as Record<string, { required?: string[] }>;
    expect(schemas.InvocationDone?.required).toEqual(['result']);
    expect(schemas.InvocationStarted?.required).toEqual(['jobTaskId']);
    const copy = operation('post', '/dictionaries/copy/{id}').responses as Record<string, unknown>;
    expect(JSON.stringify(copy['200'])).toContain('#/components/schemas/InvocationDone');
    expect(JSON.stringify(copy['202'])).toContain('#/components/schemas/InvocationStarted');
  });
});

describe('the documented statuses are the answered ones', () => {
  it('answers 404 for an unknown id on copy, empty, reindex and generate-new-api-key', async () => {
    for (const path of [
      '/dictionaries/copy/',
      '/dictionaries/empty/',
      '/dictionaries/reindex/',
      '/clients/generate-new-api-key/',
    ]) {
      const response = await sysadmin.post(`${path}2000000000`);
      expect(response.status, `${path}: ${response.text}`).toBe(404);
    }
  });

  it('still reads format from the query string of a POST', async () => {
    const suffix = Date.now().toString(36);
    const response = await sysadmin.call('POST', '/clients?format=ID', {
      json: { name: `Query ${suffix}`, loginName: `q${suffix}` },
    });
    expect(response.status).toBe(201);
    expect(Object.keys(response.body as object)).toEqual(['id']);
  });
});
