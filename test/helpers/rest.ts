import type { FastifyInstance } from 'fastify';
import { TEST_ADMIN_PASSWORD } from './constants.js';

export interface RestResponse<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: T;
  text: string;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A REST caller for /api/v4 through Fastify's injection (HTTP semantics without a socket). */
export class RestClient {
  constructor(
    private readonly app: FastifyInstance,
    readonly token?: string,
  ) {}

  withToken(token: string): RestClient {
    return new RestClient(this.app, token);
  }

  async call<T = unknown>(
    method: Method,
    path: string,
    options: { json?: unknown; form?: Record<string, string>; headers?: Record<string, string> } = {},
  ): Promise<RestResponse<T>> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (this.token) headers['x-auth-token'] = this.token;
    let payload: string | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(options.json);
    } else if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = new URLSearchParams(options.form).toString();
    }
    const response = await this.app.inject({ method, url: `/api/v4${path}`, headers, payload });
    let body: unknown = response.body;
    if (String(response.headers['content-type'] ?? '').includes('json') && response.body !== '') {
      body = JSON.parse(response.body);
    }
    return { status: response.statusCode, headers: response.headers, body: body as T, text: response.body };
  }

  get<T = unknown>(path: string) {
    return this.call<T>('GET', path);
  }
  post<T = unknown>(path: string, json?: unknown) {
    return this.call<T>('POST', path, { json });
  }
  put<T = unknown>(path: string, json?: unknown) {
    return this.call<T>('PUT', path, { json });
  }
  delete<T = unknown>(path: string) {
    return this.call<T>('DELETE', path);
  }

  /** POST multipart/form-data with one file member (`file` unless named) and text members. */
  async upload<T = unknown>(
    path: string,
    file: { content: string | Buffer; filename?: string; field?: string; contentType?: string },
    fields: Record<string, string> = {},
  ): Promise<RestResponse<T>> {
    const boundary = `----polyterm-test-${Date.now().toString(16)}`;
    const parts: Buffer[] = [];
    for (const [name, value] of Object.entries(fields)) {
      parts.push(
        Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
      );
    }
    parts.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.filename ?? 'upload.xml'}"\r\n` +
          `content-type: ${file.contentType ?? 'application/xml'}\r\n\r\n`,
      ),
      Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    );
    const headers: Record<string, string> = { 'content-type': `multipart/form-data; boundary=${boundary}` };
    if (this.token) headers['x-auth-token'] = this.token;
    const response = await this.app.inject({
      method: 'POST',
      url: `/api/v4${path}`,
      headers,
      payload: Buffer.concat(parts),
    });
    const json = String(response.headers['content-type'] ?? '').includes('json') && response.body !== '';
    return {
      status: response.statusCode,
      headers: response.headers,
      body: (json ? JSON.parse(response.body) : response.body) as T,
      text: response.body,
    };
  }
}

export interface LoginBody {
  token: { token: string; expirationTime: number } | null;
  errorMessage: string | null;
}

/** Logs in through the REST form endpoint and returns a client carrying the token. */
export async function loginRest(
  app: FastifyInstance,
  username: string,
  password: string,
  client?: string,
): Promise<RestClient> {
  const anonymous = new RestClient(app);
  const response = await anonymous.call<LoginBody>('POST', '/login', {
    form: { username, password, ...(client ? { client } : {}) },
  });
  if (response.status !== 200 || !response.body.token) {
    throw new Error(`login of ${username}@${client ?? 'admin'} failed: ${response.status} ${response.text}`);
  }
  return anonymous.withToken(response.body.token.token);
}

export const loginSysadmin = (app: FastifyInstance) => loginRest(app, 'admin', TEST_ADMIN_PASSWORD);
