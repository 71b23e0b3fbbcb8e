import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { sendError } from '../../rest/error-body.js';
import { type ContextFactory, callProcedure } from '../../rest/procedure-call.js';
import { errorContent, type RawRoute } from '../../rest/raw-route.js';

const PATH = '/concepts/{id}/print-as-html';
/** The path some releases use. */
const OLD_PATH = '/concepts/print-as-html/{id}';

const printOperation = (operationId: string, summary: string) => ({
  get: {
    operationId,
    tags: ['concepts'],
    summary,
    description:
      "A standalone HTML page (inline CSS, no scripts) of the concept as the caller's view shows it: " +
      'classification, concept fields, terms per language (by sortIndex) with their fields, and audit data. ' +
      'Needs CONCEPT_PRINT. See docs/display-concepts.md.',
    parameters: [{ name: 'id', in: 'path' as const, required: true, schema: { type: 'integer' as const } }],
    responses: {
      200: {
        description: 'HTML page',
        content: { 'text/html': { schema: { type: 'string' as const } } },
      },
      400: { description: 'id is no concept id', content: errorContent },
      401: { description: 'Token missing or not valid', content: errorContent },
      403: { description: 'CONCEPT_PRINT is not granted in the section', content: errorContent },
      404: { description: 'No such concept (or not readable)', content: errorContent },
    },
  },
});

export const printPaths: ZodOpenApiPathsObject = {
  [PATH]: printOperation('concepts-printAsHtml', 'A concept as a printable HTML page'),
  [OLD_PATH]: printOperation(
    'concepts-printAsHtmlOldPath',
    'A concept as a printable HTML page (path of some releases)',
  ),
};

/** GET print-as-html on both paths: the displayConcepts.printHtml procedure, answered as text/html. */
export function printRoute(createContext: ContextFactory): RawRoute {
  const plugin: FastifyPluginAsync = async (app) => {
    const handler = async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
      const id = Number(request.params.id);
      if (!/^\d+$/.test(request.params.id) || !Number.isSafeInteger(id)) {
        return sendError(reply, 400, { code: 'BAD_REQUEST', message: 'id must be a concept id' });
      }
      const html = await callProcedure(createContext, request, reply, (api) =>
        api.displayConcepts.printHtml({ id }),
      );
      if (html === undefined) return reply;
      return (
        reply
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          // Defence in depth: the page needs nothing but its inline style.
          .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
          .send(html)
      );
    };
    app.get('/concepts/:id/print-as-html', handler);
    app.get('/concepts/print-as-html/:id', handler);
  };
  return { plugin, paths: printPaths };
}
