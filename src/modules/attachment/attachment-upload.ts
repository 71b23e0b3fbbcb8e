import type { BlobInfo } from '../storage/blob-store.js';

/**
 * A blob the REST upload route has just stored: an instance, so that only server code can hand one to
 * the upload procedure (JSON from a tRPC caller never is one).
 */
export class UploadedBlob {
  constructor(
    readonly blob: BlobInfo,
    readonly fileName: string | undefined,
    readonly declaredType: string | undefined,
  ) {}
}
