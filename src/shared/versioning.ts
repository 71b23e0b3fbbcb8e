import { staleVersion } from './errors.js';

/** Optimistic locking: an update must carry the stored version; otherwise 409 and nothing changes. */
export function assertVersion(row: { version: number }, sent: number | undefined | null, what: string): void {
  if (sent === undefined || sent === null || sent !== row.version) throw staleVersion(what);
}
