import { useTranslation } from 'react-i18next';
import type { Concept } from '../data';
import { formatDate, formatTime } from '../i18n';
import { getSession } from '../session';
import type { StoredDraft } from './draft-store';

type Lock = Concept['lock'];

/** A live lock of the signed-in user held by another of their sessions (another tab or browser). */
export function isOwnLockElsewhere(lock: Lock): boolean {
  const username = getSession()?.username.toLowerCase();
  return !!lock && !lock.mine && !!username && lock.name?.toLowerCase() === username;
}

/** Says the user edits this concept elsewhere, and offers to move the edit (and its lock) here. */
export function OwnLockNote({ lock, onTakeOver }: { lock: Lock; onTakeOver: () => void }) {
  const { t } = useTranslation('work');
  if (!lock) return null;
  return (
    <div className="lock-note" role="status">
      <p>{t('ownLock', { time: formatTime(lock.expirationTime) })}</p>
      <button type="button" onClick={onTakeOver}>
        {t('takeOver')}
      </button>
    </div>
  );
}

/** Unsaved changes of this concept kept in this browser: continue them or let them go. */
export function DraftOffer(props: { stored: StoredDraft; onContinue: () => void; onDiscard: () => void }) {
  const { t } = useTranslation('work');
  return (
    <div className="lock-note" role="status">
      <p>{t('draftOffer', { time: formatDate(props.stored.savedAt) })}</p>
      <div className="actions">
        <button type="button" className="primary" onClick={props.onContinue}>
          {t('continueDraft')}
        </button>
        <button type="button" onClick={props.onDiscard}>
          {t('discardDraft')}
        </button>
      </div>
    </div>
  );
}
