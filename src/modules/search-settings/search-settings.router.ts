import { authedProcedure, router } from '../../trpc/trpc.js';
import {
  SearchSettingsQuerySchema,
  SearchSettingsSchema,
  SearchSettingsUpdateInputSchema,
  SingleSettingInputSchema,
} from './search-settings.schema.js';
import * as settings from './search-settings.service.js';

const tags = ['user interface'];

export const searchSettingsRouter = router({
  get: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/user-search-settings',
        tags,
        summary: 'Search settings of the caller (administrators: of user-id); created with defaults',
        description:
          "Another user's settings answer 404 unless the caller is an administrator of the client.",
        errorResponses: [400, 401, 404],
      },
    })
    .input(SearchSettingsQuerySchema)
    .output(SearchSettingsSchema)
    .query(({ ctx, input }) => settings.getSearchSettings(ctx.scope, input['user-id'])),

  update: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/user-search-settings',
        tags,
        summary: 'Replace the search settings (missing or null attributes take their default)',
        description:
          'Send the object read, with its version (missing or stale: 409). The user is user-id, else userId, ' +
          'else the caller. Guests: 403 unless the guest settings enable search modes; a guest session keeps ' +
          'its changes to itself. Unknown dictionaries or sections, or pageSize above MAX_PAGE_SIZE: 400.',
        errorResponses: [400, 401, 403, 404, 409],
      },
    })
    .input(SearchSettingsUpdateInputSchema)
    .output(SearchSettingsSchema)
    .mutation(({ ctx, input }) => settings.updateSearchSettings(ctx.scope, input)),

  // REST: PUT /user-search-settings/setting?setting=&user-id= with a JSON array body (search-settings.rest.ts).
  updateSetting: authedProcedure
    .input(SingleSettingInputSchema)
    .output(SearchSettingsSchema)
    .mutation(({ ctx, input }) => settings.updateSingleSetting(ctx.scope, input)),
});
