/**
 * HistoryItem: one change of a concept, as Concept.history lists them; the latest items of every concept
 * shown are read in one batch per request tick.
 */
import DataLoader from 'dataloader';
import { builder, type GraphQLContext } from '../../../graphql/builder.js';
import { AppError } from '../../../shared/errors.js';
import type { HistoryItem } from '../../history/history.schema.js';
import { latestHistories } from '../../history/history.service.js';
import { domainCall, stateOf, trpcErrorOf } from './request-state.js';

export const HISTORY_MAX = 200;
/** Histories are read in one batch per request tick; an item costs a little more than a term. */
export const HISTORY_COST = 2;

/** Format SHORT answers every member of a history item but the snapshot. */
export type HistoryItemShape = Omit<HistoryItem, 'snapshot'>;

export interface HistoryKey {
  conceptId: number;
  first: number;
}

/**
 * The latest items of each concept's history, one batch per request tick and `first`: a concept whose
 * history the caller may not see gets its own error (FORBIDDEN or NOT_FOUND), the others their items.
 */
export function historyLoader(context: GraphQLContext): DataLoader<HistoryKey, HistoryItemShape[], string> {
  const state = stateOf(context);
  state.histories ??= new DataLoader(
    async (keys: readonly HistoryKey[]) => {
      const answers = new Map<string, HistoryItemShape[] | Error>();
      for (const first of new Set(keys.map((key) => key.first))) {
        const ids = keys.filter((key) => key.first === first).map((key) => key.conceptId);
        const histories = await domainCall(context, (scope) => latestHistories(scope, ids, first));
        histories.forEach((history, index) => {
          answers.set(
            `${ids[index]}:${first}`,
            history instanceof AppError ? trpcErrorOf(history) : (history as HistoryItemShape[]),
          );
        });
      }
      return keys.map((key) => answers.get(`${key.conceptId}:${key.first}`)!);
    },
    { cacheKeyFn: (key) => `${key.conceptId}:${key.first}` },
  );
  return state.histories;
}

type Provenance = NonNullable<HistoryItemShape['provenance']>;
type FileTransactions = NonNullable<Provenance['concept']>;
type TermTransactions = Provenance['terms'][number];

const FileTransactionsRef = builder.objectRef<FileTransactions>('FileTransactions').implement({
  description: "Who created and last changed something according to an imported file's transactions.",
  fields: (t) => ({
    createdBy: t.exposeString('createdBy', { nullable: true }),
    createdAt: t.exposeFloat('createdAt', { nullable: true, description: 'ms epoch' }),
    changedBy: t.exposeString('changedBy', { nullable: true }),
    changedAt: t.exposeFloat('changedAt', { nullable: true, description: 'ms epoch' }),
  }),
});

const TermTransactionsRef = builder.objectRef<TermTransactions>('TermFileTransactions').implement({
  description: 'A term of the concept and its file transactions.',
  fields: (t) => ({
    termId: t.exposeInt('termId'),
    createdBy: t.exposeString('createdBy', { nullable: true }),
    createdAt: t.exposeFloat('createdAt', { nullable: true, description: 'ms epoch' }),
    changedBy: t.exposeString('changedBy', { nullable: true }),
    changedAt: t.exposeFloat('changedAt', { nullable: true, description: 'ms epoch' }),
  }),
});

const HistoryProvenanceRef = builder.objectRef<Provenance>('HistoryProvenance').implement({
  description: 'On the items of a TBX import: the people and dates the file records (docs/history.md).',
  fields: (t) => ({
    concept: t.field({ type: FileTransactionsRef, nullable: true, resolve: (p) => p.concept }),
    terms: t.field({ type: [TermTransactionsRef], resolve: (p) => p.terms }),
  }),
});

export const HistoryItemRef = builder.objectRef<HistoryItemShape>('HistoryItem').implement({
  description: 'One change of a concept.',
  fields: (t) => ({
    id: t.exposeInt('id'),
    revision: t.exposeInt('revision', { description: 'the concept version this change produced' }),
    action: t.exposeString('action', { description: 'CREATE, UPDATE, DELETE, RESTORE or UNDO' }),
    userId: t.int({ nullable: true, resolve: (item) => item.user.id }),
    time: t.exposeFloat('time', { description: 'ms epoch' }),
    changes: t.field({
      type: 'JSON',
      description:
        'what differs from the state before: [{kind, subject, termId?, fieldOid?, relationId?, language?, before?, after?}]',
      resolve: (item) => item.changes,
    }),
    restoredFromId: t.exposeInt('restoredFromId', {
      nullable: true,
      description: 'UNDO and RESTORE: the item whose state came back',
    }),
    provenance: t.field({
      type: HistoryProvenanceRef,
      nullable: true,
      description: 'TBX import items: who created and changed the concept and its terms by the file',
      resolve: (item) => item.provenance ?? null,
    }),
  }),
});
