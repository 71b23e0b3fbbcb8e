import { crudProcedures } from '../../trpc/crud-procedures.js';
import { router } from '../../trpc/trpc.js';
import {
  WorkflowCreateInputSchema,
  WorkflowListInputSchema,
  WorkflowOutputSchema,
  WorkflowPageSchema,
  WorkflowPatchInputSchema,
  WorkflowUpdateInputSchema,
} from './workflow.schema.js';
import * as workflows from './workflow.service.js';
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
});
