import { crudProcedures } from '../../trpc/crud-procedures.js';
import { router } from '../../trpc/trpc.js';
import {
  ViewCreateInputSchema,
  ViewListInputSchema,
  ViewOutputSchema,
  ViewPageSchema,
  ViewPatchInputSchema,
  ViewUpdateInputSchema,
} from './view.schema.js';
import * as views from './view.service.js';

export const viewRouter = router({
  ...crudProcedures({
    path: '/views',
    noun: 'view',
    tags: ['views'],
    schemas: {
      list: ViewListInputSchema,
      page: ViewPageSchema,
      output: ViewOutputSchema,
      create: ViewCreateInputSchema,
      update: ViewUpdateInputSchema,
      patch: ViewPatchInputSchema,
    },
    service: {
      list: views.listViews,
      rownum: views.viewRownum,
      get: views.getView,
      create: views.createView,
      update: views.updateView,
      remove: views.deleteView,
      removeAsync: views.deleteViewsAsync,
    },
    summaries: { delete: 'Delete a view that no section or group uses' },
  }),
});
