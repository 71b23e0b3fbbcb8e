import { crudProcedures } from '../../trpc/crud-procedures.js';
import { authedProcedure, router } from '../../trpc/trpc.js';
import {
  WorkflowCreateInputSchema,
  WorkflowListInputSchema,
  WorkflowOutputSchema,
  WorkflowPageSchema,
  WorkflowPatchInputSchema,
  WorkflowUpdateInputSchema,
} from './workflow.schema.js';
import * as workflows from './workflow.service.js';
import { EnablePreviewInputSchema, EnablePreviewSchema, enablePreview } from './workflow-enable-preview.js';
import { workflowEntryProcedures } from './workflow-entry.router.js';

const tags = ['workflows'];

export const workflowRouter = router({
  ...crudProcedures({
    path: '/workflows',
    noun: 'workflow',
    tags,
    schemas: {
      list: WorkflowListInputSchema,
      page: WorkflowPageSchema,
      output: WorkflowOutputSchema,
      create: WorkflowCreateInputSchema,
      update: WorkflowUpdateInputSchema,
      patch: WorkflowPatchInputSchema,
    },
    service: {
      list: workflows.listWorkflows,
      rownum: workflows.workflowRownum,
      get: workflows.getWorkflow,
      create: workflows.createWorkflow,
      update: workflows.updateWorkflow,
      remove: workflows.deleteWorkflow,
      removeAsync: workflows.deleteWorkflowsAsync,
    },
    summaries: {
      list: 'Find the workflows of the dictionaries you read',
      create:
        'Create a workflow (the default one when no definition is sent); dictionary administrators only',
      update: 'Replace a workflow (version required; 409 when stale); dictionary administrators only',
      delete: 'Delete a workflow (it stops governing its dictionary)',
    },
  }),
  ...workflowEntryProcedures,
  enablePreview: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/workflows/{id}/enable-preview',
        tags,
        summary: 'What enabling a workflow would hide: entries and terms each audience sees now and after',
        description:
          'Per audience (guests, readers, client administrators, the dictionary administrators, the reviewers, each group the transitions name), by the rule every read applies: unpublished states are unseen unless one reviews. Dictionary administrators only (403), 404 for workflows you cannot read.',
        errorResponses: [401, 403, 404],
      },
    })
    .input(EnablePreviewInputSchema)
    .output(EnablePreviewSchema)
    .query(({ ctx, input }) => enablePreview(ctx.scope, input.id)),
});
