import { useTranslation } from 'react-i18next';
import { trpc } from '../../../api';
import { Choice, ErrorMessage } from '../../../components/controls';
import { loadDictionaries, useLoaded } from '../../../data';
import { formatDate, formatNumber } from '../../../i18n';
import { navigate, onLinkClick, withQuery } from '../../../routes';
import type { AdminPageProps } from '../admin-page';
import { FeedbackPager } from './FeedbackPager';
import { aboutOf, STATUSES, senderOf, TARGETS } from './feedback-text';

const PAGE_SIZE = 20;
const columns = ['date', 'about', 'sender', 'statusColumn', 'message'] as const;
const SORTS = { newest: 'created,DESC', oldest: 'created,ASC', changed: 'changed,DESC' } as const;
type SortKey = keyof typeof SORTS;

/**
 * /admin/feedback?status=&dictionary=&target=&sort=&page=: the feedback of the dictionaries the caller
 * administers (docs/feedback.md), filtered and ordered on the server, a page at a time; the state lives
 * in the URL.
 */
export default function FeedbackListPage({ query }: AdminPageProps) {
  const { t } = useTranslation('feedback');
  const status = STATUSES.find((s) => s === query.get('status'));
  const target = TARGETS.find((s) => s === query.get('target'));
  const dictionaryId = Number(query.get('dictionary')) || undefined;
  const sort: SortKey = (Object.keys(SORTS) as SortKey[]).find((k) => k === query.get('sort')) ?? 'newest';
  const page = Math.max(0, Number(query.get('page')) || 0);
  const state = { status, target, dictionary: dictionaryId, sort: sort === 'newest' ? undefined : sort };
  const go = (changes: Record<string, string | number | undefined>) =>
    navigate(withQuery('/admin/feedback', { ...state, ...changes }));
  const dictionaries = useLoaded(loadDictionaries, 'dictionaries');
  const list = useLoaded(
    () =>
      trpc.feedback.list.query({
        page,
        size: PAGE_SIZE,
        sort: SORTS[sort],
        status,
        target,
        dictionaryId,
      }),
    `feedback ${status} ${target} ${dictionaryId} ${sort} ${page}`,
  );
  const data = list.data;
  return (
    <>
      <h1>{t('admin.title')}</h1>
      <form aria-label={t('admin.filters')} className="admin-toolbar" onSubmit={(e) => e.preventDefault()}>
        <Choice
          label={t('admin.status')}
          value={status ?? ''}
          empty={t('admin.all')}
          options={STATUSES.map((value) => ({ value, label: t(`admin.statusName.${value}`) }))}
          onChange={(value) => go({ status: value || undefined, page: undefined })}
        />
        <Choice
          label={t('admin.target')}
          value={target ?? ''}
          empty={t('admin.all')}
          options={TARGETS.map((value) => ({ value, label: t(`admin.targetName.${value}`) }))}
          onChange={(value) => go({ target: value || undefined, page: undefined })}
        />
        <Choice
          label={t('admin.dictionary')}
          value={dictionaryId ?? ''}
          empty={t('admin.all')}
          options={(dictionaries.data ?? []).map((d) => ({
            value: String(d.id),
            label: d.name ?? String(d.id),
          }))}
          onChange={(value) => go({ dictionary: value || undefined, page: undefined })}
        />
        <Choice
          label={t('admin.sort')}
          value={sort}
          options={[
            { value: 'newest', label: t('admin.sortNewest') },
            { value: 'oldest', label: t('admin.sortOldest') },
            { value: 'changed', label: t('admin.sortChanged') },
          ]}
          onChange={(value) => go({ sort: value === 'newest' ? undefined : value, page: undefined })}
        />
      </form>
      <ErrorMessage text={list.error?.message} />
      {data && (
        <>
          <p role="status">
            {data.totalElements === 0
              ? t('admin.none')
              : t('admin.count', { count: data.totalElements, formatted: formatNumber(data.totalElements) })}
          </p>
          {data.content.length > 0 && (
            // On a phone each row shows as a card (admin.css, .feedback-table); Chromium keeps the table's
            // roles with display: block, so it stays a table for assistive technology.
            <div className="admin-table-wrap">
              <table className="admin-table feedback-table">
                <caption className="visually-hidden">{t('admin.caption')}</caption>
                <thead>
                  <tr>
                    {columns.map((column) => (
                      <th key={column} scope="col">
                        {t(`admin.${column}`)}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {data.content.map((item) => (
                    <tr key={item.id}>
                      <td data-label={t('admin.date')}>
                        <a href={`/admin/feedback/${item.id}`} onClick={onLinkClick}>
                          {formatDate(item.created)}
                        </a>
                      </td>
                      <td data-label={t('admin.about')}>{aboutOf(t, item)}</td>
                      <td data-label={t('admin.sender')}>{senderOf(t, item)}</td>
                      <td data-label={t('admin.statusColumn')}>{t(`admin.statusName.${item.status}`)}</td>
                      <td className="value feedback-message" data-label={t('admin.message')}>
                        {item.text.length > 120 ? `${item.text.slice(0, 119)}…` : item.text}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <FeedbackPager page={page} data={data} onPage={(to) => go({ page: to })} />
        </>
      )}
    </>
  );
}
