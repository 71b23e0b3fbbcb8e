import { raw } from '@mikro-orm/core';

/**
 * `lower(column)` as a filter key, so case-insensitive equality uses the `lower(...)` indexes of the
 * migrations (ILIKE cannot). Use as `{ [lowerOf('login_name')]: value.toLowerCase() }`.
 */
export const lowerOf = (column: string) => raw((alias) => `lower(${alias}.${column})`);
