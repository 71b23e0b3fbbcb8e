import { z } from 'zod';
import { queryBoolean } from '../../shared/query.js';
import { authedProcedure, router } from '../../trpc/trpc.js';
import { FieldLevels } from './field.entity.js';
import { PicklistItemDtoSchema } from './field.schema.js';
import * as fields from './field.service.js';

const tags = ['fields'];
const FieldOidInput = z.object({ fieldOid: z.string().min(1).max(64) });

export const fieldRouter = router({
  nextIncremental: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/fields/incremental/next/{fieldOid}',
        tags,
        summary: 'Next value of an incremental field (one more than the highest used)',
      },
    })
    .input(FieldOidInput)
    .output(z.number().int())
    .query(({ ctx, input }) => fields.nextIncrementalValue(ctx.scope, input.fieldOid)),

  validateIncremental: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/fields/incremental/validate/{fieldOid}',
        tags,
        summary: 'Whether a value of an incremental field is unused (true) in the dictionary',
      },
    })
    .input(
      FieldOidInput.extend({
        value: z.number().int().min(0),
        type: z.enum(FieldLevels),
        'entry-id': z.number().int().optional().describe('the concept or term being edited, excluded'),
      }),
    )
    .output(z.boolean())
    .query(({ ctx, input }) =>
      fields.isIncrementalValueFree(ctx.scope, input.fieldOid, input.value, input.type, input['entry-id']),
    ),

  generatePicklist: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/fields/generate-picklist/{fieldOid}',
        tags,
        summary: "Picklist items proposed from a field's values (not stored)",
      },
    })
    .input(FieldOidInput.extend({ multivalued: queryBoolean().default(true) }))
    .output(
      z.array(
        PicklistItemDtoSchema.extend({ id: z.null(), oid: z.null() }).describe(
          'not stored yet: no id or oid',
        ),
      ),
    )
    .query(({ ctx, input }) => fields.generatePicklist(ctx.scope, input.fieldOid, input.multivalued)),
});
