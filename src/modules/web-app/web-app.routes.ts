import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * The browser application (web/, built by `npm run build` into dist/web) served at `/`.
 *
 * Vite names every asset after its content, so /assets/* may be cached for a year; index.html names the
 * assets of the current build and must be asked for again each time (no-cache). The pages of the app
 * are listed, not caught by a wildcard: an unknown /api/v4, /trpc or /graphql path keeps answering its
 * JSON 404. The Content-Security-Policy allows scripts from this origin only (no inline scripts, no
 * eval); it is set on the app's pages alone, since the API docs page and GraphiQL run inline scripts.
 * The build writes a Brotli and a gzip copy beside each text asset (web/precompress.ts); `preCompressed`
 * sends the copy the browser accepts, so no request spends CPU on compression.
 */

/** Client-side routes of web/src/routes.ts; a reload or a shared link on any of them gets index.html. */
export const WEB_APP_PAGES = [
  '/',
  '/signin',
  '/search',
  '/concepts/*',
  '/tbx',
  '/preferences',
  '/check',
  '/inbox',
  '/feedback', // the feedback the user sent (web/src/feedback/MyFeedbackScreen.tsx)
  '/workflows', // workflow-editor
  '/projects', // projects (web/src/screens/projects)
  '/projects/*',
  '/staging', // staging areas (web/src/screens/staging)
  '/staging/*',
  '/admin', // administration (web/src/screens/admin)
  '/admin/*',
] as const;

export const WEB_APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // React sets style properties through the CSSOM, which CSP allows; Radix's scroll lock adds a <style>.
  "style-src 'self' 'unsafe-inline'",
  // blob: for attachment thumbnails, fetched with the token and shown from object URLs (docs/attachments.md).
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const YEAR_SECONDS = 365 * 24 * 3600;

/** dist/web of this checkout, from src/modules/web-app (tsx) or dist/src/modules/web-app (built). */
export function webAppDirectory(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const root = resolve(here, '../../..');
  return basename(root) === 'dist' ? join(root, 'web') : join(root, 'dist', 'web');
}

function sendIndex(reply: FastifyReply, html: string) {
  return reply
    .header('cache-control', 'no-cache')
    .header('content-security-policy', WEB_APP_CSP)
    .type('text/html; charset=utf-8')
    .send(html);
}

export async function registerWebApp(app: FastifyInstance, directory = webAppDirectory()): Promise<void> {
  const indexPath = join(directory, 'index.html');
  if (!existsSync(indexPath)) {
    app.log.warn({ directory }, 'the web application is not built (npm run build); / is not served');
    return;
  }
  // Read per request: a rebuild while the server runs (npm run build, the tests) is picked up.
  const page = async (_request: unknown, reply: FastifyReply) =>
    sendIndex(reply, readFileSync(indexPath, 'utf8'));
  for (const path of WEB_APP_PAGES) app.get(path, page);

  await app.register(fastifyStatic, {
    root: join(directory, 'assets'),
    prefix: '/assets/',
    decorateReply: false,
    index: false,
    wildcard: true,
    cacheControl: false,
    preCompressed: true,
    setHeaders: (res) => {
      res.setHeader('cache-control', `public, max-age=${YEAR_SECONDS}, immutable`);
      // Caches between must keep the compressed and the plain answer apart.
      res.setHeader('vary', 'accept-encoding');
    },
  });
}
