import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import type { MikroORM } from '@mikro-orm/postgresql';
import { type FastifyTRPCPluginOptions, fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { databaseOutageError } from './db/errors.js';
import { closePgListener } from './db/pg-listener.js';
import { registerGraphQL } from './graphql/yoga.js';
import { startAccessCache } from './modules/access/access-cache.js';
import { attachmentPaths, attachmentRoutes } from './modules/attachment/attachment.rest.js';
import { authenticate } from './modules/auth/auth.service.js';
import { definitionPaths, definitionRoutes } from './modules/dictionary-definition/definition.rest.js';
import { printPaths, printRoute } from './modules/display/print.rest.js';
import { type EventHub, startEventHub } from './modules/events/event-hub.js'; // event-wakeups
import { eventStreamPaths, eventStreamRoutes } from './modules/events/event-sse.js'; // events
import { NatsPublisher } from './modules/events/nats/nats-publisher.js'; // webhooks
import { WebhookDispatcher } from './modules/events/webhooks/webhook-dispatcher.js'; // webhooks
import { sealStoredSecrets } from './modules/events/webhooks/webhook-secret-box.js'; // webhook-secrets
import { feedbackPaths, feedbackRoutes } from './modules/feedback/feedback.rest.js'; // feedback
import { JobHeartbeat } from './modules/jobs/job-heartbeat.js';
import { multitermPaths, multitermRoutes } from './modules/multiterm/multiterm.rest.js';
import { createSearchRuntime } from './modules/search/search-runtime.js';
import { searchSettingPaths, searchSettingRoute } from './modules/search-settings/search-settings.rest.js';
import { skosPaths, skosRoutes } from './modules/skos/skos.rest.js';
import { spreadsheetPaths, spreadsheetRoutes } from './modules/spreadsheet/spreadsheet.rest.js';
import { ApiRequestCounter } from './modules/statistics/api-request-counter.js';
import { StorageSweeper } from './modules/storage/storage-sweeper.js';
import { registerHealthRoutes } from './modules/system/health.routes.js';
import { featuresScriptPaths, featuresScriptRoute } from './modules/system/system.rest.js';
import { tbxPaths, tbxRoutes } from './modules/tbx/tbx.rest.js';
import { userTransferPaths, userTransferRoutes } from './modules/user/user.rest.js';
import { registerWebApp } from './modules/web-app/web-app.routes.js';
import { WorkflowSweeper } from './modules/workflow/workflow-sweeper.js';
import { clientErrorHandler, frameworkErrors } from './rest/connection-errors.js';
import { registerCors } from './rest/cors.js';
import { registerDocsPage } from './rest/docs-page.js';
import { sendError, sendSurfaceError } from './rest/error-body.js';
import type { ContextFactory } from './rest/procedure-call.js';
import type { RawRoute } from './rest/raw-route.js';
import { registerRequestGuards } from './rest/request-guards.js';
import { restAdapter } from './rest/rest-adapter.js';
import { AppError, httpStatusOf } from './shared/errors.js';
import { loggerOptions } from './shared/logger.js';
import { setMetricsRoute, trpcMetricsRoute } from './shared/metrics-route.js';
import { registerSecurityHeaders } from './shared/security-headers.js';
import { createContextFactory } from './trpc/context.js';
import { buildOpenApiDocument } from './trpc/openapi.js';
import { type AppRouter, appRouter } from './trpc/router.js';

export interface AppDeps {
  config: Config;
  orm: MikroORM;
  /** Where the JSON log goes; standard output unless given (tests read it). */
  logStream?: { write(line: string): void };
  /** Where the built web application is (default dist/web of this checkout); tests build their own. */
  webAppDirectory?: string;
}

const codeForStatus: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE',
};

/** Fastify says only "Unsupported Media Type": name what was sent and what is read instead. */
const unsupportedMediaType = (contentType: string | undefined) =>
  `Unsupported Media Type ${contentType?.split(';')[0]?.trim() || '(none)'}: send application/json` +
  ' (login also takes a form; uploads take multipart/form-data)';

/** OpenAPI entries of the REST-only routes; static, so the committed document is generated without a server. */
export const rawRoutePaths = {
  ...featuresScriptPaths,
  ...userTransferPaths,
  ...searchSettingPaths,
  ...definitionPaths,
  ...printPaths,
  ...tbxPaths,
  ...attachmentPaths,
  ...spreadsheetPaths,
  ...multitermPaths,
  ...skosPaths,
  ...feedbackPaths, // feedback
  ...eventStreamPaths, // events
};

