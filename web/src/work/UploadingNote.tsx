import { useTranslation } from 'react-i18next';

/** Shown from the click until the server answers (a large file takes a while before the job starts). */
export function UploadingNote() {
  const { t } = useTranslation('work');
  return (
    <p role="status" className="hint">
      {t('uploading')}
    </p>
  );
}
