import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

/**
 * The docs page (Swagger UI at /api/docs). These functions run in the browser: @fastify/swagger-ui writes
 * them into its initializer script with Function.prototype.toString, so they may use only browser globals
 * and must not refer to anything of this module.
 */
declare const window: {
  polytermDocs?: {
    preauthorizeApiKey(name: string, value: string): void;
    authActions: { persistAuthorizationIfNeeded(): void };
  };
};
declare const SwaggerUIBundle: { plugins: { DownloadUrl(system: unknown): unknown } };

/** Swagger UI's own plugin that its standalone layout needs; listed again because `plugins` replaces the list. */
function downloadUrl(system: unknown) {
  return SwaggerUIBundle.plugins.DownloadUrl(system);
}

/** Keeps Swagger UI's system at hand for the response interceptor. */
function rememberSystem() {
  return {
    afterLoad(system: NonNullable<typeof window.polytermDocs>) {
      window.polytermDocs = system;
    },
  };
}

/** A successful "Try it out" of POST /login authorizes every further call with the token it answered. */
function takeTokenOfLogin(response: {
  url?: string;
  ok?: boolean;
  body?: { token?: { token?: string } | null };
}) {
  const path = (response.url ?? '').split('?')[0] ?? '';
  const token = response.body?.token?.token;
  if (response.ok && /\/api\/v4\/login$/.test(path) && token && window.polytermDocs) {
    window.polytermDocs.preauthorizeApiKey('XAuthToken', token);
    // preauthorizeApiKey only authorizes; the Authorize dialog also stores the token (persistAuthorization),
    // which is what lets it survive a reload.
    window.polytermDocs.authActions.persistAuthorizationIfNeeded();
  }
  return response;
}

export async function registerDocsPage(app: FastifyInstance): Promise<void> {
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    uiConfig: {
      // The token stays authorized across reloads of the page (local storage of this browser).
      persistAuthorization: true,
      plugins: [downloadUrl, rememberSystem],
      responseInterceptor: takeTokenOfLogin,
    } as Record<string, unknown>,
  });
}
