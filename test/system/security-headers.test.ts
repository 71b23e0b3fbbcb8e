/**
 * What every answer carries for browsers (helmet's headers; HSTS on https only), the session cookie's
 * Secure flag behind a TLS proxy (TRUST_PROXY), and secrets in a URL kept out of the request log.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { type MikroORM, openOrm } from '../../src/db/orm.js';
import { redactUrl } from '../../src/shared/log-redaction.js';
import { TEST_ADMIN_PASSWORD } from '../helpers/constants.js';

let orm: MikroORM;
beforeAll(async () => {
  orm = await openOrm(inject('databaseUrl'));
});
afterAll(() => orm.close(true));

async function appWith(env: Record<string, string>, logLines?: string[]) {
  const config = loadConfig({
    DATABASE_URL: inject('databaseUrl'),
    ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    LOG_LEVEL: 'info',
    // The run's shared database: leave webhook delivery to the webhook suites (test/helpers/app.ts).
    WEBHOOKS_DISPATCH: 'false',
    ...env,
  });
  const app = await buildApp({ config, orm, logStream: { write: (line) => logLines?.push(line) } });
  await app.ready();
  return app;
}

const login = (app: Awaited<ReturnType<typeof appWith>>, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url: '/api/v4/login',
    payload: `username=admin&password=${encodeURIComponent(TEST_ADMIN_PASSWORD)}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  });

describe('security headers', () => {
  it('go on every answer; no HSTS over plain http; the cookie is not Secure there', async () => {
    const app = await appWith({});
    try {
      for (const url of ['/api/v4/system/features', '/api/v4/no-such-path', '/health']) {
        const response = await app.inject({ method: 'GET', url });
        expect(response.headers['x-content-type-options'], url).toBe('nosniff');
        expect(response.headers['x-frame-options'], url).toBe('SAMEORIGIN');
        expect(response.headers['strict-transport-security'], url).toBeUndefined();
      }
      // Without TRUST_PROXY a forwarded protocol is not believed.
      const response = await login(app, { 'x-forwarded-proto': 'https' });
      expect(response.statusCode).toBe(200);
      expect(String(response.headers['set-cookie'])).not.toMatch(/Secure/i);
      expect(response.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await app.close();
    }
  });

  it('behind a trusted TLS proxy: the session cookie is Secure and HSTS is sent', async () => {
    const app = await appWith({ TRUST_PROXY: 'true' });
    try {
      const response = await login(app, { 'x-forwarded-proto': 'https' });
      expect(response.statusCode).toBe(200);
      expect(String(response.headers['set-cookie'])).toMatch(/; Secure/);
      expect(response.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
    } finally {
      await app.close();
    }
  });
});

describe('secrets in the URL', () => {
  it('are redacted in the request log', async () => {
    const lines: string[] = [];
    const app = await appWith({}, lines);
    try {
      await app.inject({
        method: 'GET',
        url: '/api/v4/clients?token=s3cr3t-token&name=kept&X-Auth-Token=other-s3cr3t&password=pw-s3cr3t',
      });
      const log = lines.join('');
      expect(log).toContain('name=kept');
      expect(log).toContain('token=[redacted]');
      expect(log).not.toMatch(/s3cr3t/);
    } finally {
      await app.close();
    }
  });

  it('redactUrl keeps everything else as sent', () => {
    expect(redactUrl('/api/v4/x')).toBe('/api/v4/x');
    expect(redactUrl('/x?a=1&apiKey=k&b&API-KEY=k2')).toBe('/x?a=1&apiKey=[redacted]&b&API-KEY=[redacted]');
    expect(redactUrl('/x?%74oken=t')).toBe('/x?%74oken=[redacted]');
  });
});
