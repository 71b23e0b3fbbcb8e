import { crudProcedures } from '../../trpc/crud-procedures.js';
import { router } from '../../trpc/trpc.js';
import {
  FilterCreateInputSchema,
  FilterListInputSchema,
  FilterOutputSchema,
  FilterPageSchema,
  FilterPatchInputSchema,
  FilterUpdateInputSchema,
} from './filter.schema.js';
import * as filters from './filter.service.js';

const tags = ['filters'];

export const filterRouter = router({
  ...crudProcedures({
    path: '/filters',
    noun: 'filter',
    tags,
    schemas: {
      list: FilterListInputSchema,
      page: FilterPageSchema,
      output: FilterOutputSchema,
      create: FilterCreateInputSchema,
      update: FilterUpdateInputSchema,
      patch: FilterPatchInputSchema,
    },
    service: {
      list: filters.listFilters,
      rownum: filters.filterRownum,
      get: filters.getFilter,
      create: filters.createFilter,
      update: filters.updateFilter,
      remove: filters.deleteFilter,
      removeAsync: filters.deleteFiltersAsync,
    },
    summaries: {
      list: "Find the filters you may see (own, your groups', public)",
      delete: 'Delete a filter (owner or administrator)',
    },
  }),
});
