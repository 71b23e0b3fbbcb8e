/** searchAfter / searchBefore cursors: the sort key of a list entry, opaque to callers (base64url JSON). */
import { AppError } from '../../shared/errors.js';
import type { SortKey } from './search-plan.js';

export const encodeCursor = (key: SortKey): string => Buffer.from(JSON.stringify(key)).toString('base64url');

export function decodeCursor(cursor: string, member: string): SortKey {
  try {
    const key: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(key) &&
      key.length === 3 &&
      typeof key[0] === 'string' &&
      typeof key[1] === 'string' &&
      Number.isSafeInteger(key[2])
    ) {
      return [key[0], key[1], key[2] as number];
    }
  } catch {
    // Reported below, like any other malformed cursor.
  }
  throw new AppError('BAD_REQUEST', `${member}: not a cursor from a previous response`);
}
