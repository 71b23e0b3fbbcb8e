/**
 * What enabling a workflow would hide (issue 36): per audience of the dictionary (guests, plain readers,
 * client administrators, the dictionary's administrators, the workflow's reviewers and each group its
 * transitions name), the entries and terms it sees now and would see once the workflow governs. The
 * same rule as every read (workflow-visibility.ts: unpublished states are unseen unless one reviews),
 * judged for a representative member of each audience; one statement counts them all. Counts cover the
 * whole dictionary: section permissions may narrow what a given person reads further.
 */
import { z } from 'zod';
import { MAX_ID } from '../../shared/ids.js';
import type { Actor, Scope } from '../../shared/scope.js';
import { dictionaryAdminRole } from '../role/role.service.js';
import { administeredDictionary, enabledWorkflow, readableWorkflow } from './workflow.service.js';
import { type GoverningWorkflow, reviews } from './workflow-effects.js';
import { governingOf } from './workflow-statistics.js';

export const EnablePreviewInputSchema = z.object({ id: z.number().int().positive().max(MAX_ID) });

export const PreviewAudiences = [
  'GUESTS',
  'READERS',
  'CLIENT_ADMINS',
  'DICTIONARY_ADMINS',
  'REVIEWERS',
  'GROUP',
] as const;
const CountsSchema = z.object({
  concepts: z.number().int().describe('entries (concepts) with at least one term seen'),
  terms: z.number().int(),
});
export const EnablePreviewSchema = z.object({
  workflowId: z.number().int(),
  dictionaryId: z.number().int(),
  total: CountsSchema.describe('every live concept and term of the dictionary'),
  audiences: z.array(
    z.object({
      audience: z.enum(PreviewAudiences),
      groupId: z.number().int().nullable().describe('for GROUP: a group the transitions name'),
      groupName: z.string().nullable(),
      seesEverything: z
        .boolean()
        .describe(
          'whether it sees every entry once the workflow governs (it reviews, or nothing is unpublished)',
        ),
      now: CountsSchema,
      after: CountsSchema,
    }),
  ),
});
export type EnablePreview = z.infer<typeof EnablePreviewSchema>;

interface Audience {
  audience: (typeof PreviewAudiences)[number];
  groupId: number | null;
  groupName: string | null;
  /** The states of a workflow the audience does not see (workflow-visibility.ts's unseenStates). */
  unseen: (workflow: GoverningWorkflow | null) => string[];
}

const unpublished = (workflow: GoverningWorkflow | null) =>
  (workflow?.definition.states ?? []).filter((state) => state.unpublished).map((state) => state.key);

/**
 * Each audience judged for a representative member: what the rule reads of an actor is its guest flag,
 * its roles and its groups. The workflow's reviewers see every state of it.
 */
function audiencesOf(
  scope: Scope,
  after: GoverningWorkflow,
  groups: readonly { id: number; name: string }[],
): Audience[] {
  const member = (roles: string[], groupIds: ReadonlySet<number>, guest = false) => {
    const actor: Actor = { ...scope.actor, userId: 0, roles, guest };
    return (workflow: GoverningWorkflow | null) =>
      workflow && !reviews(actor, groupIds, workflow) ? unpublished(workflow) : [];
  };
  const none = new Set<number>();
  const plain = { groupId: null, groupName: null };
  const dictionaryAdmin = dictionaryAdminRole({ id: after.dictionaryId, oid: after.dictionaryOid });
  return [
    { ...plain, audience: 'GUESTS', unseen: member([], none, true) },
    { ...plain, audience: 'READERS', unseen: member(['USER'], none) },
    { ...plain, audience: 'CLIENT_ADMINS', unseen: member(['USER', 'ADMIN'], none) },
    { ...plain, audience: 'DICTIONARY_ADMINS', unseen: member(['USER', dictionaryAdmin], none) },
    {
      ...plain,
      audience: 'REVIEWERS',
      unseen: (workflow) => (!workflow || workflow.id === after.id ? [] : unpublished(workflow)),
    },
    ...groups.map((group) => ({
      audience: 'GROUP' as const,
      groupId: group.id,
      groupName: group.name,
      unseen: member(['USER'], new Set([group.id])),
    })),
  ];
}

