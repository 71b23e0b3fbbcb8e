import type { FastifyInstance } from 'fastify';
import {
  assertStorableText,
  jsonNestingExceeds,
  MAX_JSON_DEPTH,
  tooDeeplyNested,
} from '../shared/input-limits.js';
import { registerJsonBodyParser } from './json-body.js';

/**
 * The input boundary of all three surfaces, before any route runs: JSON bodies bounded in depth, and no
 * NUL character or lone surrogate in a path parameter, a query parameter or a parsed body (JSON or
 * form). Violations
 * are AppErrors, answered 400 in each surface's own error shape by the server's error handler.
 */
export function registerRequestGuards(app: FastifyInstance): void {
  registerJsonBodyParser(app);
  app.addHook('preValidation', async (request) => {
    // tRPC parses its JSON itself: the body arrives here as text, a query's input in the query string.
    if (typeof request.body === 'string' && jsonNestingExceeds(request.body)) {
      throw tooDeeplyNested('The request body', MAX_JSON_DEPTH);
    }
    const input = (request.query as Record<string, unknown> | undefined)?.input;
    if (typeof input === 'string' && jsonNestingExceeds(input)) {
      throw tooDeeplyNested('The input parameter', MAX_JSON_DEPTH);
    }
    assertStorableText({
      'Path parameter': request.params,
      'Query parameter': request.query,
      'Request body': request.body,
    });
  });
}
