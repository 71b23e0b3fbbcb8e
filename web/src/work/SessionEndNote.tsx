import { useTranslation } from 'react-i18next';

/**
 * Above the sign-in form when the session ran out (not when the user signed out): says why, and that
 * signing in leads back, with unsaved edits kept in this browser (work/draft-store.ts). The `work`
 * catalogue loads only then, so the ordinary sign-in page fetches nothing more.
 */
export function SessionEndNote({ why }: { why: string | null }) {
  return why === 'expired' ? <ExpiredNote /> : null;
}

function ExpiredNote() {
  const { t } = useTranslation('work');
  return (
    <p role="alert" className="notice">
      {t('sessionExpired')}
    </p>
  );
}