/** The REST-only routes beside the procedures; their paths join the OpenAPI document. */
export function rawRoutes(deps: AppDeps, createContext: ContextFactory): RawRoute[] {
  return [
    featuresScriptRoute(deps.config, deps.orm),
    userTransferRoutes(deps.config, createContext),
    searchSettingRoute(createContext),
    definitionRoutes(deps.config, createContext),
    printRoute(createContext),
    tbxRoutes(deps.config, createContext),
    attachmentRoutes(deps.config, createContext),
    spreadsheetRoutes(deps.config, createContext),
    multitermRoutes(deps.config, createContext),
    skosRoutes(deps.config, createContext),
    feedbackRoutes(deps.config, createContext), // feedback
    eventStreamRoutes(createContext), // events
  ];
}

/** Builds the whole server: REST /api/v4, tRPC /trpc, GraphQL /graphql, docs, health. Never listens. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    logger: { ...loggerOptions(config.LOG_LEVEL), ...(deps.logStream ? { stream: deps.logStream } : {}) },
    trustProxy: config.TRUST_PROXY,
    requestIdHeader: 'x-request-id',
    routerOptions: { maxParamLength: 5000 },
    bodyLimit: 10 * 1024 * 1024,
    // A client trickling its request (a byte every few seconds) is cut off, not served for ever. Node
    // checks its connections every connectionsCheckingInterval (30 s unless set), and enforces
    // requestTimeout only when headersTimeout (60 s unless set) is no longer (tried on Node 24).
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    http: {
      connectionsCheckingInterval: 1000,
      ...(config.REQUEST_TIMEOUT_MS > 0
        ? { headersTimeout: Math.min(60_000, config.REQUEST_TIMEOUT_MS) }
        : {}),
    },
    clientErrorHandler,
    frameworkErrors,
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    // 503 when the database took nothing of the request, 504 when its commit went unconfirmed.
    const outage = databaseOutageError(error);
    if (outage) {
      request.log.warn({ err: error }, outage.message);
      return sendSurfaceError(request, reply, httpStatusOf[outage.code], {
        code: outage.code,
        message: outage.message,
      });
    }
    // Refusals of the input boundary (src/rest/request-guards.ts) and of raw routes.
    if ((error as unknown) instanceof AppError) {
      const appError = error as unknown as AppError;
      return sendSurfaceError(request, reply, httpStatusOf[appError.code], {
        code: appError.code,
        message: appError.message,
      });
    }
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return sendError(reply, 500, { code: 'INTERNAL_SERVER_ERROR', message: 'Internal server error' });
    }
    return sendSurfaceError(request, reply, status, {
      code: codeForStatus[status] ?? 'BAD_REQUEST',
      message: status === 415 ? unsupportedMediaType(request.headers['content-type']) : error.message,
    });
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, 404, {
      code: 'NOT_FOUND',
      message: `No endpoint ${request.method} ${request.url.split('?')[0]}`,
    }),
  );

  registerCors(app, config.CORS_ORIGINS);
  registerRequestGuards(app);
  await registerSecurityHeaders(app);
  await app.register(cookie);
  // API-login requests are counted in memory and written in batches; what is pending is written on close.
  const apiRequests = new ApiRequestCounter(deps.orm, app.log);
  app.decorate('apiRequests', apiRequests);
  app.addHook('onReady', async () => apiRequests.start());
  app.addHook('onClose', () => apiRequests.close());
  // Keeps this server's jobs alive in the table and fails the jobs of servers that are gone.
  const jobHeartbeat = new JobHeartbeat(deps.orm, app.log);
  app.addHook('onReady', async () => jobHeartbeat.start());
  app.addHook('onClose', () => jobHeartbeat.close());
  // Workflow re-validation and e-mail, once a minute (docs/workflows.md).
  const workflowSweeper = new WorkflowSweeper(deps.orm, config, app.log);
  app.addHook('onReady', async () => workflowSweeper.start());
  app.addHook('onClose', () => workflowSweeper.close());
  // Files nothing names any more, after a grace period (docs/attachments.md "Unreferenced files").
  const storageSweeper = new StorageSweeper(deps.orm, config, app.log);
  app.addHook('onReady', async () => storageSweeper.start());
  app.addHook('onClose', () => storageSweeper.close());
  // Live event streams wake on the commits' notifications (docs/events.md, "Waking up").
  let hub: EventHub | undefined;
  app.addHook('onReady', async () => {
    hub = await startEventHub(deps.orm, app.log, config.EVENTS_POLL_MS);
  });
  app.addHook('onClose', async () => hub?.close());
  // Webhook delivery and NATS publishing from the event log, leased so servers share them (docs/events.md).
  // Webhook secrets at rest: encrypted with the key, and those stored before it encrypted now.
  app.addHook('onReady', async () => {
    if (!config.WEBHOOK_SECRET_KEY) {
      app.log.warn('WEBHOOK_SECRET_KEY is not set: webhook signing secrets are stored unencrypted');
      return;
    }
    const sealed = await sealStoredSecrets(deps.orm.em.fork(), config);
    if (sealed > 0)
      app.log.info({ sealed }, 'encrypted the webhook secrets stored before WEBHOOK_SECRET_KEY');
  });
  if (config.WEBHOOKS_DISPATCH) {
    const dispatcher = new WebhookDispatcher(deps.orm, config, app.log); // webhooks
    app.addHook('onReady', async () => dispatcher.start());
    app.addHook('onClose', () => dispatcher.close());
    if (config.EVENTS_NATS_URL) {
      const publisher = new NatsPublisher(deps.orm, config, app.log);
      app.addHook('onReady', async () => publisher.start());
      app.addHook('onClose', () => publisher.close());
    }
  }
  const search = createSearchRuntime(deps.orm, config, app.log);
  app.addHook('onReady', async () => {
    app.log.info({ engine: search.engine.name }, `term search runs on ${search.engine.name}`);
    // Waits for the search index to exist, so a server whose Elasticsearch is up starts serving it.
    await search.start();
  });
  app.addHook('onClose', () => search.stop());
  // Sessions and search contexts in memory, dropped on every notification of a write to them.
  if (config.ACCESS_CACHE) {
    // Startup waits a little for the LISTEN connection, not for a database that is slow to answer: until
    // it is connected the cache serves nothing.
    app.addHook('onReady', async () => {
      const listening = startAccessCache(deps.orm, app.log);
      await Promise.race([listening, new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
    });
  }
  // The shared LISTEN connection (src/db/pg-listener.ts), once every user of it has stopped.
  app.addHook('onClose', () => closePgListener(deps.orm));
  const createContext = createContextFactory({ ...deps, apiRequests });

  const raw = rawRoutes(deps, (req, reply) => createContext(req, reply, 'rest'));
  const openApiDocument = buildOpenApiDocument(rawRoutePaths);
  const openApiRoute: RawRoute = {
    paths: {},
    plugin: async (scope) => {
      scope.get('/openapi.json', { config: { open: true } }, async () => openApiDocument);
    },
  };

  await app.register(restAdapter, {
    prefix: '/api/v4',
    router: appRouter,
    createContext: (req, reply) => createContext(req, reply, 'rest'),
    rawRoutes: [openApiRoute, ...raw].map((route) => route.plugin),
    maxBodySize: 10 * 1024 * 1024,
    authenticate: (token) => authenticate(deps.orm.em.fork(), token),
  });

  // Metrics count tRPC calls per procedure (the plugin serves them all from one route).
  const procedures = new Set(Object.keys(appRouter._def.procedures));
  app.addHook('onRequest', async (request) => {
    if (request.url.startsWith('/trpc/')) setMetricsRoute(request, trpcMetricsRoute(request.url, procedures));
  });
  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: {
      router: appRouter,
      createContext: ({ req, res }) => createContext(req, res, 'trpc'),
      onError: ({ error, req }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR')
          req.log.error({ err: error.cause ?? error }, 'tRPC call failed');
      },
    } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'],
  });

  registerGraphQL(app, (req, reply) => createContext(req, reply, 'graphql'), config.MAX_FILE_SIZE);

  // The docs page is Swagger UI from npm, fed the same document as /api/v4/openapi.json.
  await app.register(swagger, { mode: 'static', specification: { document: openApiDocument as never } });
  await registerDocsPage(app);

  registerHealthRoutes(app, deps.orm, search);
  // The browser application at / (web/, built into dist/web).
  await registerWebApp(app, deps.webAppDirectory);
  return app;
}
