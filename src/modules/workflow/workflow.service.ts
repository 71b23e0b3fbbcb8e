/**
 * Workflow definitions (docs/workflows.md): everyone who reads a dictionary reads its workflows; only its
 * administrators (DICTIONARY_ADMIN, client and system administrators) write them.
 */
import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { withStatementTimeout } from '../../db/timeouts.js';
import { commonDto, loadAuditUsers } from '../../shared/audit.js';
import { AppError, notFound } from '../../shared/errors.js';
import { applyFormat, type Format } from '../../shared/format.js';
import { AUDIT_SORTS, type ListSpec, listCalls, markDeleted, nameWhere } from '../../shared/listing.js';
import { deletedFilter, type Scope } from '../../shared/scope.js';
import { assertVersion } from '../../shared/versioning.js';
import { isDictionaryAdmin } from '../access/access.service.js';
import { readableDictionariesWhere, readableDictionary } from '../dictionary/dictionary-access.js';
import { runForEachAsJob } from '../jobs/job-runner.js';
import { Workflow } from './workflow.entity.js';
import {
  WORKFLOW_SHORT_KEYS,
  type WorkflowCreateInput,
  type WorkflowDto,
  type WorkflowListInput,
  type WorkflowPatchInput,
} from './workflow.schema.js';
import { defaultDefinition, type WorkflowDefinition } from './workflow-definition.js';

const NO_TENANT = { tenant: false } as const;
const spec: ListSpec<Workflow, 'name' | 'createdAt' | 'changedAt'> = {
  entity: Workflow,
  sortable: { name: 'name', ...AUDIT_SORTS },
  fallbackSort: 'name',
  filters: NO_TENANT,
};

async function render(scope: Scope, rows: readonly Workflow[], format: Format) {
  if (format === 'ID') return rows.map((row) => ({ id: row.id }));
  const audit = await loadAuditUsers(scope.em, rows);
  return rows.map((row) => {
    const dto: WorkflowDto = {
      ...commonDto(row, row.client.id, audit),
      name: row.name,
      description: row.description ?? null,
      dictionaryId: row.dictionary.id,
      unit: row.unit,
      enabled: row.enabled,
      definition: row.definition,
    };
    return applyFormat(dto, format, WORKFLOW_SHORT_KEYS);
  });
}

async function listWhere(scope: Scope, input: WorkflowListInput): Promise<FilterQuery<Workflow>> {
  const clientId = scope.actor.clientId;
  const where: FilterQuery<Workflow>[] = [{ client: clientId }];
  if (input['dictionary-id'] !== undefined) where.push({ dictionary: input['dictionary-id'] });
  if (input.enabled !== undefined) where.push({ enabled: input.enabled });
  where.push(...nameWhere<Workflow>(input));
  where.push(...(await readableDictionariesWhere(scope, clientId)));
  return { $and: where };
}

const listing = listCalls(spec, listWhere, render);
export const listWorkflows = listing.list;
export const workflowRownum = listing.rownum;

/** A workflow of a dictionary the caller reads; 404 otherwise (also across tenants). */
export async function readableWorkflow(
  scope: Scope,
  id: number,
  em: EntityManager = scope.em,
  includeDeleted = false,
) {
  const workflow = await em.findOne(
    Workflow,
    { id, client: scope.actor.clientId },
    { filters: { ...NO_TENANT, ...deletedFilter(scope, includeDeleted) } },
  );
  if (!workflow) throw notFound('Workflow', id);
  await readableDictionary(scope, workflow.dictionary.id, { em }).catch(() => {
    throw notFound('Workflow', id);
  });
  return workflow;
}

/** The dictionary, when the caller administers it: unreadable 404, readable only 403. */
export async function administeredDictionary(scope: Scope, dictionaryId: number, em: EntityManager) {
  const dictionary = await readableDictionary(scope, dictionaryId, { em });
  if (!isDictionaryAdmin(scope.actor, dictionary)) {
    throw new AppError('FORBIDDEN', 'Only administrators of the dictionary change its workflows');
  }
  return dictionary;
}

export async function getWorkflow(scope: Scope, id: number, format: Format, includeDeleted: boolean) {
  const workflow = await readableWorkflow(scope, id, scope.em, includeDeleted);
  const [dto] = await render(scope, [workflow], format);
  return dto!;
}

/** The enabled workflow of a dictionary, or null: every workflow effect starts from this question. */
export function enabledWorkflow(em: EntityManager, dictionaryId: number): Promise<Workflow | null> {
  return em.findOne(Workflow, { dictionary: dictionaryId, enabled: true }, { filters: NO_TENANT });
}

/** 409 when another workflow already governs the dictionary (the unique index would refuse it too). */
async function assertOnlyEnabled(em: EntityManager, dictionaryId: number, exceptId: number | null) {
  const other = await enabledWorkflow(em, dictionaryId);
  if (other && other.id !== exceptId) {
    throw new AppError('CONFLICT', `Workflow ${other.id} is already enabled for dictionary ${dictionaryId}`);
  }
}

/** States entries are in must stay in the definition; the unit may change only while no entry has a state. */
async function assertCompatible(
  em: EntityManager,
  workflow: Workflow,
  definition: WorkflowDefinition,
  unit: string,
) {
  const used = await em.execute<{ state: string }[]>(
    'select distinct state from workflow_entry_states where workflow_id = ?',
    [workflow.id],
  );
  const missing = used
    .map((row) => row.state)
    .filter((state) => !definition.states.some((s) => s.key === state));
  if (missing.length) {
    throw new AppError(
      'BAD_REQUEST',
      `Entries are in states the definition no longer has: ${missing.join(', ')}`,
    );
  }
  if (unit !== workflow.unit && used.length) {
    throw new AppError('BAD_REQUEST', 'The unit of a workflow whose entries have states cannot change');
  }
}