/**
 * The state of each live term under a workflow: its entry's stored row (a key the definition lost, or
 * no row: the initial state). `t` is the term row.
 */
const stateSql = (
  x: string,
) => `coalesce((select case when e.state = any(${x}.keys) then e.state else ${x}.initial end
       from workflow_entry_states e
      where e.workflow_id = ${x}.id and e.concept_id = t.concept_id
        and e.language_code = (case ${x}.unit when 'CONCEPT' then '' else t.language_code end)
        and e.term_id = (case ${x}.unit when 'TERM' then t.id else 0 end)), ${x}.initial)`;

const workflowParams = (workflow: GoverningWorkflow | null) => [
  workflow?.id ?? 0,
  workflow?.unit ?? 'LANGUAGE',
  workflow?.definition.initialState ?? '',
  `{${(workflow?.definition.states ?? []).map((state) => state.key).join(',')}}`,
];

/** Dictionary administrators only: the counts include what only reviewers see. */
export async function enablePreview(scope: Scope, id: number): Promise<EnablePreview> {
  const entity = await readableWorkflow(scope, id);
  const dictionary = await administeredDictionary(scope, entity.dictionary.id, scope.em);
  const after = governingOf(entity, dictionary.oid ?? null);
  const current = await enabledWorkflow(scope.em, dictionary.id);
  const now = current ? governingOf(current, dictionary.oid ?? null) : null;
  const named = [...new Set(after.definition.transitions.flatMap((transition) => transition.groupIds))];
  const groups = await scope.em.execute<{ id: number; name: string }[]>(
    'select id, name from groups where id = any(?::int[]) and client_id = ? and not deleted order by name, id',
    [`{${named.join(',')}}`, scope.actor.clientId],
  );
  const audiences = audiencesOf(scope, after, groups);
  const columns = [
    { name: 'total', now: [] as string[], after: [] as string[] },
    ...audiences.map((audience, index) => ({
      name: `a${index}`,
      now: audience.unseen(now),
      after: audience.unseen(after),
    })),
  ];
  const select = columns.flatMap((column) => [
    `count(*) filter (where now_state <> all(?::text[]))::int as "${column.name}_now_terms"`,
    `count(distinct concept_id) filter (where now_state <> all(?::text[]))::int as "${column.name}_now_concepts"`,
    `count(*) filter (where after_state <> all(?::text[]))::int as "${column.name}_after_terms"`,
    `count(distinct concept_id) filter (where after_state <> all(?::text[]))::int as "${column.name}_after_concepts"`,
  ]);
  const array = (keys: readonly string[]) => `{${keys.join(',')}}`;
  const [row] = await scope.em.execute<Record<string, number>[]>(
    `with n as (select ?::int as id, ?::text as unit, ?::text as initial, ?::text[] as keys),
          a as (select ?::int as id, ?::text as unit, ?::text as initial, ?::text[] as keys),
          s as (select t.concept_id, ${stateSql('n')} as now_state, ${stateSql('a')} as after_state
                  from terms t join concepts c on c.id = t.concept_id and not c.deleted, n, a
                 where t.dictionary_id = ? and not t.deleted)
     select ${select.join(', ')} from s`,
    [
      ...workflowParams(now),
      ...workflowParams(after),
      dictionary.id,
      ...columns.flatMap((column) => [
        array(column.now),
        array(column.now),
        array(column.after),
        array(column.after),
      ]),
    ],
  );
  const counts = (name: string, when: 'now' | 'after') => ({
    concepts: row?.[`${name}_${when}_concepts`] ?? 0,
    terms: row?.[`${name}_${when}_terms`] ?? 0,
  });
  return {
    workflowId: entity.id,
    dictionaryId: dictionary.id,
    total: counts('total', 'now'),
    audiences: audiences.map((audience, index) => ({
      audience: audience.audience,
      groupId: audience.groupId,
      groupName: audience.groupName,
      seesEverything: audience.unseen(after).length === 0,
      now: counts(`a${index}`, 'now'),
      after: counts(`a${index}`, 'after'),
    })),
  };
}
