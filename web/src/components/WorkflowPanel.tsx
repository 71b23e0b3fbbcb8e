import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemOf, trpc } from '../api';
import { type Concept, useLoaded } from '../data';
import { ErrorMessage } from './controls';

type Entry = Awaited<ReturnType<typeof trpc.workflows.conceptStates.query>>['entries'][number];

/** A workflow state as a badge: its name as text, its category as style (docs/workflows.md). */
export function StateBadge({ name, category }: { name: string; category: string }) {
  return <span className={`state-badge state-${category.toLowerCase()}`}>{name}</span>;
}

/**
 * The concept's workflow entries (per the workflow's unit: the concept, each language or each term),
 * each with its state and the transitions the caller may fire now. Nothing when no workflow governs
 * the dictionary. A move changes the concept's version, so `onMoved` reloads the concept.
 */
export function WorkflowPanel(props: {
  concept: Concept;
  languageNames: Map<string, string>;
  onMoved: () => void;
}) {
  const { t } = useTranslation('workflow');
  const { concept } = props;
  const id = concept.id ?? 0;
  const states = useLoaded(
    () => trpc.workflows.conceptStates.query({ conceptId: id }),
    `workflow ${id} ${concept.version}`,
  );
  if (states.error) return <ErrorMessage text={states.error.message} />;
  if (!states.data || states.data.workflowId === null || states.data.entries.length === 0) return null;
  const termNames = new Map((concept.terms ?? []).map((term) => [term.id, term.name]));
  const label = (entry: Entry) =>
    entry.termId !== null
      ? (termNames.get(entry.termId) ?? t('panel.termN', { id: entry.termId }))
      : entry.languageCode !== null
        ? (props.languageNames.get(entry.languageCode) ?? entry.languageCode)
        : t('panel.concept');
  return (
    <section className="workflow card" aria-labelledby="workflow-title">
      <h2 id="workflow-title">{t('panel.title')}</h2>
      <ul className="workflow-entries">
        {states.data.entries.map((entry) => (
          <WorkflowEntry
            key={`${entry.languageCode}-${entry.termId}`}
            entry={entry}
            label={label(entry)}
            onMoved={() => {
              states.reload();
              props.onMoved();
            }}
          />
        ))}
      </ul>
    </section>
  );
}

function WorkflowEntry({ entry, label, onMoved }: { entry: Entry; label: string; onMoved: () => void }) {
  const { t } = useTranslation('workflow');
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const commentId = `wf-comment-${entry.conceptId}-${entry.languageCode}-${entry.termId}`;

  async function fire(transition: string) {
    setBusy(true);
    setError(null);
    try {
      await trpc.workflows.fire.mutate({
        conceptId: entry.conceptId,
        languageCode: entry.languageCode ?? undefined,
        termId: entry.termId ?? undefined,
        transition,
        version: entry.version,
        comment: comment.trim() || undefined,
      });
      setComment('');
      onMoved();
    } catch (caught) {
      setError(problemOf(caught).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className="workflow-entry">
      <span className="workflow-label">{label}</span>
      <StateBadge name={entry.stateName} category={entry.category} />
      {entry.readOnly && <span className="badge">{t('panel.readOnly')}</span>}
      {entry.transitions.length > 0 && (
        <div className="actions">
          <label htmlFor={commentId} className="visually-hidden">
            {t('panel.commentOn', { label })}
          </label>
          <input
            id={commentId}
            placeholder={t('panel.comment')}
            value={comment}
            onChange={(e) => setComment(e.target.value)}
          />
          {entry.transitions.map((transition) => (
            <button
              key={transition.key}
              type="button"
              disabled={busy}
              onClick={() => void fire(transition.key)}
              title={
                transition.missingFields.length
                  ? t('panel.missingFields', { fields: transition.missingFields.join(', ') })
                  : undefined
              }
            >
              {transition.name}
              {transition.commentRequired ? t('panel.commentRequired') : ''}
            </button>
          ))}
        </div>
      )}
      <ErrorMessage text={error} />
    </li>
  );
}
