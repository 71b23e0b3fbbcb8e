import { z } from 'zod';
import { AppError } from '../shared/errors.js';

/**
 * Query parameters of the REST-only routes, validated like procedure inputs: Fastify hands a repeated
 * parameter over as an array, and code that assumed a string answered 500 (`format=a&format=b`).
 */

/** A parameter that takes one value: repeated, it is refused rather than guessed at. */
export const oneQueryValue = z.string({
  error: (issue) => (Array.isArray(issue.input) ? 'give this parameter once' : 'expected a text value'),
});

/** A number parameter given once, as digits. */
export const oneQueryNumber = oneQueryValue
  .regex(/^\d+$/, 'expected a whole number')
  .transform((value) => Number(value));

/** A list parameter: repeated (`a=x&a=y`), comma-separated (`a=x,y`), or both. */
export const queryList = z.union([z.string(), z.array(z.string())]).transform((value) =>
  [value]
    .flat()
    .flatMap((item) => item.split(','))
    .map((item) => item.trim())
    .filter(Boolean),
);

/** A boolean parameter given once, as browsers and scripts send it. */
export const oneQueryFlag = oneQueryValue.transform((value) => value === 'true' || value === '1');

/** The query string parsed by `schema`; the first problem is a 400 naming the parameter. */
export function parseQuery<S extends z.ZodType>(schema: S, query: unknown): z.output<S> {
  const result = schema.safeParse(query ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const name = issue.path.map(String).join('.') || 'query';
  throw new AppError('BAD_REQUEST', `Query parameter ${name}: ${issue.message}`);
}
