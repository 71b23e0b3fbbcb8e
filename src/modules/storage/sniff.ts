import { fileTypeFromBuffer } from 'file-type';

/** Bytes the sniffer looks at: enough for file-type's container checks (zip, ISO BMFF) and text prologs. */
export const SNIFF_BYTES = 64 * 1024;

export const OCTET_STREAM = 'application/octet-stream';

/**
 * The media type of a file from its first bytes, never from its name or the client's Content-Type.
 * Binary formats come from `file-type` (magic numbers); it leaves text alone, so text is judged here:
 * SVG, HTML and XML by their first element, anything else valid UTF-8 as text/plain. Unknown binary
 * data is application/octet-stream.
 */
export async function sniffContentType(head: Uint8Array): Promise<string> {
  const detected = await fileTypeFromBuffer(head);
  if (detected && detected.mime !== 'application/xml') return detected.mime;
  const text = utf8Text(head);
  if (text === undefined) return detected?.mime ?? OCTET_STREAM;
  return textType(text);
}

/** The head as text when it is UTF-8 without NUL bytes (a cut multi-byte character at the end is fine). */
function utf8Text(head: Uint8Array): string | undefined {
  if (head.includes(0)) return undefined;
  try {
    // fatal: invalid UTF-8 is binary data; `stream` tolerates a character cut at the end of the head.
    return new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
  } catch {
    return undefined;
  }
}

/** Prolog that may precede the first element: BOM, XML declaration, comments, doctype, blanks. */
const PROLOG = /^(?:\uFEFF|\s+|<\?xml[^>]*\?>|<!--[\s\S]*?-->|<!DOCTYPE(?:[^>[]|\[[\s\S]*?\])*>)*/i;

function textType(text: string): string {
  const body = text.replace(PROLOG, '');
  if (/^<svg[\s>/]/i.test(body)) return 'image/svg+xml';
  if (/^<!doctype\s+html|^<(?:html|head|body|script|iframe)[\s>]/i.test(text.replace(/^\uFEFF?\s*/, ''))) {
    return 'text/html';
  }
  if (/^<html[\s>]/i.test(body)) return 'text/html';
  if (/^<\?xml/i.test(text.replace(/^\uFEFF/, '')) || /^<[A-Za-z_][\w:.-]*[\s>/]/.test(body)) {
    return 'application/xml';
  }
  return 'text/plain';
}

/**
 * Raster images browsers show and sharp decodes: these are served inline and get thumbnails. SVG is not
 * among them, as it can carry script.
 */
export const RASTER_IMAGE_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
]);
