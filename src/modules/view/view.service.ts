import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { commonDto, loadAuditUsers } from '../../shared/audit.js';
import { AppError, notFound } from '../../shared/errors.js';
import { applyFormat, type Format } from '../../shared/format.js';
import {
  AUDIT_SORTS,
  type ListSpec,
  listCalls,
  listedClientId,
  markDeleted,
  nameWhere,
} from '../../shared/listing.js';
import { deletedFilter, type Scope } from '../../shared/scope.js';
import { assertVersion } from '../../shared/versioning.js';
import {
  administrableDictionary,
  markStructureChanged,
  readableDictionariesWhere,
  readableDictionary,
} from '../dictionary/dictionary-access.js';
import { SystemDataCategories } from '../field/field.entity.js';
import { fieldsOf } from '../field/field.service.js';
import { runForEachAsJob } from '../jobs/job-runner.js';
import { View } from './view.entity.js';
import {
  VIEW_SHORT_KEYS,
  type ViewCreateInput,
  type ViewDto,
  type ViewListInput,
  type ViewPatchInput,
} from './view.schema.js';

const NO_TENANT = { tenant: false } as const;
/** Always visible: a concept without its terms and their languages shows nothing. */
const ALWAYS_VISIBLE = ['TERM', 'LANG'];
const spec: ListSpec<View, 'name' | 'createdAt' | 'changedAt'> = {
  entity: View,
  sortable: { name: 'name', ...AUDIT_SORTS },
  fallbackSort: 'name',
  filters: NO_TENANT,
};

/** Who uses each view: sections (view_id) and groups (viewsMap), named in one message. */
async function usersOfViews(em: EntityManager, ids: readonly number[]): Promise<Map<number, string[]>> {
  const users = new Map<number, string[]>();
  if (ids.length === 0) return users;
  const rows = await em.execute<{ view_id: number; what: string }[]>(
    `select s.view_id, 'section "' || s.name || '"' as what from sections s where s.view_id in (?) and not s.deleted
     union all
     select v.value::int as view_id, 'group "' || g.name || '"' as what
       from groups g
       cross join lateral jsonb_each(g.views_map) e
       cross join lateral jsonb_array_elements_text(case when jsonb_typeof(e.value) = 'array' then e.value else '[]'::jsonb end) v
      where not g.deleted and v.value in (?)
     order by 1, 2`,
    [ids, ids.map(String)],
  );
  for (const row of rows) users.set(row.view_id, [...(users.get(row.view_id) ?? []), row.what]);
  return users;
}

async function render(scope: Scope, views: readonly View[], format: Format) {
  if (format === 'ID') return views.map((v) => ({ id: v.id }));
  const [audit, users] = await Promise.all([
    loadAuditUsers(scope.em, views),
    usersOfViews(
      scope.em,
      views.map((v) => v.id),
    ),
  ]);
  return views.map((view) => {
    const usedBy = users.get(view.id) ?? [];
    const dto: ViewDto = {
      ...commonDto(view, view.client.id, audit),
      name: view.name,
      fields: view.fields,
      inUse: usedBy.length > 0,
      inUseMessage: usedBy.length ? `The view is used by ${usedBy.join(', ')}` : null,
      dictionaryId: view.dictionary.id,
    };
    return applyFormat(dto, format, VIEW_SHORT_KEYS);
  });
}

async function listWhere(scope: Scope, input: ViewListInput): Promise<FilterQuery<View> | null> {
  const clientId = listedClientId(scope, input.client_id);
  if (clientId === null) return null;
  const dictionaryId = input['dictionary-id'] ?? input.dictionary_id;
  const where: FilterQuery<View>[] = [{ client: clientId }];
  if (dictionaryId !== undefined) where.push({ dictionary: dictionaryId });
  where.push(...nameWhere<View>(input));
  where.push(...(await readableDictionariesWhere(scope, clientId)));
  return { $and: where };
}

const listing = listCalls(spec, listWhere, render);
export const listViews = listing.list;
export const viewRownum = listing.rownum;

