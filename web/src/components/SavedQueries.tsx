import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemOf, trpc } from '../api';
import { useLoaded } from '../data';
import { formatNumber } from '../i18n';
import { onLinkClick } from '../routes';
import { ErrorMessage } from './controls';

/**
 * Saved queries (issue 28): the current search (its URL query: text, pickers, options, columns) saved
 * under a name on the server (`savedQueries`, per user and client), listed as links that open it,
 * and deleted. Guests keep none, so for them it shows nothing.
 */
export function SavedQueries({ current }: { current: string }) {
  const { t } = useTranslation('search');
  const list = useLoaded(() => trpc.savedQueries.list.query({}), 'saved queries');
  const [name, setName] = useState('');
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  if (list.error?.status === 403) return null;

  async function save(event: FormEvent) {
    event.preventDefault();
    try {
      const saved = await trpc.savedQueries.save.mutate({ name, query: current });
      setMessage({ text: t('saved.savedAs', { name: saved.name }), error: false });
      setName('');
      list.reload();
    } catch (caught) {
      setMessage({ text: problemOf(caught).message, error: true });
    }
  }

  async function remove(id: number, label: string) {
    try {
      await trpc.savedQueries.delete.mutate({ id });
      setMessage({ text: t('saved.deleted', { name: label }), error: false });
      list.reload();
    } catch (caught) {
      setMessage({ text: problemOf(caught).message, error: true });
    }
  }

  return (
    <details className="saved-queries">
      <summary>
        {t('saved.title')}
        {list.data ? ` (${formatNumber(list.data.length)})` : ''}
      </summary>
      <form className="inline-form" onSubmit={save} aria-label={t('saved.save')}>
        <label>
          {t('saved.name')}
          <input value={name} onChange={(e) => setName(e.target.value)} maxLength={255} required />
        </label>
        <button type="submit">{t('saved.save')}</button>
      </form>
      {message &&
        (message.error ? <ErrorMessage text={message.text} /> : <p role="status">{message.text}</p>)}
      <ErrorMessage text={list.error?.message} />
      {list.data && list.data.length > 0 && (
        <ul className="saved-list" aria-label={t('saved.title')}>
          {list.data.map((saved) => (
            <li key={saved.id}>
              <a href={`/search?${saved.query}`} onClick={onLinkClick}>
                {saved.name}
              </a>
              <button type="button" className="link-button" onClick={() => void remove(saved.id, saved.name)}>
                {t('saved.delete')}
                <span className="visually-hidden"> {saved.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}
