/** GraphQL for the preview of enabling a workflow (GET /workflows/{id}/enable-preview). */
import { builder } from '../../graphql/builder.js';
import type { EnablePreview } from './workflow-enable-preview.js';

type Counts = EnablePreview['total'];
type AudienceCounts = EnablePreview['audiences'][number];

const CountsRef = builder.objectRef<Counts>('WorkflowPreviewCounts').implement({
  fields: (t) => ({ concepts: t.exposeInt('concepts'), terms: t.exposeInt('terms') }),
});

const AudienceRef = builder.objectRef<AudienceCounts>('WorkflowPreviewAudience').implement({
  description: 'What one audience sees now and would see once the workflow governs.',
  fields: (t) => ({
    audience: t.exposeString('audience'),
    groupId: t.exposeInt('groupId', { nullable: true }),
    groupName: t.exposeString('groupName', { nullable: true }),
    seesEverything: t.exposeBoolean('seesEverything'),
    now: t.field({ type: CountsRef, resolve: (a) => a.now }),
    after: t.field({ type: CountsRef, resolve: (a) => a.after }),
  }),
});

const PreviewRef = builder.objectRef<EnablePreview>('WorkflowEnablePreview').implement({
  fields: (t) => ({
    workflowId: t.exposeInt('workflowId'),
    dictionaryId: t.exposeInt('dictionaryId'),
    total: t.field({ type: CountsRef, resolve: (p) => p.total }),
    audiences: t.field({ type: [AudienceRef], resolve: (p) => p.audiences }),
  }),
});

builder.queryField('workflowEnablePreview', (t) =>
  t.field({
    type: PreviewRef,
    description:
      'What enabling the workflow would hide, per audience (GET /workflows/{id}/enable-preview); dictionary administrators only.',
    args: { id: t.arg.int({ required: true }) },
    resolve: (_, { id }, context) => context.api.workflows.enablePreview({ id }),
  }),
);
