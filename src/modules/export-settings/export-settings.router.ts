import { z } from 'zod';
import { FormatSchema } from '../../shared/format.js';
import { IdInput } from '../../shared/ids.js';
import { queryBoolean } from '../../shared/query.js';
import { authedProcedure, router } from '../../trpc/trpc.js';
import {
  ExportSettingsListInputSchema,
  ExportSettingsOutputSchema,
  ExportSettingsPageSchema,
} from './export-settings.schema.js';
import * as settings from './export-settings.service.js';

const tags = ['export settings'];

/** Read-only: export settings are recorded by exports, not edited through the API. */
export const exportSettingsRouter = router({
  list: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/export-settings', tags, summary: 'Find export settings' } })
    .input(ExportSettingsListInputSchema)
    .output(ExportSettingsPageSchema)
    .query(({ ctx, input }) => settings.listExportSettings(ctx.scope, input)),

  rownum: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/export-settings/rownum/{id}',
        tags,
        summary: 'Row position of export settings',
      },
    })
    .input(ExportSettingsListInputSchema.extend(IdInput.shape))
    .output(z.number().int())
    .query(({ ctx, input }) => settings.exportSettingsRownum(ctx.scope, input.id, input)),

  get: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/export-settings/{id}', tags, summary: 'Get export settings' } })
    .input(IdInput.extend({ format: FormatSchema, 'include-deleted': queryBoolean().default(false) }))
    .output(ExportSettingsOutputSchema)
    .query(({ ctx, input }) =>
      settings.getExportSettings(ctx.scope, input.id, input.format, input['include-deleted']),
    ),
});
