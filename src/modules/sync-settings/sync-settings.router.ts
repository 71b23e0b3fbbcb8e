import { crudProcedures } from '../../trpc/crud-procedures.js';
import { clientAdminProcedure, router } from '../../trpc/trpc.js';
import {
  SyncSettingsCreateInputSchema,
  SyncSettingsListInputSchema,
  SyncSettingsOutputSchema,
  SyncSettingsPageSchema,
  SyncSettingsPatchInputSchema,
  SyncSettingsUpdateInputSchema,
} from './sync-settings.schema.js';
import * as syncSettings from './sync-settings.service.js';

/** API synchronization settings (docs/sync-settings.md): the spec's generic calls at /sync-settings. */
export const syncSettingsRouter = router({
  ...crudProcedures({
    path: '/sync-settings',
    noun: 'synchronization setting',
    tags: ['sync settings'],
    schemas: {
      list: SyncSettingsListInputSchema,
      page: SyncSettingsPageSchema,
      output: SyncSettingsOutputSchema,
      create: SyncSettingsCreateInputSchema,
      update: SyncSettingsUpdateInputSchema,
      patch: SyncSettingsPatchInputSchema,
    },
    service: {
      list: syncSettings.listSyncSettings,
      rownum: syncSettings.syncSettingsRownum,
      get: syncSettings.getSyncSettings,
      create: syncSettings.createSyncSettings,
      update: syncSettings.updateSyncSettings,
      remove: syncSettings.deleteSyncSettings,
      removeAsync: syncSettings.deleteSyncSettingsAsync,
    },
    writeProcedure: clientAdminProcedure,
    summaries: {
      list: 'Find API synchronization settings (of dictionaries the caller may read)',
      create: 'Create synchronization settings (administrators)',
      update: 'Update synchronization settings (administrators)',
      patch: 'Change some attributes of synchronization settings (administrators)',
      delete: 'Delete synchronization settings (administrators)',
    },
  }),
});
