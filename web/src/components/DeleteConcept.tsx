import { useTranslation } from 'react-i18next';
import './editor.css';
import * as Dialog from '@radix-ui/react-dialog';
import { useState } from 'react';
import { problemOf, trpc } from '../api';
import type { Concept } from '../data';
import { ErrorMessage } from './controls';

/**
 * Deleting the concept: shown to callers with CONCEPT_DELETE, refused while another session holds the
 * edit lock (the button says who), and confirmed in a dialog first (Escape or Cancel keeps the
 * concept). The server's answer (403, 409) shows in the dialog; `onDeleted` follows a 204.
 */
export function DeleteConcept(props: { concept: Concept; label: string; onDeleted: () => void }) {
  const { t } = useTranslation('concept');
  const { concept, label, onDeleted } = props;
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!concept.permissions?.CONCEPT_DELETE) return null;
  const lockedBy =
    concept.lock && !concept.lock.mine
      ? concept.lock.fullName || concept.lock.name || t('lock.anotherUser')
      : null;

  async function remove() {
    setBusy(true);
    setError(null);
    try {
      await trpc.concepts.delete.mutate({ id: concept.id });
      setOpen(false);
      onDeleted();
    } catch (caught) {
      setError(problemOf(caught).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        setError(null);
      }}
    >
      <Dialog.Trigger asChild>
        <button
          type="button"
          className="danger"
          disabled={lockedBy !== null}
          title={lockedBy ? t('delete.locked', { who: lockedBy }) : undefined}
        >
          {t('delete.button')}
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog dialog-small" role="alertdialog">
          <Dialog.Title>{t('delete.title', { label })}</Dialog.Title>
          <Dialog.Description>{t('delete.description')}</Dialog.Description>
          <ErrorMessage text={error} />
          <div className="actions">
            <button type="button" className="danger" disabled={busy} onClick={() => void remove()}>
              {t('delete.confirm')}
            </button>
            <Dialog.Close asChild>
              <button type="button">{t('common:cancel')}</button>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
