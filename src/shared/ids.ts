import { z } from 'zod';

/** The largest id: ids are PostgreSQL integers, which refuse a larger number with an error. */
export const MAX_ID = 2_147_483_647;
const isIdNumber = (id: number) => Number.isInteger(id) && Math.abs(id) <= MAX_ID;
const NOT_IDS = `must be a list of whole numbers up to ${MAX_ID}`;

/** `{id}` path parameter of the generic calls. */
export const IdInput = z.object({ id: z.number().int().min(-MAX_ID).max(MAX_ID) });

/** `{ids}` path parameter of the async deletes: a comma-separated list, deduplicated. */
export const IdListInput = z.object({
  ids: z
    .string()
    .regex(/^\d+(,\d+)*$/, 'ids must be a comma-separated list of numbers')
    .transform((ids) => [...new Set(ids.split(',').map(Number))])
    .refine((ids) => ids.every(isIdNumber), `ids ${NOT_IDS}`),
});

/**
 * A list of numbers in a query string: repeated (`?a=1&a=2`) or comma-separated (`?a=1,2`) over REST,
 * a plain array over tRPC and GraphQL.
 */
export const queryIdList = () =>
  z.union([z.array(z.union([z.number(), z.string()])), z.string(), z.number()]).transform((value, ctx) => {
    const parts = (Array.isArray(value) ? value : [value]).flatMap((part) => String(part).split(','));
    const ids = parts.filter((part) => part.trim() !== '').map(Number);
    if (!ids.every(isIdNumber)) {
      ctx.addIssue({ code: 'custom', message: NOT_IDS });
      return z.NEVER;
    }
    return [...new Set(ids)];
  });
