import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { trpc } from '../api';
import { loadCaller } from '../caller';
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

const COMMENT_TYPES = new Set(['comment.created', 'comment.deleted']);

export interface ConceptChange {
  who: string[];
  what: string[];
  deleted: boolean;
  /** The concept itself changed (not only its comments): the editor offers "Compare". */
  changed: boolean;
}

/** A comment's text as the notice quotes it: its first line, shortened. */
function quoted(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/**
 * Listens for changes of the open concept made by someone else, and for their comments on it. Who made
 * a change comes from its history item (the event names only the actor's id; the history says the name
 * under the reader's own permissions); the user's own saves and comments are not announced.
 */
export function useConceptChanges(
  conceptId: number,
  dictionary: Dictionary | undefined,
  onChange: () => void,
  terms: readonly { id: number; name: string }[] = [],
) {
  const { t } = useTranslation('concept');
  const [change, setChange] = useState<ConceptChange | null>(null);
  // Names of users by id, learned from the comments read here: a deleted comment names only its deleter's id.
  const authors = useRef(new Map<number, string>());
  const add = (next: Omit<ConceptChange, 'deleted'> & { deleted?: boolean }) =>
    setChange((previous) => ({
      who: [...new Set([...(previous?.who ?? []), ...next.who])],
      what: [...new Set([...(previous?.what ?? []), ...next.what])],
      deleted: next.deleted === true || (previous?.deleted ?? false),
      changed: next.changed || (previous?.changed ?? false),
    }));

  /**
   * A comment of someone else on the concept or one of its terms. The event names only ids: a new
   * comment is read (its author and text, under the user's own permissions); a deleted one is gone,
   * so the notice names its deleter only when this screen has seen them comment.
   */
  async function commented(event: LiveEvent): Promise<void> {
    const caller = await loadCaller();
    if (event.actorId !== null && event.actorId === caller.userId) return;
    const level = event.data.fieldLevel === 'TERM' ? 'TERM' : 'CONCEPT';
    const entryId = Number(event.data.entryId);
    const term = level === 'TERM' ? terms.find((candidate) => candidate.id === entryId)?.name : undefined;
    const on = term === undefined ? '' : 'On';
    if (event.type === 'comment.deleted') {
      const who = (event.actorId !== null && authors.current.get(event.actorId)) || t('live.someone');
      add({ who: [who], what: [t(`live.commentDeleted${on}`, { term })], changed: false });
      return;
    }
    const comment = await trpc.comments.list
      .query({ 'entry-id': entryId, 'field-level': level })
      .then((list) => list.find((candidate) => candidate.id === event.data.commentId))
      .catch(() => undefined);
    if (!comment) return; // deleted again meanwhile: its deletion says so
    if (comment.userId !== null && comment.authorName)
      authors.current.set(comment.userId, comment.authorName);
    add({
      who: [comment.authorName || t('live.someone')],
      what: [t(`live.commentAdded${on}`, { term, text: quoted(comment.text) })],
      changed: false,
    });
  }

  useLiveEvents((event: LiveEvent) => {
    if (event.conceptId !== conceptId) return;
    if (COMMENT_TYPES.has(event.type)) {
      void commented(event);
      return;
    }
    if (!CONCEPT_TYPES.has(event.type)) return;
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
        add({ who: [who], what: changes, deleted: event.type === 'concept.deleted', changed: true });
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
            {t(
              change.deleted
                ? 'live.deletedBy'
                : change.changed
                  ? 'live.changedBy'
                  : 'live.commentsChangedBy',
              {
                who: change.who.join(', '),
              },
            )}
            {editing && change.changed && !change.deleted ? ` ${t('live.editKept')}` : ''}
          </p>
          {change.what.length > 0 && (
            <ul className="live-changes">
              {change.what.map((what) => (
                <li key={what}>{what}</li>
              ))}
            </ul>
          )}
          <div className="actions">
            {editing && change.changed && (
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
