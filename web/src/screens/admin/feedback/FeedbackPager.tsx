import { useTranslation } from 'react-i18next';
import { Pager } from '../../../components/Pager';

/**
 * Previous and next for a page of feedback: the administration list and My feedback page alike.
 * `onPage` gets the zero-based page to go to (undefined for the first).
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
  const status = t('admin.page', { page: page + 1, pages: data.totalPages });
  return (
    <Pager
      page={page}
      data={data}
      onPage={onPage}
      label={status}
      previous={t('admin.previous')}
      next={t('admin.next')}
      status={status}
    />
  );
}
