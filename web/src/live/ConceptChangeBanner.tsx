import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { trpc } from '../api';
import { namesOf } from '../components/concept-text';
import { type Change, whatOf } from '../components/HistoryPanel';
import type { Dictionary } from '../data';
import { getSession } from '../session';
import { type LiveEvent, useLiveEvents } from './live-events';

/** Concept events that change what the screen shows (term.* repeat their concept event's changes). */
const CONCEPT_TYPES = new Set([
  'concept.updated',
  'concept.deleted',
  'concept.restored',
  'concept.undone',
  'workflow.transitioned',
]);

export interface ConceptChange {
  who: string[];
  what: string[];
  deleted: boolean;
}

/**
 * Listens for changes of the open concept made by someone else. Who made a change comes from its
 * history item (the event names only the actor's id; the history says the name under the reader's own
 * permissions); the user's own saves are not announced.
 */
export function useConceptChanges(
  conceptId: number,
  dictionary: Dictionary | undefined,
  onChange: () => void,
) {
  const { t } = useTranslation('concept');
  const [change, setChange] = useState<ConceptChange | null>(null);
  useLiveEvents((event: LiveEvent) => {
    if (event.conceptId !== conceptId || !CONCEPT_TYPES.has(event.type)) return;
    const historyId = event.data.historyId;
    void trpc.history.concept
      .query({ conceptId, page: 0, size: 10, format: 'FULL' })
      .then((page) => page.content.find((item) => item.id === historyId))
      .catch(() => undefined)
      .then((item) => {
        if (item?.user?.name && item.user.name === getSession()?.username) return;
        const who = item?.user?.fullName || item?.user?.name || t('someone');
        const termNames = new Map((item?.snapshot?.terms ?? []).map((term) => [term.id, term.name]));
        const names = namesOf(dictionary);
        const changes = ((event.data.changes ?? []) as Change[]).map((c) =>
          c.subject === 'WORKFLOW' ? t('live.workflow') : whatOf(c, names, termNames),
        );
        setChange((previous) => ({
          who: [...new Set([...(previous?.who ?? []), who])],
          what: [...new Set([...(previous?.what ?? []), ...changes])],
          deleted: event.type === 'concept.deleted' || (previous?.deleted ?? false),
        }));
        onChange();
      });
  });
  return { change, dismiss: () => setChange(null) };
}

/**
 * The polite notice that someone else changed the concept on screen, and what changed. In the view the
 * concept has been reloaded already; in the editor the user's unsaved edit stays, and "Compare" shows
 * theirs beside it (the save's version check still refuses to overwrite unseen).
 */
export function ConceptChangeBanner(props: {
  change: ConceptChange | null;
  editing: boolean;
  onCompare: () => void;
  onDismiss: () => void;
}) {
  const { t } = useTranslation('concept');
  const { change, editing } = props;
  return (
    <div role="status" aria-live="polite" className="live-banner-region">
      {change && (
        <div className="live-banner">
          <p>
            {t(change.deleted ? 'live.deletedBy' : 'live.changedBy', { who: change.who.join(', ') })}
            {editing && !change.deleted ? ` ${t('live.editKept')}` : ''}
          </p>
          {change.what.length > 0 && (
            <ul className="live-changes">
              {change.what.map((what) => (
                <li key={what}>{what}</li>
              ))}
            </ul>
          )}
          <div className="actions">
            {editing && (
              <button type="button" onClick={props.onCompare}>
                {t('live.compare')}
              </button>
            )}
            <button type="button" onClick={props.onDismiss}>
              {t('live.dismiss')}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
