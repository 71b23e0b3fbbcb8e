import { crudProcedures } from '../../trpc/crud-procedures.js';
import { router } from '../../trpc/trpc.js';
import {
  GroupCreateInputSchema,
  GroupListInputSchema,
  GroupOutputSchema,
  GroupPageSchema,
  GroupPatchInputSchema,
  GroupUpdateInputSchema,
} from './group.schema.js';
import * as groups from './group.service.js';

const tags = ['groups'];

export const groupRouter = router({
  ...crudProcedures({
    path: '/groups',
    noun: 'group',
    tags,
    schemas: {
      list: GroupListInputSchema,
      page: GroupPageSchema,
      output: GroupOutputSchema,
      create: GroupCreateInputSchema,
      update: GroupUpdateInputSchema,
      patch: GroupPatchInputSchema,
    },
    service: {
      list: groups.listGroups,
      rownum: groups.groupRownum,
      get: groups.getGroup,
      create: groups.createGroup,
      update: groups.updateGroup,
      remove: groups.deleteGroup,
      removeAsync: groups.deleteGroupsAsync,
    },
    summaries: {
      list: 'Find groups of the client',
      create: 'Create a group (administrators)',
      patch: 'Change some attributes of a group; groupMembers replaces the members',
      delete: 'Delete a group (not a system group)',
    },
  }),
});