/** Groups and users a definition names must be the tenant's own (400 otherwise: no reach across tenants). */
async function assertReferences(em: EntityManager, clientId: number, definition: WorkflowDefinition) {
  const groupIds = new Set<number>();
  const userIds = new Set<number>();
  for (const transition of definition.transitions) {
    for (const id of transition.groupIds) groupIds.add(id);
    for (const action of transition.actions) {
      if (action.type === 'NOTIFY') {
        for (const id of action.groupIds) groupIds.add(id);
        for (const id of action.userIds) userIds.add(id);
      } else if (action.type === 'ASSIGN' && action.userId !== null) userIds.add(action.userId);
    }
  }
  const [found] = await em.execute<{ groups: number[] | null; users: number[] | null }[]>(
    `select (select array_agg(id) from groups where id = any(?::int[]) and client_id = ? and not deleted) as groups,
            (select array_agg(id) from users where id = any(?::int[]) and not deleted
               and (client_id = ? or id in (select user_id from user_clients where client_id = ?))) as users`,
    [`{${[...groupIds].join(',')}}`, clientId, `{${[...userIds].join(',')}}`, clientId, clientId],
  );
  const missingGroups = [...groupIds].filter((id) => !(found?.groups ?? []).includes(id));
  const missingUsers = [...userIds].filter((id) => !(found?.users ?? []).includes(id));
  if (missingGroups.length || missingUsers.length) {
    const parts = [
      missingGroups.length ? `groups ${missingGroups.join(', ')}` : '',
      missingUsers.length ? `users ${missingUsers.join(', ')}` : '',
    ].filter(Boolean);
    throw new AppError('BAD_REQUEST', `The definition names unknown ${parts.join(' and ')}`);
  }
}

/**
 * A workflow that starts to govern its dictionary (switched on, or another unit while on) makes the
 * database recompute the dictionary's term state copies (Migration20261216090000), one statement over
 * every term: bounded as a job's statements are (DATABASE_JOB_STATEMENT_TIMEOUT_MS), not a request's.
 */
async function flushGoverning(
  scope: Scope,
  em: EntityManager,
  before: { enabled: boolean; unit: string } | null,
  after: { enabled: boolean; unit: string },
) {
  const recomputes = after.enabled && (!before?.enabled || before.unit !== after.unit);
  if (recomputes)
    await withStatementTimeout(scope.config.DATABASE_JOB_STATEMENT_TIMEOUT_MS, () => em.flush());
  else await em.flush();
}

export async function createWorkflow(scope: Scope, input: WorkflowCreateInput) {
  const id = await scope.em.transactional(async (em) => {
    const dictionary = await administeredDictionary(scope, input.dictionaryId, em);
    if (input.enabled) await assertOnlyEnabled(em, dictionary.id, null);
    if (input.definition) await assertReferences(em, dictionary.client.id, input.definition);
    const workflow = em.create(Workflow, {
      client: dictionary.client,
      dictionary,
      name: input.name,
      description: input.description ?? null,
      unit: input.unit,
      enabled: input.enabled,
      definition: input.definition ?? defaultDefinition(),
      createdById: scope.actor.userId,
      changedById: scope.actor.userId,
    });
    await flushGoverning(scope, em, null, workflow);
    return workflow.id;
  });
  scope.em.clear();
  return getWorkflow(scope, id, input.format, false);
}

export async function updateWorkflow(scope: Scope, input: WorkflowPatchInput, partial: boolean) {
  await scope.em.transactional(async (em) => {
    const workflow = await readableWorkflow(scope, input.id, em);
    await administeredDictionary(scope, workflow.dictionary.id, em);
    assertVersion(workflow, input.version, 'Workflow');
    if (input.dictionaryId !== undefined && input.dictionaryId !== workflow.dictionary.id) {
      throw new AppError(
        'BAD_REQUEST',
        'A workflow stays with its dictionary; create one in the other dictionary',
      );
    }
    const definition = input.definition ?? workflow.definition;
    const unit = input.unit ?? (partial ? workflow.unit : 'LANGUAGE');
    await assertCompatible(em, workflow, definition, unit);
    if (input.definition) await assertReferences(em, workflow.client.id, definition);
    const enabled = input.enabled ?? (partial ? workflow.enabled : false);
    if (enabled && !workflow.enabled) await assertOnlyEnabled(em, workflow.dictionary.id, workflow.id);
    const before = { enabled: workflow.enabled, unit: workflow.unit };
    if (input.name !== undefined) workflow.name = input.name;
    if (!partial || input.description !== undefined) workflow.description = input.description ?? null;
    workflow.definition = definition;
    workflow.unit = unit;
    workflow.enabled = enabled;
    workflow.changedById = scope.actor.userId;
    await flushGoverning(scope, em, before, workflow);
  });
  scope.em.clear();
  return getWorkflow(scope, input.id, input.format, false);
}

async function softDelete(scope: Scope, id: number) {
  const workflow = await readableWorkflow(scope, id);
  await administeredDictionary(scope, workflow.dictionary.id, scope.em);
  workflow.enabled = false;
  markDeleted(workflow, scope.actor.userId);
}

export async function deleteWorkflow(scope: Scope, id: number): Promise<void> {
  await scope.em.transactional((em) => softDelete({ ...scope, em }, id));
}

export function deleteWorkflowsAsync(scope: Scope, ids: number[]) {
  return runForEachAsJob(scope, 'workflows.delete', ids, softDelete);
}
