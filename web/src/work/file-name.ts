/**
 * The file name a Content-Disposition header gives: RFC 6266's `filename*` (UTF-8, percent-encoded) when
 * present, since the plain `filename` the server adds for old clients has its non-ASCII letters replaced.
 */
export function fileNameOf(disposition: string, fallback: string): string {
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended.trim());
    } catch {
      // A malformed encoding: the plain name below.
    }
  }
  return /filename\s*=\s*"?([^";]+)"?/i.exec(disposition)?.[1] ?? fallback;
}
