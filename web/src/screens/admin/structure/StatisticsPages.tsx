import { useTranslation } from 'react-i18next';
import './structure.css';
import { trpc } from '../../../api';
import { ErrorMessage } from '../../../components/controls';
import { useLoaded } from '../../../data';
import { formatDate, formatNumber } from '../../../i18n';
import { navigate, onLinkClick, withQuery } from '../../../routes';
import type { AdminPageProps } from '../admin-page';
import { ScrollRegion } from './kit';

function StatisticsLinks({ current }: { current: string }) {
  const { t } = useTranslation('structure');
  const pages = [
    ['/admin/statistics', 'statistics.summary'],
    ['/admin/statistics/online-users', 'statistics.online'],
    ['/admin/statistics/month', 'statistics.month'],
  ] as const;
  return (
    <nav aria-label={t('statistics.pages')} className="structure-tabs">
      <ul>
        {pages.map(([href, label]) => (
          <li key={href}>
            <a href={href} onClick={onLinkClick} aria-current={href === current ? 'page' : undefined}>
              {t(label)}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Label and value pairs as a description list. */
function Figures({ rows }: { rows: [string, string][] }) {
  return (
    <dl className="figures">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

const n = (value: number) => formatNumber(value);

/** /admin/statistics: totals since installation. */
export function SummaryPage() {
  const { t } = useTranslation('structure');
  const loaded = useLoaded(() => trpc.statistics.summary.query({ 'all-clients': false }), 'summary');
  const s = loaded.data;
  return (
    <section className="structure-page" aria-labelledby="statistics-title">
      <h1 id="statistics-title">{t('statistics.summary')}</h1>
      <StatisticsLinks current="/admin/statistics" />
      <ErrorMessage text={loaded.error?.message} />
      {s && (
        <Figures
          rows={[
            [t('statistics.visits'), n(s.visits)],
            [t('statistics.users'), n(s.users)],
            [t('statistics.apiUsers'), n(s.apiUsers)],
            [t('statistics.apiRequests'), n(s.apiRequests)],
            [t('statistics.totalTime'), s.totalTime],
            [
              t('statistics.installDate'),
              s.installDate ? formatDate(s.installDate, { dateStyle: 'long' }) : '–',
            ],
          ]}
        />
      )}
    </section>
  );
}

/** /admin/statistics/online-users: sessions online now. */
export function OnlineUsersPage() {
  const { t } = useTranslation('structure');
  const loaded = useLoaded(() => trpc.statistics.onlineUsers.query({ 'all-clients': false }), 'online');
  return (
    <section className="structure-page" aria-labelledby="statistics-title">
      <h1 id="statistics-title">{t('statistics.online')}</h1>
      <StatisticsLinks current="/admin/statistics/online-users" />
      <ErrorMessage text={loaded.error?.message} />
      <button type="button" onClick={loaded.reload}>
        {t('statistics.refresh')}
      </button>
      {loaded.data && (
        <ScrollRegion
          label={t('statistics.onlineCount', { count: loaded.data.length, formatted: n(loaded.data.length) })}
        >
          <table className="results">
            <caption>
              {t('statistics.onlineCount', { count: loaded.data.length, formatted: n(loaded.data.length) })}
            </caption>
            <thead>
              <tr>
                <th scope="col">{t('statistics.user')}</th>
                <th scope="col">{t('statistics.client')}</th>
                <th scope="col">{t('statistics.since')}</th>
                <th scope="col">{t('statistics.lastUse')}</th>
                <th scope="col">{t('statistics.api')}</th>
              </tr>
            </thead>
            <tbody>
              {loaded.data.map((user) => (
                <tr key={`${user.userId}-${user.partId}`}>
                  <td>{user.userLogin}</td>
                  <td>{user.clientLogin}</td>
                  <td>{formatDate(user.loginTime)}</td>
                  <td>{formatDate(user.lastUsageTime)}</td>
                  <td>{user.apiLogin ? n(user.apiRequests) : '–'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </section>
  );
}

/** /admin/statistics/month?year=&month=: one month's totals, averages and logins (UTC). */
export function MonthPage({ query }: AdminPageProps) {
  const { t } = useTranslation('structure');
  const now = new Date();
  const year = Number(query.get('year')) || now.getUTCFullYear();
  const month = Number(query.get('month')) || now.getUTCMonth() + 1;
  const loaded = useLoaded(
    () => trpc.statistics.month.query({ year, month, 'all-clients': false }),
    `${year}-${month}`,
  );
  const m = loaded.data;
  const go = (y: number, mo: number) =>
    navigate(withQuery('/admin/statistics/month', { year: y, month: mo }));
  const monthName = formatDate(Date.UTC(year, month - 1, 15), {
    year: 'numeric',
    month: 'long',
    timeZone: 'UTC',
  });
  return (
    <section className="structure-page" aria-labelledby="statistics-title">
      <h1 id="statistics-title">{t('statistics.monthOf', { month: monthName })}</h1>
      <StatisticsLinks current="/admin/statistics/month" />
      <div className="actions">
        <button type="button" onClick={() => (month === 1 ? go(year - 1, 12) : go(year, month - 1))}>
          {t('statistics.previous')}
        </button>
        <button type="button" onClick={() => (month === 12 ? go(year + 1, 1) : go(year, month + 1))}>
          {t('statistics.next')}
        </button>
      </div>
      <ErrorMessage text={loaded.error?.message} />
      {m && (
        <>
          <Figures
            rows={[
              [t('statistics.visits'), n(m.visits)],
              [t('statistics.users'), n(m.users)],
              [t('statistics.apiVisits'), n(m.apiVisits)],
              [t('statistics.apiRequests'), n(m.apiRequests)],
              [t('statistics.totalTime'), m.totalTime],
              [t('statistics.averageVisits'), m.averageVisits],
              [t('statistics.averageTime'), m.averageTime],
            ]}
          />
          <ScrollRegion
            label={t('statistics.logins', {
              count: m.onlineUsers.length,
              formatted: n(m.onlineUsers.length),
            })}
          >
            <table className="results">
              <caption>
                {t('statistics.logins', { count: m.onlineUsers.length, formatted: n(m.onlineUsers.length) })}
              </caption>
              <thead>
                <tr>
                  <th scope="col">{t('statistics.user')}</th>
                  <th scope="col">{t('statistics.client')}</th>
                  <th scope="col">{t('statistics.since')}</th>
                  <th scope="col">{t('statistics.until')}</th>
                </tr>
              </thead>
              <tbody>
                {m.onlineUsers.map((login) => (
                  <tr key={`${login.userId}-${login.loginTime}`}>
                    <td>{login.userLogin}</td>
                    <td>{login.clientLogin}</td>
                    <td>{formatDate(login.loginTime)}</td>
                    <td>{login.logoutTime ? formatDate(login.logoutTime) : '–'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        </>
      )}
    </section>
  );
}
