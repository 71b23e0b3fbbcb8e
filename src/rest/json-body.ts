import type { FastifyInstance } from 'fastify';
import { httpStatusOf } from '../shared/errors.js';
import { jsonNestingExceeds, MAX_JSON_DEPTH, tooDeeplyNested } from '../shared/input-limits.js';

const badRequest = (message: string) =>
  Object.assign(new Error(message), { statusCode: httpStatusOf.BAD_REQUEST, code: 'BAD_REQUEST' });

/**
 * The JSON body parser of every surface. An empty body is legal (POST without body on logout); a body
 * nested deeper than MAX_JSON_DEPTH is refused before anything parses or walks it, since tRPC,
 * trpc-to-openapi, zod and GraphQL all recurse into what they are given.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  // Replaces Fastify's default, or the same parser inherited from the parent scope.
  if (app.hasContentTypeParser('application/json')) app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) => {
    const source = String(text).trim();
    if (source === '') return done(null, undefined);
    if (jsonNestingExceeds(source)) {
      return done(badRequest(tooDeeplyNested('The request body', MAX_JSON_DEPTH).message), undefined);
    }
    try {
      done(null, JSON.parse(source));
    } catch {
      done(badRequest('Request body is not valid JSON'), undefined);
    }
  });
}
