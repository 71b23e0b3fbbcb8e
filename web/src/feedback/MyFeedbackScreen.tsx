import { useTranslation } from 'react-i18next';
import { trpc } from '../api';
import { Choice, ErrorMessage } from '../components/controls';
import { useLoaded } from '../data';
import { formatDate, formatNumber } from '../i18n';
import { navigate, onLinkClick, withQuery } from '../routes';
import { FeedbackPager } from '../screens/admin/feedback/FeedbackPager';
import { aboutOf, STATUSES } from '../screens/admin/feedback/feedback-text';

const PAGE_SIZE = 20;

/**
 * /feedback?status=&page=: the feedback the signed-in user sent (feedback.list with `mine`,
 * docs/feedback.md), newest first, each with its status and the administrators' answers. Guests share
 * one account, so they have no such list; the menu does not offer it to them.
 */
export default function MyFeedbackScreen({ query }: { query: URLSearchParams }) {
  const { t } = useTranslation('feedback');
  const status = STATUSES.find((s) => s === query.get('status'));
  const page = Math.max(0, Number(query.get('page')) || 0);
  const go = (changes: { status?: string; page?: number }) =>
    navigate(withQuery('/feedback', { status, page: undefined, ...changes }));
  const list = useLoaded(
    () => trpc.feedback.list.query({ mine: true, status, page, size: PAGE_SIZE, sort: 'created,DESC' }),
    `my feedback ${status} ${page}`,
  );
  const data = list.data;
  return (
    <div className="my-feedback">
      <h1>{t('mine.title')}</h1>
      <p className="hint">{t('mine.intro')}</p>
      <Choice
        label={t('admin.status')}
        value={status ?? ''}
        empty={t('admin.all')}
        options={STATUSES.map((value) => ({ value, label: t(`admin.statusName.${value}`) }))}
        onChange={(value) => go({ status: value || undefined })}
      />
      <ErrorMessage text={list.error?.message} />
      {!data && !list.error && <p role="status">{t('common:loading')}</p>}
      {data && (
        <>
          <p role="status" className="result-count">
            {data.totalElements === 0
              ? t('mine.none')
              : t('admin.count', { count: data.totalElements, formatted: formatNumber(data.totalElements) })}
          </p>
          <ol className="feedback-cards">
            {data.content.map((item) => (
              <li key={item.id}>
                <article aria-labelledby={`my-feedback-${item.id}`}>
                  <h2 id={`my-feedback-${item.id}`}>{aboutOf(t, item)}</h2>
                  <p className="hint">
                    {t('mine.sentOn', { date: formatDate(item.created), dictionary: item.dictionaryName })}
                    {' · '}
                    <span className={`feedback-status feedback-status-${item.status.toLowerCase()}`}>
                      {t(`admin.statusName.${item.status}`)}
                    </span>
                  </p>
                  <p className="value feedback-text">{item.text}</p>
                  {item.attachment && (
                    <p className="hint">{t('mine.attachment', { name: item.attachment.fileName })}</p>
                  )}
                  {item.answersWithheld ? (
                    <p className="hint">{t('mine.withheld')}</p>
                  ) : item.answers.length === 0 ? (
                    <p className="hint">{t('admin.noAnswers')}</p>
                  ) : (
                    <section aria-label={t('mine.answersOf', { about: aboutOf(t, item) })}>
                      <h3>{t('admin.answers')}</h3>
                      <ul className="comments">
                        {item.answers.map((answer) => (
                          <li key={answer.id} className="term">
                            <div className="value feedback-text">{answer.text}</div>
                            <div className="hint">
                              {t('admin.answeredBy', {
                                author: answer.authorName ?? '',
                                date: formatDate(answer.date),
                              })}
                            </div>
                          </li>
                        ))}
                      </ul>
                    </section>
                  )}
                  {item.conceptId !== null && (
                    <p>
                      <a href={`/concepts/${item.conceptId}`} onClick={onLinkClick}>
                        {t('mine.openConcept', { about: aboutOf(t, item) })}
                      </a>
                    </p>
                  )}
                </article>
              </li>
            ))}
          </ol>
          <FeedbackPager page={page} data={data} onPage={(to) => go({ page: to })} />
        </>
      )}
    </div>
  );
}
