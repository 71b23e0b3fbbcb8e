import { useTranslation } from 'react-i18next';

/** Asks before a history restore: it rewrites the concept (the current version stays in the history). */
export function useRestoreQuestion(): (revision: number | undefined) => boolean {
  const { t } = useTranslation('work');
  return (revision) => window.confirm(t('restoreQuestion', { revision }));
}
