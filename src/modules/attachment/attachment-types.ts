import { AppError } from '../../shared/errors.js';
import { OCTET_STREAM } from '../storage/sniff.js';

/**
 * What a file name's extension claims, as media types the sniffer can answer. An extension listed here
 * that disagrees with the bytes is a mislabelled file and refused; other extensions claim nothing.
 */
const CLAIMS: Record<string, readonly string[]> = {
  png: ['image/png'],
  jpg: ['image/jpeg'],
  jpeg: ['image/jpeg'],
  gif: ['image/gif'],
  webp: ['image/webp'],
  avif: ['image/avif'],
  tif: ['image/tiff'],
  tiff: ['image/tiff'],
  bmp: ['image/bmp'],
  svg: ['image/svg+xml'],
  pdf: ['application/pdf'],
  html: ['text/html'],
  htm: ['text/html'],
  xml: ['application/xml', 'image/svg+xml'],
  txt: ['text/plain'],
  csv: ['text/plain'],
  zip: ['application/zip'],
  docx: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'application/zip'],
  xlsx: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/zip'],
  pptx: ['application/vnd.openxmlformats-officedocument.presentationml.presentation', 'application/zip'],
  mp3: ['audio/mpeg'],
  mp4: ['video/mp4'],
  wav: ['audio/wav', 'audio/vnd.wave'],
};

/** Types refused whatever the name says: programs have no place in a termbase. */
const REFUSED = new Set([
  'application/x-msdownload',
  'application/x-elf',
  'application/x-mach-binary',
  'application/x-sharedlib',
  'application/vnd.microsoft.portable-executable',
]);

/**
 * Checks the sniffed type against what the client said: the file name's extension and the part's
 * Content-Type (when it names a concrete type). A mismatch answers 400 naming both, so a PNG-named HTML
 * page or an "image/png" SVG never gets in under a false type.
 */
export function assertTypeMatches(sniffed: string, fileName: string, declared: string | undefined): void {
  if (REFUSED.has(sniffed)) throw new AppError('BAD_REQUEST', `Files of type ${sniffed} are not accepted`);
  const extension = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase();
  const claimed = extension ? CLAIMS[extension] : undefined;
  if (claimed && !claimed.includes(sniffed)) {
    throw new AppError(
      'BAD_REQUEST',
      `The file's content is ${sniffed}, but its name "${fileName}" says ${claimed[0]}`,
    );
  }
  const type = declared?.split(';')[0]?.trim().toLowerCase();
  const concrete = type && type !== OCTET_STREAM && !type.endsWith('/*');
  if (concrete && type.startsWith('image/') && type !== sniffed) {
    throw new AppError('BAD_REQUEST', `The file's content is ${sniffed}, but it was sent as ${type}`);
  }
}
