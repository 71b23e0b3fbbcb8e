/**
 * Unpublished entries are invisible to guests and to named users without review rights
 * (docs/workflows.md): concept reads (REST in every format, GraphQL, display concepts, history) leave
 * their terms out, and a change by such a user keeps those terms exactly as they are, so a full update
 * of what the user was shown never erases what the user was not shown. Without an enabled workflow, or
 * for reviewers, nothing is hidden; the cost is then the one indexed query for the enabled workflows.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { notFound } from '../../shared/errors.js';
import type { Scope } from '../../shared/scope.js';
import type { Sql } from '../../shared/sql.js';
import { accessSubject } from '../access/access.service.js';
import type { HistoryItemOutput } from '../history/history.schema.js';
import type { ConceptSnapshot } from '../history/history.types.js';
import {
  enabledWorkflows,
  type GovernedItem,
  type GoverningWorkflow,
  reviews,
  statesOf,
} from './workflow-effects.js';
import { termStatesSql } from './workflow-state-sql.js';

/** Whether the caller reviews in the workflow, and so sees its unpublished entries (guests never). */
export async function mayReview(scope: Scope, workflow: GoverningWorkflow): Promise<boolean> {
  if (scope.actor.guest) return false;
  return reviews(scope.actor, (await accessSubject(scope)).groupIds, workflow);
}

/**
 * The rule for set-based reads (exports, statistics, entry lists): the states of the workflow whose
 * entries the caller may not see, the unpublished ones unless the caller reviews (empty: every state).
 * The same rule as unseenTermIds for concept reads and the search's for term lists.
 */
export async function unseenStates(scope: Scope, workflow: GoverningWorkflow): Promise<string[]> {
  const unpublished = workflow.definition.states.filter((s) => s.unpublished).map((s) => s.key);
  if (unpublished.length === 0 || (await mayReview(scope, workflow))) return [];
  return unpublished;
}

/**
 * A condition on a term row `t` of the workflow's dictionary that holds when its entry is in none of
 * the `unseen` states (its row's state copy; no row or a key the definition lost: the initial state),
 * or null when nothing is unseen.
 */
export function seenTermSql(workflow: GoverningWorkflow, unseen: readonly string[]): Sql | null {
  if (unseen.length === 0) return null;
  return termStatesSql({
    workflowId: workflow.id,
    unit: workflow.unit,
    initialState: workflow.definition.initialState,
    listed: workflow.definition.states.map((state) => state.key).filter((key) => !unseen.includes(key)),
    unlisted: unseen,
  });
}

/**
 * The ids of the terms among `items` the actor may not see: those whose entry is in an unpublished
 * state, unless the actor reviews in the workflow. `em` is the transaction's when called inside one.
 */
export async function unseenTermIds(
  scope: Scope,
  items: readonly GovernedItem[],
  em: EntityManager = scope.em,
): Promise<Set<number>> {
  if (items.length === 0) return new Set();
  const workflows = await enabledWorkflows(
    em,
    items.map((item) => item.dictionaryId),
  );
  const withUnpublished = [...workflows.values()].filter((w) =>
    w.definition.states.some((s) => s.unpublished),
  );
  if (withUnpublished.length === 0) return new Set();
  const blind = new Map<number, GoverningWorkflow>();
  for (const w of withUnpublished) if (!(await mayReview(scope, w))) blind.set(w.dictionaryId, w);
  if (blind.size === 0) return new Set();
  const states = await statesOf(em, items, blind);
  return new Set(items.filter((_, index) => states[index]?.state.unpublished).map((item) => item.termId));
}

/** Leaves the unseen terms out of loaded concept parts (their reference links go with them). */
export async function hideUnseenTerms(
  scope: Scope,
  concepts: readonly { id: number; dictionary: { id: number } }[],
  parts: Map<number, { terms: { id: number; languageCode: string }[] }>,
): Promise<void> {
  const items = concepts.flatMap((concept) =>
    (parts.get(concept.id)?.terms ?? []).map((term) => ({
      dictionaryId: concept.dictionary.id,
      conceptId: concept.id,
      languageCode: term.languageCode,
      termId: term.id,
    })),
  );
  const hidden = await unseenTermIds(scope, items);
  if (hidden.size === 0) return;
  for (const part of parts.values()) part.terms = part.terms.filter((term) => !hidden.has(term.id));
}

/**
 * For a change of a concept (inside its transaction): the terms of the stored state the caller is not
 * shown. A change naming one of them by id answers 404, as for a term that does not exist.
 */
export async function unseenTermsOfChange(
  scope: Scope,
  em: EntityManager,
  conceptId: number,
  before: ConceptSnapshot,
  sentTermIds: readonly (number | undefined)[],
): Promise<Set<number>> {
  const hidden = await unseenTermIds(
    scope,
    before.terms.map((term) => ({
      dictionaryId: before.dictionaryId,
      conceptId,
      languageCode: term.languageCode,
      termId: term.id,
    })),
    em,
  );
  const guessed = sentTermIds.find((id) => id !== undefined && hidden.has(id));
  if (guessed !== undefined) throw notFound('Term', guessed);
  return hidden;
}

/**
 * History items as the caller may see them: snapshot terms (and their links) and term changes of
 * unseen terms are left out. Terms are judged by their entries' current states; the languages of terms
 * named only in changes come from one query.
 */
export async function hideUnseenInHistory(
  scope: Scope,
  items: HistoryItemOutput[],
): Promise<HistoryItemOutput[]> {
  const known = new Map<number, GovernedItem>();
  const named = new Set<number>();
  for (const item of items) {
    if (item.conceptId === undefined || item.dictionaryId === undefined) continue;
    for (const term of item.snapshot?.terms ?? []) {
      known.set(term.id, {
        dictionaryId: item.dictionaryId,
        conceptId: item.conceptId,
        languageCode: term.languageCode,
        termId: term.id,
      });
    }
    for (const change of item.changes ?? []) if (change.termId) named.add(change.termId);
  }
  const missing = [...named].filter((id) => !known.has(id));
  if (missing.length) {
    const rows = await scope.em.execute<
      { id: number; concept_id: number; dictionary_id: number; language_code: string }[]
    >(
      'select id, concept_id, dictionary_id, language_code from terms where id = any(?::int[]) and client_id = ?',
      [`{${missing.join(',')}}`, scope.actor.clientId],
    );
    for (const row of rows) {
      known.set(row.id, {
        dictionaryId: row.dictionary_id,
        conceptId: row.concept_id,
        languageCode: row.language_code,
        termId: row.id,
      });
    }
  }
  const hidden = await unseenTermIds(scope, [...known.values()]);
  if (hidden.size === 0) return items;
  const seen = (termId: number | null | undefined) => !termId || !hidden.has(termId);
  return items.map((item) => ({
    ...item,
    ...(item.changes ? { changes: item.changes.filter((change) => seen(change.termId)) } : {}),
    ...(item.snapshot
      ? {
          snapshot: {
            ...item.snapshot,
            terms: item.snapshot.terms.filter((term) => seen(term.id)),
            refLinks: item.snapshot.refLinks.filter((link) => seen(link.sourceTermId)),
          },
        }
      : {}),
  }));
}
