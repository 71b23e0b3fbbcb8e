import * as Dialog from '@radix-ui/react-dialog';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemOf, rest, trpc } from '../../../api';
import { ErrorMessage } from '../../../components/controls';
import { useLoaded } from '../../../data';
import { formatDate, formatNumber } from '../../../i18n';
import { navigate, onLinkClick } from '../../../routes';
import type { AdminPageProps } from '../admin-page';
import { aboutOf, type FeedbackItem, senderOf } from './feedback-text';

/** Downloads the attachment with the session's token (a plain link could not send it). */
async function download(item: FeedbackItem) {
  const response = await rest(`/feedback/${item.id}/attachment`);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = item.attachment?.fileName ?? 'attachment';
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * /admin/feedback/:id: one feedback as plain text, its file, its answers, and the administrator's
 * actions: answer (and close), close, reopen, delete (docs/feedback.md).
 */
export default function FeedbackPage({ params }: AdminPageProps) {
  const { t } = useTranslation('feedback');
  const id = Number(params.id);
  const loaded = useLoaded(() => trpc.feedback.get.query({ id }), `feedback ${id}`);
  const [answer, setAnswer] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const item = loaded.data;

  async function act(work: () => Promise<unknown>) {
    setBusy(true);
    setError(null);
    try {
      await work();
      loaded.reload();
    } catch (caught) {
      setError(problemOf(caught).message);
    } finally {
      setBusy(false);
    }
  }

  function submit(event: FormEvent, close: boolean) {
    event.preventDefault();
    void act(async () => {
      await trpc.feedback.answer.mutate({ id, text: answer, close });
      setAnswer('');
    });
  }

  const back = (
    <p>
      <a href="/admin/feedback" onClick={onLinkClick}>
        {t('admin.back')}
      </a>
    </p>
  );
  if (loaded.error)
    return (
      <>
        <h1>{t('admin.title')}</h1>
        <ErrorMessage text={loaded.error.message} />
        {back}
      </>
    );
  if (!item) return <p role="status">{t('common:loading')}</p>;
  return (
    <article aria-labelledby="feedback-title">
      {back}
      <h1 id="feedback-title">{t('admin.detailTitle', { about: aboutOf(t, item) })}</h1>
      <p className="hint">
        {t('admin.sentBy', { sender: senderOf(t, item), date: formatDate(item.created) })} ·{' '}
        {t(`admin.statusName.${item.status}`)} · {item.dictionaryName}
      </p>
      <p className="value" style={{ whiteSpace: 'pre-wrap' }}>
        {item.text}
      </p>
      <p className="hint">
        {item.senderEmail ? t('admin.replyTo', { email: item.senderEmail }) : t('admin.noAddress')}
      </p>
      {item.conceptId !== null && (
        <p>
          <a href={`/concepts/${item.conceptId}`} onClick={onLinkClick}>
            {t('admin.openConcept')}
          </a>
        </p>
      )}
      {item.attachment && (
        <p>
          {t('admin.attachment', {
            name: item.attachment.fileName,
            size: formatNumber(Math.ceil(item.attachment.size / 1024)),
          })}{' '}
          <button type="button" onClick={() => void act(() => download(item))}>
            {t('admin.download', { name: item.attachment.fileName })}
          </button>
        </p>
      )}
      <section aria-labelledby="feedback-answers">
        <h2 id="feedback-answers">{t('admin.answers')}</h2>
        {item.answers.length === 0 && <p className="hint">{t('admin.noAnswers')}</p>}
        <ul className="comments">
          {item.answers.map((entry) => (
            <li key={entry.id} className="term">
              <div className="value" style={{ whiteSpace: 'pre-wrap' }}>
                {entry.text}
              </div>
              <div className="hint">
                {t('admin.answeredBy', { author: entry.authorName ?? '', date: formatDate(entry.date) })}
              </div>
            </li>
          ))}
        </ul>
      </section>
      <ErrorMessage text={error} />
      {item.mayManage && (
        <>
          <form className="stack" onSubmit={(event) => submit(event, false)}>
            <label>
              {t('admin.answerLabel')}
              <textarea
                value={answer}
                onChange={(e) => setAnswer(e.target.value)}
                required
                maxLength={4000}
                rows={4}
              />
            </label>
            <div className="actions">
              <button type="submit" className="primary" disabled={busy}>
                {t('admin.answer')}
              </button>
              <button
                type="button"
                disabled={busy || answer.trim() === ''}
                onClick={(event) => submit(event, true)}
              >
                {t('admin.answerAndClose')}
              </button>
            </div>
          </form>
          <div className="actions">
            {item.status === 'CLOSED' ? (
              <button
                type="button"
                disabled={busy}
                onClick={() => void act(() => trpc.feedback.reopen.mutate({ id }))}
              >
                {t('admin.reopen')}
              </button>
            ) : (
              <button
                type="button"
                disabled={busy}
                onClick={() => void act(() => trpc.feedback.close.mutate({ id }))}
              >
                {t('admin.close')}
              </button>
            )}
            <Dialog.Root open={confirming} onOpenChange={setConfirming}>
              <Dialog.Trigger asChild>
                <button type="button" className="danger">
                  {t('admin.delete')}
                </button>
              </Dialog.Trigger>
              <Dialog.Portal>
                <Dialog.Overlay className="dialog-overlay" />
                <Dialog.Content className="dialog dialog-small" role="alertdialog">
                  <Dialog.Title>{t('admin.deleteConfirm')}</Dialog.Title>
                  <Dialog.Description>{aboutOf(t, item)}</Dialog.Description>
                  <div className="actions">
                    <button
                      type="button"
                      className="danger"
                      onClick={() =>
                        void act(async () => {
                          await trpc.feedback.delete.mutate({ id });
                          setConfirming(false);
                          navigate('/admin/feedback');
                        })
                      }
                    >
                      {t('admin.delete')}
                    </button>
                    <Dialog.Close asChild>
                      <button type="button">{t('common:cancel')}</button>
                    </Dialog.Close>
                  </div>
                </Dialog.Content>
              </Dialog.Portal>
            </Dialog.Root>
          </div>
        </>
      )}
    </article>
  );
}
