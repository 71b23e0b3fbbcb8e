import type { EntityManager } from '@mikro-orm/postgresql';
import { boundRows } from '../../../shared/sql.js';

/** Rows of a statement with `?` parameters (an array is one parameter), in the manager's transaction if any. */
export const sql = <T extends object = Record<string, unknown>>(
  em: EntityManager,
  text: string,
  params: unknown[] = [],
): Promise<T[]> => boundRows<T>(em, { text, params });
