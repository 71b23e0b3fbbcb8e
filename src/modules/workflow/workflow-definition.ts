/**
 * The contract of a workflow definition (docs/workflows.md): states and transitions, stored as one
 * checked JSON document on the workflow row. Keys name states and transitions inside one definition.
 */
import { z } from 'zod';
import { MAX_ID } from '../../shared/ids.js';

export const WorkflowUnits = ['CONCEPT', 'LANGUAGE', 'TERM'] as const;
export type WorkflowUnit = (typeof WorkflowUnits)[number];
export const StateCategories = ['DRAFT', 'REVIEW', 'APPROVED', 'REJECTED', 'RETIRED'] as const;
export type StateCategory = (typeof StateCategories)[number];
/** TBX-Basic processStatus values (TBX also knows others; these are the ones exchanged in practice). */
export const ProcessStatuses = ['unprocessed', 'provisionallyProcessed', 'finalized'] as const;
export const VoteModes = ['FIRST_WINS', 'MINIMUM_AGREEMENT', 'MINIMUM_VOTES'] as const;

const key = z
  .string()
  .trim()
  .regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, 'a letter, then letters, digits, _ or - (at most 64)');
const fieldOid = z.string().trim().min(1).max(64);

export const WorkflowStateSchema = z.object({
  key,
  name: z.string().trim().min(1).max(255),
  category: z.enum(StateCategories),
  processStatus: z.enum(ProcessStatuses).nullable().default(null).describe('TBX processStatus it maps to'),
  style: z
    .string()
    .max(500)
    .regex(/^[^<>"]*$/, 'a CSS declaration list without <, > or "')
    .default('')
    .describe('CSS declarations for term lists (TermListEntry.style), e.g. "color: #888"'),
  readOnly: z
    .boolean()
    .default(false)
    .describe('terms in this state cannot be edited (TermListEntry.disabled)'),
  hidden: z.boolean().default(false).describe('terms in this state are left out of term lists'),
  unpublished: z
    .boolean()
    .default(false)
    .describe('invisible to guests and to users who may not review; left out of exports unless asked'),
});
export type WorkflowState = z.infer<typeof WorkflowStateSchema>;

export const FieldConditionSchema = z.object({
  fieldOid,
  level: z
    .enum(['CONCEPT', 'TERM'])
    .default('CONCEPT')
    .describe('TERM: the governed term (TERM unit) or any term of the language'),
  equals: z
    .array(z.string().max(4000))
    .max(100)
    .optional()
    .describe('one of these values; absent: any value present'),
  present: z.boolean().default(true).describe('false: the field must be empty'),
});
export type FieldCondition = z.infer<typeof FieldConditionSchema>;

export const WorkflowActionSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('SET_FIELD'),
    fieldOid,
    level: z.enum(['CONCEPT', 'TERM']).default('CONCEPT'),
    values: z.array(z.string().max(4000)).max(100).describe('empty: clears the field'),
  }),
  z.object({
    type: z.literal('NOTIFY'),
    userIds: z.array(z.number().int().positive().max(MAX_ID)).max(100).default([]),
    groupIds: z.array(z.number().int().positive().max(MAX_ID)).max(100).default([]),
    assignee: z.boolean().default(false).describe('also the entry assignee (after ASSIGN actions)'),
    enteredBy: z.boolean().default(false).describe('also whoever moved the entry into the state left'),
  }),
  z.object({
    type: z.literal('ASSIGN'),
    userId: z.number().int().positive().max(MAX_ID).nullable().describe('null: no assignee any more'),
  }),
]);
export type WorkflowAction = z.infer<typeof WorkflowActionSchema>;

export const WorkflowTransitionSchema = z.object({
  key,
  name: z.string().trim().min(1).max(255),
  from: z.array(key).min(1).max(64).describe('states it leaves from'),
  to: key,
  groupIds: z
    .array(z.number().int().positive().max(MAX_ID))
    .max(100)
    .default([])
    .describe('members may fire it'),
  roles: z
    .array(z.string().min(1).max(128))
    .max(20)
    .default([])
    .describe(
      'holders may fire it: ADMIN, SYSADMIN, DICTIONARY_ADMIN (of this dictionary), USER (any named user)',
    ),
  languages: z
    .array(z.string().trim().toLowerCase().min(1).max(64))
    .max(200)
    .default([])
    .describe('LANGUAGE and TERM units: it may be fired only on these languages; empty: all'),
  condition: z
    .array(FieldConditionSchema)
    .max(20)
    .default([])
    .describe('all must hold, else it is not offered'),
  requiredFields: z
    .array(FieldConditionSchema.omit({ equals: true, present: true }))
    .max(20)
    .default([]),
  commentRequired: z.boolean().default(false),
  votes: z
    .object({ mode: z.enum(VoteModes), count: z.number().int().min(1).max(100) })
    .nullable()
    .default(null)
    .describe(
      'FIRST_WINS: the first vote fires it; MINIMUM_VOTES: count votes for it; MINIMUM_AGREEMENT: count votes for it and none for another transition',
    ),
  actions: z.array(WorkflowActionSchema).max(20).default([]),
});
export type WorkflowTransition = z.infer<typeof WorkflowTransitionSchema>;

