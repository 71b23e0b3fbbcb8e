import { z } from 'zod';

/** `{id}` path parameter of the generic calls. */
export const IdInput = z.object({ id: z.number().int() });

/** `{ids}` path parameter of the async deletes: a comma-separated list, deduplicated. */
export const IdListInput = z.object({
  ids: z
    .string()
    .regex(/^\d+(,\d+)*$/, 'ids must be a comma-separated list of numbers')
    .transform((ids) => [...new Set(ids.split(',').map(Number))]),
});

/**
 * A list of numbers in a query string: repeated (`?a=1&a=2`) or comma-separated (`?a=1,2`) over REST,
 * a plain array over tRPC and GraphQL.
 */
export const queryIdList = () =>
  z.union([z.array(z.union([z.number(), z.string()])), z.string(), z.number()]).transform((value, ctx) => {
    const parts = (Array.isArray(value) ? value : [value]).flatMap((part) => String(part).split(','));
    const ids = parts.filter((part) => part.trim() !== '').map(Number);
    if (ids.some((id) => !Number.isInteger(id))) {
      ctx.addIssue({ code: 'custom', message: 'must be a list of whole numbers' });
      return z.NEVER;
    }
    return [...new Set(ids)];
  });
