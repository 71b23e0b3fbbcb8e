import type { FastifyRequest } from 'fastify';

/** Query parameters that carry secrets when a client puts them in the URL (a token, a password, a key). */
const SECRET_PARAMETER =
  /^(token|x-auth-token|auth|password|confirmpassword|confirm-password|apikey|api-key|api_key|key|secret|jsessionid)$/i;

/**
 * The URL with the values of secret-bearing query parameters replaced by `[redacted]`. The server
 * never reads a token from the query string, but clients send one there anyway, and the request log
 * wrote it verbatim.
 */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart < 0) return url;
  const query = url
    .slice(queryStart + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const rawName = equals < 0 ? pair : pair.slice(0, equals);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        // an undecodable name is kept as it is
      }
      return equals >= 0 && SECRET_PARAMETER.test(name.trim()) ? `${rawName}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, queryStart)}?${query}`;
}

/** Fastify's request log line (its default fields), with the URL's secrets redacted. */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