export const WorkflowDefinitionSchema = z
  .object({
    states: z.array(WorkflowStateSchema).min(1).max(64),
    transitions: z.array(WorkflowTransitionSchema).max(256).default([]),
    initialState: key.describe('where new entries (and entries without a recorded state) are'),
    onEditOfApproved: z.enum(['REOPEN', 'KEEP']).default('REOPEN'),
    reopenState: key
      .nullable()
      .default(null)
      .describe('where an edit moves an APPROVED entry; default: initialState'),
    revalidateAfterDays: z.number().int().min(1).max(3650).nullable().default(null),
    revalidateState: key
      .nullable()
      .default(null)
      .describe('where re-validation moves an approved entry; default: initialState'),
  })
  .superRefine((definition, ctx) => {
    const states = new Set<string>();
    for (const state of definition.states) {
      if (states.has(state.key))
        ctx.addIssue({ code: 'custom', message: `state ${state.key} appears twice` });
      states.add(state.key);
    }
    const names = new Set<string>();
    const known = (value: string | null, where: string) => {
      if (value !== null && !states.has(value))
        ctx.addIssue({ code: 'custom', message: `${where}: no state ${value}` });
    };
    known(definition.initialState, 'initialState');
    known(definition.reopenState, 'reopenState');
    known(definition.revalidateState, 'revalidateState');
    for (const transition of definition.transitions) {
      if (names.has(transition.key))
        ctx.addIssue({ code: 'custom', message: `transition ${transition.key} appears twice` });
      names.add(transition.key);
      for (const from of transition.from) known(from, `transition ${transition.key} from`);
      known(transition.to, `transition ${transition.key} to`);
    }
  });
export type WorkflowDefinition = z.infer<typeof WorkflowDefinitionSchema>;

export const stateOf = (definition: WorkflowDefinition, key: string): WorkflowState =>
  definition.states.find((state) => state.key === key) ??
  definition.states.find((s) => s.key === definition.initialState)!;

/**
 * The default workflow offered to every dictionary: suggestions are reviewed, then approved or rejected;
 * an edit of an approved entry re-opens it. Reviewers are the dictionary's administrators (a role the
 * client and system administrators do not hold implicitly: no administrator bypass).
 */
export function defaultDefinition(): WorkflowDefinition {
  return WorkflowDefinitionSchema.parse({
    states: [
      {
        key: 'suggested',
        name: 'Suggested',
        category: 'DRAFT',
        processStatus: 'unprocessed',
        style: 'font-style: italic',
        unpublished: true,
      },
      {
        key: 'inReview',
        name: 'In review',
        category: 'REVIEW',
        processStatus: 'provisionallyProcessed',
        style: 'color: #8a6d00',
        unpublished: true,
      },
      { key: 'approved', name: 'Approved', category: 'APPROVED', processStatus: 'finalized' },
      {
        key: 'rejected',
        name: 'Rejected',
        category: 'REJECTED',
        processStatus: 'unprocessed',
        style: 'text-decoration: line-through',
        readOnly: true,
        hidden: true,
        unpublished: true,
      },
    ],
    transitions: [
      {
        key: 'submit',
        name: 'Submit for review',
        from: ['suggested', 'rejected'],
        to: 'inReview',
        roles: ['USER'],
      },
      { key: 'approve', name: 'Approve', from: ['inReview'], to: 'approved', roles: ['DICTIONARY_ADMIN'] },
      {
        key: 'reject',
        name: 'Reject',
        from: ['inReview'],
        to: 'rejected',
        roles: ['DICTIONARY_ADMIN'],
        commentRequired: true,
      },
      {
        key: 'reopen',
        name: 'Back to draft',
        from: ['approved'],
        to: 'suggested',
        roles: ['DICTIONARY_ADMIN'],
      },
    ],
    initialState: 'suggested',
    onEditOfApproved: 'REOPEN',
    reopenState: 'inReview',
  });
}
