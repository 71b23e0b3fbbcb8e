import { useTranslation } from 'react-i18next';

/**
 * Previous and next for a page of feedback: the administration list and My feedback page alike.
 * Nothing while everything fits on one page. `onPage` gets the zero-based page to go to (undefined
 * for the first, so that the URL stays short).
 */
export function FeedbackPager({
  page,
  data,
  onPage,
}: {
  page: number;
  data: { totalPages: number; first: boolean; last: boolean };
  onPage: (page: number | undefined) => void;
}) {
  const { t } = useTranslation('feedback');
  if (data.totalPages <= 1) return null;
  const label = t('admin.page', { page: page + 1, pages: data.totalPages });
  return (
    <nav className="actions" aria-label={label}>
      <button type="button" disabled={data.first} onClick={() => onPage(page - 1 || undefined)}>
        {t('admin.previous')}
      </button>
      <span>{label}</span>
      <button type="button" disabled={data.last} onClick={() => onPage(page + 1)}>
        {t('admin.next')}
      </button>
    </nav>
  );
}
