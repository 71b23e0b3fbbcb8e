import * as Dialog from '@radix-ui/react-dialog';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemOf, rest, trpc } from '../api';
import { ErrorMessage } from '../components/controls';
import { useLoaded } from '../data';
import { formatNumber } from '../i18n';

/** Something feedback may be about: the dictionary, the concept or one of its terms. */
interface FeedbackTarget {
  key: string;
  label: string;
  target: { dictionaryId: number } | { conceptId: number } | { termId: number };
}

/** What the feedback may be about: a dictionary, or a concept and each of its live terms. */
export type FeedbackSubject =
  | { dictionary: { id: number; name: string } }
  | {
      concept: {
        id: number;
        title: string;
        terms: {
          id?: number | null;
          name?: string | null;
          languageCode?: string | null;
          deleted?: boolean | null;
        }[];
      };
    };

function targetsOf(
  t: (key: string, values: Record<string, string>) => string,
  subject: FeedbackSubject,
): FeedbackTarget[] {
  if ('dictionary' in subject) {
    const { id, name } = subject.dictionary;
    return [{ key: `d${id}`, label: t('aboutDictionary', { name }), target: { dictionaryId: id } }];
  }
  const { concept } = subject;
  return [
    {
      key: `c${concept.id}`,
      label: t('aboutConcept', { label: `“${concept.title}”` }),
      target: { conceptId: concept.id },
    },
    ...concept.terms
      .filter((term) => term.id != null && !term.deleted)
      .map((term) => ({
        key: `t${term.id}`,
        label: t('aboutTerm', { label: `“${term.name ?? ''}” (${term.languageCode ?? ''})` }),
        target: { termId: term.id as number },
      })),
  ];
}

/**
 * "Send feedback" for readers and guests (docs/feedback.md): a dialog with the message, what it is about
 * when there is a choice, a name and an address for guests, and one optional file within
 * FEEDBACK_MAX_FILE_SIZE, sent after the feedback by the same session. Hidden where the server says the
 * caller may not send.
 */
export function SendFeedback({ subject }: { subject: FeedbackSubject }) {
  const { t } = useTranslation('feedback');
  const targets = targetsOf(t, subject);
  // One small query per mount: the answer depends on the session (guests, the client's settings).
  const loaded = useLoaded(() => trpc.feedback.options.query({}), 'feedback options');
  const [open, setOpen] = useState(false);
  const [about, setAbout] = useState(targets[0]?.key ?? '');
  const [text, setText] = useState('');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const settings = loaded.data;
  if (!settings?.allowed || targets.length === 0) return null;
  const chosen = targets.find((target) => target.key === about) ?? targets[0]!;
  const tooLarge = file !== null && file.size > settings.maxFileSize;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (tooLarge) return;
    setBusy(true);
    setError(null);
    try {
      const created = await trpc.feedback.create.mutate({
        ...chosen.target,
        text,
        ...(settings?.askSender && name.trim() ? { senderName: name.trim() } : {}),
        ...(settings?.askSender && email.trim() ? { senderEmail: email.trim() } : {}),
      });
      if (file) {
        const body = new FormData();
        body.append('file', file, file.name);
        try {
          await rest(`/feedback/${created.id}/attachment`, { method: 'POST', body });
        } catch (caught) {
          // The feedback is sent; only the file is missing: say so and keep the dialog open.
          setError(t('fileRefused', { reason: problemOf(caught).message }));
          setSent(t('sent'));
          return;
        }
      }
      setText('');
      setFile(null);
      setSent(t('sent'));
      setOpen(false);
    } catch (caught) {
      setError(problemOf(caught).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <Dialog.Root
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          setError(null);
          if (next) setSent(null);
        }}
      >
        <Dialog.Trigger asChild>
          <button type="button">{t('send')}</button>
        </Dialog.Trigger>
        <Dialog.Portal>
          <Dialog.Overlay className="dialog-overlay" />
          <Dialog.Content className="dialog dialog-small">
            <Dialog.Title>{t('title')}</Dialog.Title>
            <Dialog.Description>{t('description')}</Dialog.Description>
            <form onSubmit={(event) => void submit(event)} className="stack">
              {targets.length > 1 ? (
                <label>
                  {t('about')}
                  <select value={chosen.key} onChange={(e) => setAbout(e.target.value)}>
                    {targets.map((target) => (
                      <option key={target.key} value={target.key}>
                        {target.label}
                      </option>
                    ))}
                  </select>
                </label>
              ) : (
                <p className="hint">{t('aboutOne', { label: chosen.label })}</p>
              )}
              <label>
                {t('message')}
                <textarea
                  value={text}
                  onChange={(e) => setText(e.target.value)}
                  required
                  maxLength={settings.maxTextLength}
                  rows={5}
                />
              </label>
              {settings.askSender && (
                <>
                  <label>
                    {t('name')}
                    <input value={name} onChange={(e) => setName(e.target.value)} autoComplete="name" />
                  </label>
                  <label>
                    {t('email')}
                    <input
                      type="email"
                      value={email}
                      onChange={(e) => setEmail(e.target.value)}
                      autoComplete="email"
                    />
                  </label>
                </>
              )}
              <label>
                {t('file', { max: formatNumber(Math.floor(settings.maxFileSize / 1024)) })}
                <input
                  type="file"
                  onChange={(e) => setFile(e.target.files?.[0] ?? null)}
                  aria-invalid={tooLarge || undefined}
                />
              </label>
              {tooLarge && <ErrorMessage text={t('fileTooLarge')} />}
              <ErrorMessage text={error} />
              {sent && error && <p role="status">{sent}</p>}
              <div className="actions">
                <button type="submit" className="primary" disabled={busy || tooLarge}>
                  {t('submit')}
                </button>
                <Dialog.Close asChild>
                  <button type="button">{t('common:cancel')}</button>
                </Dialog.Close>
              </div>
            </form>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
      {sent && !open && (
        <p role="status" className="hint">
          {sent}
        </p>
      )}
    </>
  );
}
