import type { EntityManager } from '@mikro-orm/postgresql';
import { boundRows } from '../../shared/sql.js';

/**
 * The keys among `keys` that are no attachment of the client: a concept write may only name files
 * uploaded in its own tenant (another tenant's key is as unknown as a made-up one).
 */
export async function unknownAttachmentKeys(
  em: EntityManager,
  clientId: number,
  keys: Iterable<string>,
): Promise<string[]> {
  const unique = [...new Set(keys)];
  if (unique.length === 0) return [];
  const found = await boundRows<{ key: string }>(em, {
    // FOR KEY SHARE: the storage sweeper (storage-sweeper.ts) cannot delete them until this write ends.
    text: 'select key from attachments where client_id = ? and key = any(?::uuid[]) for key share',
    params: [clientId, unique],
  });
  const known = new Set(found.map((row) => row.key));
  return unique.filter((key) => !known.has(key));
}
