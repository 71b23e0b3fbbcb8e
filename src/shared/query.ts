import { z } from 'zod';

/**
 * A boolean that arrives as a query-string word over REST ("true"/"false", "1"/"0", "yes"/"no") and
 * as a real boolean over tRPC and GraphQL. Plain z.boolean() would be coerced by trpc-to-openapi so that
 * "false" became true; the outer pipe is what lets trpc-to-openapi accept it as a query parameter.
 */
export const queryBoolean = () => z.union([z.boolean(), z.stringbool()]).pipe(z.boolean());
