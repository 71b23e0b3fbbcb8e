import { randomUUID } from 'node:crypto';

/**
 * A generated oid for structure objects that the API names by oid (dictionaries, sections, fields,
 * picklist items, domains): concepts refer to them by these strings, so they are set on every row.
 */
export const newOid = (): string => randomUUID();
