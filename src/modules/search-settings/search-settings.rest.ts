import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { sendError } from '../../rest/error-body.js';
import { type ContextFactory, callProcedure } from '../../rest/procedure-call.js';
import { oneQueryNumber, oneQueryValue, parseQuery } from '../../rest/query-params.js';
import { errorContent, type RawRoute } from '../../rest/raw-route.js';
import { SETTING_NAMES, SearchSettingsSchema } from './search-settings.schema.js';

const SETTING_PATH = '/user-search-settings/setting';

export const searchSettingPaths: ZodOpenApiPathsObject = {
  [SETTING_PATH]: {
    put: {
      operationId: 'searchSettings-setSetting',
      tags: ['user interface'],
      summary: 'Set one search setting from a JSON array of strings',
      description:
        'The spec publishes this call on the path of the password change; Polyterm gives it its own. ' +
        'Single values are sent as one-element arrays (["SUBSTRING"], ["true"], ["50"]); an empty array ' +
        'clears sourceLanguage. No version is needed. See docs/search-settings.md.',
      parameters: [
        {
          name: 'setting',
          in: 'query',
          required: true,
          schema: { type: 'string', enum: SETTING_NAMES },
          description: 'name of the search settings attribute',
        },
        {
          name: 'user-id',
          in: 'query',
          required: false,
          schema: { type: 'integer' },
          description: "whose settings; default: the caller's (another user's: administrators only)",
        },
      ],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { type: 'array', items: { type: 'string' } } } },
      },
      responses: {
        200: {
          description: 'Search settings',
          content: { 'application/json': { schema: SearchSettingsSchema } },
        },
        400: { description: 'Unknown setting or invalid value', content: errorContent },
        401: { description: 'Token missing or not valid', content: errorContent },
        403: { description: 'Guests of a client without search modes', content: errorContent },
        404: { description: 'Another user, and the caller is no administrator', content: errorContent },
      },
    },
  },
};

const SettingQuerySchema = z.object({
  'user-id': oneQueryNumber.optional(),
  setting: oneQueryValue.optional(),
});

/** The single-setting update: its body is a bare JSON array, which a procedure's object input cannot take. */
export function searchSettingRoute(createContext: ContextFactory): RawRoute {
  const plugin: FastifyPluginAsync = async (app) => {
    app.put(SETTING_PATH, async (request, reply) => {
      const values: unknown = request.body;
      if (!Array.isArray(values)) {
        return sendError(reply, 400, {
          code: 'BAD_REQUEST',
          message: 'Send the values as a JSON array of strings, e.g. ["SUBSTRING"]',
        });
      }
      const query = parseQuery(SettingQuerySchema, request.query);
      const userId = query['user-id'];
      const result = await callProcedure(createContext, request, reply, (api) =>
        api.searchSettings.updateSetting({
          ...(userId === undefined ? {} : { 'user-id': userId }),
          setting: query.setting ?? '',
          // Checked by the procedure's input schema, like every other input.
          values: values as string[],
        }),
      );
      return result === undefined ? reply : reply.type('application/json; charset=utf-8').send(result);
    });
  };
  return { plugin, paths: searchSettingPaths };
}
