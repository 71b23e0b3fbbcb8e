import { z } from 'zod';
import { queryIdList } from '../../shared/ids.js';
import { authedProcedure, router } from '../../trpc/trpc.js';
import { DictionaryPermissionsSchema } from '../permission/permission-scheme.schema.js';
import { dictionaryPermissions } from './access.service.js';

export const accessRouter = router({
  dictionaryPermissions: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/access/dictionary-permissions',
        tags: ['roles and permissions'],
        summary: "The caller's permissions in dictionaries and their sections",
        description:
          'dictionary_id may be repeated or comma-separated; a dictionary of another client is 404.',
      },
    })
    .input(z.object({ dictionary_id: queryIdList() }))
    .output(z.array(DictionaryPermissionsSchema))
    .query(({ ctx, input }) => dictionaryPermissions(ctx.scope, input.dictionary_id)),
});
