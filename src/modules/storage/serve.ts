import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BlobInfo, BlobStore } from './blob-store.js';
import { RASTER_IMAGE_TYPES } from './sniff.js';

/**
 * Headers for a stored file, so that nothing uploaded can run in Polyterm's origin: the sniffed type
 * (never the client's), `nosniff` so the browser keeps to it, a CSP that forbids every script, plugin
 * and frame and sandboxes the document (an HTML or SVG file opened directly gets an opaque origin), and
 * `attachment` for everything but raster images, which alone are shown inline.
 */
export function fileHeaders(info: BlobInfo, fileName: string): Record<string, string> {
  const inline = RASTER_IMAGE_TYPES.has(info.contentType);
  return {
    'content-type': inline || info.contentType.startsWith('image/') ? info.contentType : safeType(info),
    'content-length': String(info.size),
    'content-disposition': `${inline ? 'inline' : 'attachment'}; ${dispositionName(fileName)}`,
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    'cross-origin-resource-policy': 'same-origin',
    etag: `"${info.sha256}"`,
    'cache-control': 'private, max-age=31536000, immutable',
  };
}

/** Active text types (HTML, SVG, XML) go out as what they are, but only ever as attachments. */
function safeType(info: BlobInfo): string {
  return info.contentType.startsWith('text/') ? `${info.contentType}; charset=utf-8` : info.contentType;
}

/** RFC 6266 file name: an ASCII fallback and the UTF-8 name (RFC 8187). */
export function dispositionName(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\%]/g, '_') || 'file';
  return `filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** Sends a blob with fileHeaders; answers 304 to a matching If-None-Match (blobs never change). */
export async function sendBlob(
  request: FastifyRequest,
  reply: FastifyReply,
  store: BlobStore,
  info: BlobInfo,
  fileName: string,
): Promise<FastifyReply> {
  const headers = fileHeaders(info, fileName);
  if (request.headers['if-none-match'] === headers.etag) {
    const { 'content-length': _length, ...rest } = headers;
    return reply.code(304).headers(rest).send();
  }
  return reply.headers(headers).send(await store.get(info.key));
}
