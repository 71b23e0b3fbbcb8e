import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemOf, trpc } from '../api';
import { useCaller } from '../caller';
import { useLoaded } from '../data';
import { formatDate } from '../i18n';
import { useLiveRefresh } from '../live/live-events';
import { ErrorMessage } from './controls';

/**
 * The comments on a concept, or on one of its terms (`level` TERM, `entryId` the term's id), as plain
 * text; add and delete. Others' comments show as they are added or deleted (live events). `about` names a term in the labels ("New comment on “valve”").
 */
export function CommentsPanel(props: {
  entryId: number;
  level?: 'CONCEPT' | 'TERM';
  about?: string;
  canComment: boolean;
  /** The concept's dictionary: its administrators may delete any comment. */
  dictionary?: { id: number; oid?: string | null };
}) {
  const { entryId, level = 'CONCEPT', about, canComment, dictionary } = props;
  const { t } = useTranslation('concept');
  // Deleting is for the comment's author and the dictionary's administrators (guests share one account).
  const caller = useCaller();
  const mayDelete = (authorId: number | null) =>
    !!caller &&
    !caller.guest &&
    ((authorId !== null && authorId === caller.userId) || (!!dictionary && caller.administers(dictionary)));
  // Labels name the term a comment is about, so buttons of several terms' panels differ.
  const on = (key: string, values: Record<string, string> = {}) =>
    about ? t(`comments.${key}On`, { ...values, about }) : t(`comments.${key}`, values);
  const comments = useLoaded(
    () => trpc.comments.list.query({ 'entry-id': entryId, 'field-level': level }),
    `comments ${level} ${entryId}`,
  );
  // Comments added or deleted elsewhere (docs/events.md: comment.* name their entry) show by themselves.
  useLiveRefresh(
    (event) =>
      event.type.startsWith('comment.') &&
      event.data.entryId === entryId &&
      (event.data.fieldLevel ?? 'CONCEPT') === level,
    comments.reload,
  );
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function add(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      await trpc.comments.create.mutate({ 'entry-id': entryId, 'field-level': level, text });
      setText('');
      comments.reload();
    } catch (caught) {
      setError(problemOf(caught).message);
    }
  }

  async function remove(id: number) {
    setError(null);
    try {
      await trpc.comments.delete.mutate({ id });
      comments.reload();
    } catch (caught) {
      setError(problemOf(caught).message);
    }
  }

  return (
    <section aria-label={on('label')}>
      <ErrorMessage text={comments.error?.message} />
      {comments.data?.length === 0 && <p className="hint">{t('comments.none')}</p>}
      <ul className="comments">
        {comments.data?.map((comment) => (
          <li key={comment.id} className="term">
            <div className="value">{comment.text}</div>
            <div className="hint">
              {comment.authorName ?? t('someone')}, {formatDate(comment.date)}{' '}
              {mayDelete(comment.userId) && (
                <button
                  type="button"
                  className="danger"
                  onClick={() => void remove(comment.id)}
                  aria-label={on('delete', { author: comment.authorName ?? t('someone') })}
                >
                  {t('comments.deleteButton')}
                </button>
              )}
            </div>
          </li>
        ))}
      </ul>
      {canComment && (
        <form onSubmit={add} className="stack">
          <label>
            {on('new')}
            <textarea value={text} onChange={(e) => setText(e.target.value)} required maxLength={4000} />
          </label>
          <ErrorMessage text={error} />
          <div className="actions">
            <button type="submit" className="primary" aria-label={on('add')}>
              {t('comments.addButton')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
