import type { FastifyPluginAsync } from 'fastify';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import type { Config } from '../../config.js';
import type { MikroORM } from '../../db/orm.js';
import { sendError } from '../../rest/error-body.js';
import { errorContent, type RawRoute } from '../../rest/raw-route.js';
import { AppError } from '../../shared/errors.js';
import { clientFromReferer, systemFeatures } from './features.service.js';

const FEATURES_SCRIPT_PATH = '/system/features.js';

export const featuresScriptPaths: ZodOpenApiPathsObject = {
  [FEATURES_SCRIPT_PATH]: {
    get: {
      operationId: 'system-featuresScript',
      tags: ['system'],
      summary: 'System features as a script setting window.serviceFeatures',
      description:
        'The answer of GET /system/features as a script (`window.serviceFeatures = {...};`), for a page that ' +
        'loads it with a script tag. A referer ending in /client/{clientLogin} selects that client. Needs no token.',
      security: [],
      responses: {
        200: { description: 'script', content: { 'text/javascript': { schema: { type: 'string' } } } },
        404: { description: 'the client named by the referer does not exist', content: errorContent },
      },
    },
  },
};

/**
 * The features as a script that sets `window.serviceFeatures`, for pages that load it with a script tag.
 * A referer `{BASE_URL}/client/{clientLogin}` selects the client, as the spec describes.
 */
export function featuresScriptRoute(config: Config, orm: MikroORM): RawRoute {
  const plugin: FastifyPluginAsync = async (app) => {
    app.get(FEATURES_SCRIPT_PATH, { config: { open: true } }, async (request, reply) => {
      const clientLogin = clientFromReferer(config, request.headers.referer);
      try {
        const features = await systemFeatures(orm.em.fork(), config, clientLogin, request.ip ?? null);
        return reply
          .type('text/javascript; charset=UTF-8')
          .header('cache-control', 'no-store')
          .send(`window.serviceFeatures = ${JSON.stringify(features)};\n`);
      } catch (error) {
        if (error instanceof AppError)
          return sendError(reply, 404, { code: error.code, message: error.message });
        throw error;
      }
    });
  };
  return { plugin, paths: featuresScriptPaths };
}
