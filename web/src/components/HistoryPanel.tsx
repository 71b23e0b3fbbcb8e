import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemOf, trpc } from '../api';
import { type Dictionary, useLoaded } from '../data';
import { formatDate, i18next } from '../i18n';
import { useRestoreQuestion } from '../work/confirmations';
import { namesOf } from './concept-text';
import { ErrorMessage } from './controls';
import { HistoryProvenance } from './HistoryProvenance';

export type Change = {
  kind: string;
  subject: string;
  termId?: number;
  fieldOid?: string;
  relationId?: number;
  before?: unknown;
  after?: unknown;
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function scalar(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join('\n');
  return JSON.stringify(value);
}

/**
 * A value of a change as text. A whole object (a term, a relation) shows only the members that differ
 * from the other side, one per line, so a renamed term reads "name: old" -> "name: new".
 */
export function shown(value: unknown, other: unknown): string {
  if (!isRecord(value)) return scalar(value);
  const differing = Object.entries(value).filter(
    ([key, member]) =>
      member !== null && (!isRecord(other) || JSON.stringify(other[key]) !== JSON.stringify(member)),
  );
  return differing.map(([key, member]) => `${key}: ${scalar(member)}`).join('\n');
}

/** What a change touched, in words: the subject, the field's name, the term. */
export function whatOf(change: Change, names: ReturnType<typeof namesOf>, termNames: Map<number, string>) {
  const t = i18next.t;
  const parts = [
    t(`concept:history.subject.${change.subject}`, {
      defaultValue: change.subject.toLowerCase().replaceAll('_', ' '),
    }),
  ];
  if (change.termId !== undefined)
    parts.push(`“${termNames.get(change.termId) ?? t('concept:history.termN', { id: change.termId })}”`);
  if (change.fieldOid) parts.push(names.field(change.fieldOid));
  if (change.relationId !== undefined) parts.push(t('concept:history.relationN', { id: change.relationId }));
  const kind = t(`concept:history.kind.${change.kind}`, { defaultValue: change.kind.toLowerCase() });
  return `${kind}: ${parts.join(' · ')}`;
}

/** The changes of one history item, field by field: before struck through, after marked inserted. */
export function ChangesTable(props: {
  changes: Change[];
  names: ReturnType<typeof namesOf>;
  termNames: Map<number, string>;
}) {
  const { t } = useTranslation('concept');
  const { changes, names, termNames } = props;
  if (changes.length === 0) return null;
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">{t('history.change')}</th>
          <th scope="col">{t('history.before')}</th>
          <th scope="col">{t('history.after')}</th>
        </tr>
      </thead>
      <tbody>
        {changes.map((change, k) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: changes of an item have no id and never move.
          <tr key={k}>
            <td>{whatOf(change, names, termNames)}</td>
            <td className="value">
              {change.before !== undefined && <del>{shown(change.before, change.after)}</del>}
            </td>
            <td className="value">
              {change.after !== undefined && <ins>{shown(change.after, change.before)}</ins>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The concept's history, newest first, each change field by field; any earlier version can come back. */
export function HistoryPanel(props: {
  conceptId: number;
  version: number;
  dictionary?: Dictionary;
  /** Offered only to callers who may restore (CONCEPT_UPDATE or RESTORE_STATE). */
  canRestore: boolean;
  onRestored: () => void;
}) {
  const { t } = useTranslation('concept');
  const { conceptId, version, dictionary, canRestore, onRestored } = props;
  const history = useLoaded(
    () => trpc.history.concept.query({ conceptId, page: 0, size: 100, format: 'FULL' }),
    `history ${conceptId} ${version}`,
  );
  const [error, setError] = useState<string | null>(null);
  const names = namesOf(dictionary);
  const confirmRestore = useRestoreQuestion();

  async function restore(itemId: number) {
    if (!confirmRestore(history.data?.content.find((item) => item.id === itemId)?.revision)) return;
    setError(null);
    try {
      await trpc.history.conceptUndo.mutate({ 'history-item-id': itemId, format: 'ID' });
      onRestored();
    } catch (caught) {
      setError(problemOf(caught).message);
    }
  }

  const items = history.data?.content ?? [];
  return (
    <section aria-label={t('tabs.history')}>
      <ErrorMessage text={history.error?.message} />
      <ErrorMessage text={error} />
      <ol reversed className="history" style={{ listStyle: 'none', padding: 0 }}>
        {items.map((item, index) => {
          const termNames = new Map((item.snapshot?.terms ?? []).map((t) => [t.id, t.name]));
          return (
            <li key={item.id} className="history-item">
              <h3 style={{ fontSize: '1rem', margin: 0 }}>
                {t('history.item', {
                  revision: item.revision,
                  action: item.action ? t(`history.action.${item.action}`) : '',
                  who: item.user?.fullName || item.user?.name || t('someone'),
                })}{' '}
                · {item.time ? formatDate(item.time) : ''}
              </h3>
              <HistoryProvenance provenance={item.provenance} termNames={termNames} />
              <ChangesTable changes={(item.changes ?? []) as Change[]} names={names} termNames={termNames} />
              {index > 0 && canRestore && (
                <button type="button" onClick={() => void restore(item.id)}>
                  {t('history.restore', { revision: item.revision })}
                </button>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
