import { type FormEvent, useState } from 'react';
import { problemOf, trpc } from '../api';
import { useLoaded } from '../data';
import { ErrorMessage } from './controls';

/** The concept's comments, newest last, as plain text; add and delete. */
export function CommentsPanel({ conceptId, canComment }: { conceptId: number; canComment: boolean }) {
  const comments = useLoaded(
    () => trpc.comments.list.query({ 'entry-id': conceptId }),
    `comments ${conceptId}`,
  );
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function add(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      await trpc.comments.create.mutate({ 'entry-id': conceptId, text });
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
    <section aria-label="Comments">
      <ErrorMessage text={comments.error?.message} />
      {comments.data?.length === 0 && <p className="hint">No comments yet.</p>}
      <ul className="comments">
        {comments.data?.map((comment) => (
          <li key={comment.id} className="term">
            <div className="value">{comment.text}</div>
            <div className="hint">
              {comment.authorName ?? 'someone'}, {new Date(comment.date).toLocaleString()}{' '}
              <button
                type="button"
                className="danger"
                onClick={() => void remove(comment.id)}
                aria-label={`Delete comment by ${comment.authorName ?? 'someone'}`}
              >
                Delete
              </button>
            </div>
          </li>
        ))}
      </ul>
      {canComment && (
        <form onSubmit={add} className="stack">
          <label>
            New comment
            <textarea value={text} onChange={(e) => setText(e.target.value)} required maxLength={4000} />
          </label>
          <ErrorMessage text={error} />
          <div className="actions">
            <button type="submit" className="primary">
              Add comment
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
