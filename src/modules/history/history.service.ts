/**
 * Reading history (docs/history.md): a concept's items for its readers with CONCEPT_VIEW_HISTORY, a
 * dictionary's items since its last structure change for its administrators. Newest first.
 */
import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { AppError, notFound } from '../../shared/errors.js';
import type { Format } from '../../shared/format.js';
import { pageRequest, toPage } from '../../shared/paging.js';
import type { Scope } from '../../shared/scope.js';
import { assertConceptPermission, readableConcept, readableConcepts } from '../concept/concept-access.js';
import { administrableDictionary } from '../dictionary/dictionary-access.js';
import { User } from '../user/user.entity.js';
import { hideUnseenInHistory } from '../workflow/workflow-visibility.js';
import { ConceptHistory } from './history.entity.js';
import type {
  ConceptHistoryInput,
  DictionaryHistoryInput,
  HistoryItemOutput,
  HistoryPage,
} from './history.schema.js';
import { hideUnseenProvenance } from './history-provenance.js';

type UserNames = Map<number, { username: string; fullName: string | null }>;

/** The authors of a page of items, in one query, whatever their tenant (system administrators too). */
async function loadUsers(em: EntityManager, rows: readonly ConceptHistory[]): Promise<UserNames> {
  const ids = [...new Set(rows.flatMap((row) => (row.userId ? [row.userId] : [])))];
  const users: UserNames = new Map();
  if (ids.length === 0) return users;
  const found = await em.find(
    User,
    { id: { $in: ids } },
    { fields: ['id', 'username', 'fullName'], filters: false },
  );
  for (const user of found) users.set(user.id, { username: user.username, fullName: user.fullName ?? null });
  return users;
}

/** The API form of an item; SHORT leaves the snapshot out, ID keeps the id only. */
export function historyItemDto(row: ConceptHistory, users: UserNames, format: Format): HistoryItemOutput {
  if (format === 'ID') return { id: row.id };
  const user = row.userId ? users.get(row.userId) : undefined;
  return {
    id: row.id,
    oid: row.oid ?? null,
    conceptId: row.concept.id,
    dictionaryId: row.dictionary.id,
    clientId: row.client.id,
    revision: row.revision,
    action: row.action,
    user: { id: row.userId ?? null, name: user?.username ?? null, fullName: user?.fullName ?? null },
    time: row.createdAt.getTime(),
    changes: row.changes,
    restoredFromId: row.restoredFromId ?? null,
    provenance: row.provenance ?? null,
    ...(format === 'SHORT' ? {} : { snapshot: row.snapshot }),
  };
}

async function historyPage(
  scope: Scope,
  where: FilterQuery<ConceptHistory>,
  input: { size?: number; page: number; format: Format },
): Promise<HistoryPage> {
  const request = pageRequest(input, scope.config.MAX_PAGE_SIZE);
  const [rows, total] = await scope.em.findAndCount(ConceptHistory, where, {
    orderBy: { id: 'DESC' },
    limit: request.size,
    offset: request.offset,
    // The snapshot is the bulk of a row; SHORT and ID never show it.
    ...(input.format === 'SHORT' || input.format === 'ID' ? { exclude: ['snapshot'] as never } : {}),
  });
  const users = input.format === 'ID' ? new Map() : await loadUsers(scope.em, rows);
  // Workflow (docs/workflows.md): the terms of unpublished entries stay out for guests and non-reviewers.
  const items = rows.map((row) => historyItemDto(row, users, input.format));
  return toPage(
    input.format === 'ID'
      ? items
      : await hideUnseenProvenance(scope, await hideUnseenInHistory(scope, items)),
    total,
    request,
    'id,DESC',
  );
}

/**
 * The concept's history, newest first. Readers of the concept with CONCEPT_VIEW_HISTORY (403 otherwise);
 * a deleted concept's history stays readable, so that it can be restored.
 */
export async function conceptHistory(scope: Scope, input: ConceptHistoryInput): Promise<HistoryPage> {
  const { concept, access } = await readableConcept(scope, input.conceptId, { evenDeleted: true });
  assertConceptPermission(access, 'CONCEPT_VIEW_HISTORY', 'view the history of this concept');
  return historyPage(scope, { concept: concept.id, client: concept.client.id }, input);
}

/**
 * The latest `first` items (format SHORT) of each concept, for many concepts in five statements whatever
 * their number (two more when items name terms in their provenance): GraphQL's nested `history(first)`. Each entry is what conceptHistory's first page would
 * hold, or the AppError it would raise for that concept (404 unreadable, 403 without CONCEPT_VIEW_HISTORY).
 */
export async function latestHistories(
  scope: Scope,
  conceptIds: readonly number[],
  first: number,
): Promise<(HistoryItemOutput[] | AppError)[]> {
  const loaded = new Map(
    (await readableConcepts(scope, conceptIds, { evenDeleted: true })).map((entry) => [
      entry.concept.id,
      entry,
    ]),
  );
  const outcome = new Map<number, HistoryItemOutput[] | AppError>();
  for (const id of conceptIds) {
    const entry = loaded.get(id);
    if (!entry) {
      outcome.set(id, notFound('Concept', id));
      continue;
    }
    try {
      assertConceptPermission(entry.access, 'CONCEPT_VIEW_HISTORY', 'view the history of this concept');
      outcome.set(id, []);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      outcome.set(id, error);
    }
  }
  const allowed = [...outcome].filter(([, value]) => Array.isArray(value)).map(([id]) => id);
  if (allowed.length > 0) {
    // Per concept its newest items through the concept's index, not a window over all of them.
    const ids = await scope.em.execute<{ id: number }[]>(
      `select h.id from unnest(array[?]::int[]) as c(id)
         cross join lateral (select id from concept_history
                              where concept_id = c.id and client_id = ? order by id desc limit ?) h`,
      [allowed, scope.actor.clientId, first],
    );
    const rows = await scope.em.find(
      ConceptHistory,
      { id: { $in: ids.map((row) => row.id) } },
      { orderBy: { id: 'DESC' }, exclude: ['snapshot'] as never },
    );
    const users = await loadUsers(scope.em, rows);
    const shown = await hideUnseenProvenance(
      scope,
      await hideUnseenInHistory(
        scope,
        rows.map((row) => historyItemDto(row, users, 'SHORT')),
      ),
    );
    for (const item of shown) (outcome.get(item.conceptId!) as HistoryItemOutput[]).push(item);
  }
  return conceptIds.map((id) => outcome.get(id)!);
}

/** The dictionary's history since its last structure change, newest first; for its administrators. */
export async function dictionaryHistory(scope: Scope, input: DictionaryHistoryInput): Promise<HistoryPage> {
  const dictionary = await administrableDictionary(scope, input.dictionaryId);
  return historyPage(
    scope,
    { dictionary: dictionary.id, createdAt: { $gte: dictionary.structureChangedAt } },
    input,
  );
}

/** A history item of the caller's client, or 404. */
export async function findHistoryItem(scope: Scope, id: number): Promise<ConceptHistory> {
  const item = await scope.em.findOne(ConceptHistory, { id, client: scope.actor.clientId });
  if (!item) throw notFound('History item', id);
  return item;
}

/** Items written before the dictionary's last structure change describe a structure that may be gone. */
export function assertAfterStructureChange(item: ConceptHistory, structureChangedAt: Date): void {
  if (item.createdAt.getTime() < structureChangedAt.getTime()) {
    throw new AppError(
      'BAD_REQUEST',
      `history-item-id: item ${item.id} is older than the last structure change of the dictionary (${structureChangedAt.toISOString()}); it cannot be undone`,
    );
  }
}