async function findView(scope: Scope, id: number, em: EntityManager = scope.em, includeDeleted = false) {
  const view = await em.findOne(
    View,
    { id, client: scope.actor.clientId },
    { filters: { ...NO_TENANT, ...deletedFilter(scope, includeDeleted) } },
  );
  if (!view) throw notFound('View', id);
  return view;
}

export async function getView(scope: Scope, id: number, format: Format, includeDeleted: boolean) {
  const view = await findView(scope, id, scope.em, includeDeleted);
  await readableDictionary(scope, view.dictionary.id).catch(() => {
    throw notFound('View', id);
  });
  const [dto] = await render(scope, [view], format);
  return dto!;
}

/** Field oids of the dictionary or system attributes; TERM and LANG are always added. */
async function visibleFields(em: EntityManager, dictionaryId: number, sent: readonly string[]) {
  const { fields } = await fieldsOf(em, [dictionaryId]);
  const known = new Set<string>([...fields.map((f) => f.oid ?? String(f.id)), ...SystemDataCategories]);
  const unknown = sent.filter((oid) => !known.has(oid));
  if (unknown.length) {
    throw new AppError(
      'BAD_REQUEST',
      `Not fields of dictionary ${dictionaryId}: ${unknown.slice(0, 10).join(', ')}`,
    );
  }
  return [...new Set([...ALWAYS_VISIBLE, ...sent])];
}

export async function createView(scope: Scope, input: ViewCreateInput) {
  const id = await scope.em.transactional(async (em) => {
    const dictionary = await administrableDictionary(scope, input.dictionaryId, { em });
    const view = em.create(View, {
      client: dictionary.client,
      dictionary,
      name: input.name,
      fields: await visibleFields(em, dictionary.id, input.fields ?? []),
      createdById: scope.actor.userId,
      changedById: scope.actor.userId,
    });
    await em.flush();
    await markStructureChanged(em, dictionary.id, {
      actorId: scope.actor.userId,
      subject: 'view',
      action: 'created',
      id: view.id,
    });
    return view.id;
  });
  scope.em.clear();
  return getView(scope, id, input.format, false);
}

async function assertNotInUse(em: EntityManager, view: View, what: string) {
  const usedBy = (await usersOfViews(em, [view.id])).get(view.id) ?? [];
  if (usedBy.length) throw new AppError('BAD_REQUEST', `${what}: the view is used by ${usedBy.join(', ')}`);
}

export async function updateView(scope: Scope, input: ViewPatchInput, partial: boolean) {
  await scope.em.transactional(async (em) => {
    const view = await findView(scope, input.id, em);
    let dictionary = await administrableDictionary(scope, view.dictionary.id, { em });
    assertVersion(view, input.version, 'View');
    if (input.dictionaryId !== undefined && input.dictionaryId !== dictionary.id) {
      await assertNotInUse(em, view, 'Cannot move it to another dictionary');
      dictionary = await administrableDictionary(scope, input.dictionaryId, { em });
      view.dictionary = dictionary as never;
    }
    if (input.name !== undefined) view.name = input.name;
    if (!partial || input.fields !== undefined || input.dictionaryId !== undefined) {
      view.fields = await visibleFields(em, dictionary.id, input.fields ?? (partial ? view.fields : []));
    }
    view.changedById = scope.actor.userId;
    await markStructureChanged(em, dictionary.id, {
      actorId: scope.actor.userId,
      subject: 'view',
      action: 'updated',
      id: view.id,
    });
  });
  scope.em.clear();
  return getView(scope, input.id, input.format, false);
}

async function softDelete(scope: Scope, id: number) {
  const view = await findView(scope, id);
  const dictionary = await administrableDictionary(scope, view.dictionary.id);
  await assertNotInUse(scope.em, view, 'Cannot delete it');
  markDeleted(view, scope.actor.userId);
  await markStructureChanged(scope.em, dictionary.id, {
    actorId: scope.actor.userId,
    subject: 'view',
    action: 'deleted',
    id: view.id,
  });
}

export async function deleteView(scope: Scope, id: number): Promise<void> {
  await scope.em.transactional((em) => softDelete({ ...scope, em }, id));
}

export function deleteViewsAsync(scope: Scope, ids: number[]) {
  return runForEachAsJob(scope, 'views.delete', ids, softDelete);
}
