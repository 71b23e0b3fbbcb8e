import { useTranslation } from 'react-i18next';
import { trpc } from '../../api';
import { ErrorMessage } from '../../components/controls';
import { StateBadge } from '../../components/WorkflowPanel';
import { useLoaded } from '../../data';
import { formatDate, formatNumber } from '../../i18n';
import { Bar } from './ProjectPage';
import { percent, type Statistics } from './project-data';
import { useStateNames } from './state-names';
import { TableScroll } from './TableScroll';

type AssigneeRow = Statistics['byAssignee'][number];

/**
 * A project's statistics (`projects.statistics`): entries by language and workflow state, done per
 * assignee, and the burn-down, each a table (what screen readers read) and the burn-down also drawn as
 * a line for the eye.
 */
export function ProjectStatistics(props: {
  projectId: number;
  languageNames: Map<string, string>;
  assigneeName: (row: AssigneeRow) => string;
}) {
  const { t } = useTranslation('project');
  const stats = useLoaded(
    () => trpc.projects.statistics.query({ id: props.projectId }),
    `stats ${props.projectId}`,
  );
  const stateName = useStateNames();
  const data = stats.data;
  return (
    <section className="card" aria-labelledby="project-statistics">
      <h2 id="project-statistics">{t('stats.title')}</h2>
      <ErrorMessage text={stats.error?.message} />
      {!data && !stats.error && <p role="status">{t('common:loading')}</p>}
      {data && (
        <div className="stats-grid">
          <TableScroll label={t('stats.byState')}>
            <table className="results">
              <caption>{t('stats.byState')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('page.language')}</th>
                  <th scope="col">{t('stats.state')}</th>
                  <th scope="col">{t('stats.count')}</th>
                </tr>
              </thead>
              <tbody>
                {data.byState.map((row) => (
                  <tr key={`${row.languageCode} ${row.state}`}>
                    <td>
                      {row.languageCode
                        ? (props.languageNames.get(row.languageCode) ?? row.languageCode)
                        : t('stats.concept')}
                    </td>
                    <td>
                      {row.state ? (
                        <StateBadge name={stateName(null, row.state)} category={row.category ?? 'DRAFT'} />
                      ) : (
                        t('stats.noWorkflow')
                      )}
                    </td>
                    <td>{formatNumber(row.count)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <TableScroll label={t('stats.byAssignee')}>
            <table className="results">
              <caption>{t('stats.byAssignee')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('assignment.assignee')}</th>
                  <th scope="col">{t('stats.assignments')}</th>
                  <th scope="col">{t('assignment.progress')}</th>
                </tr>
              </thead>
              <tbody>
                {data.byAssignee.map((row) => (
                  <tr key={`${row.userId} ${row.groupId}`}>
                    <td>{props.assigneeName(row)}</td>
                    <td>{formatNumber(row.assignments)}</td>
                    <td>
                      <span className="nowrap">
                        {t('assignment.doneOf', {
                          done: formatNumber(row.done),
                          total: formatNumber(row.total),
                        })}
                      </span>{' '}
                      <Bar value={percent(row.done, row.total)} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <Burndown points={data.burndown} />
        </div>
      )}
    </section>
  );
}

function Burndown({ points }: { points: Statistics['burndown'] }) {
  const { t } = useTranslation('project');
  const most = Math.max(1, ...points.map((p) => p.total));
  const step = points.length > 1 ? 300 / (points.length - 1) : 0;
  const line = (key: 'total' | 'remaining') =>
    points.map((p, i) => `${(i * step).toFixed(1)},${(100 - (100 * p[key]) / most).toFixed(1)}`).join(' ');
  const day = (text: string) => formatDate(Date.parse(`${text}T12:00:00Z`), { dateStyle: 'medium' });
  return (
    <div className="burndown">
      {points.length > 1 && (
        <svg viewBox="-4 -4 308 108" className="burndown-chart" aria-hidden="true" focusable="false">
          <polyline points={line('total')} className="total" />
          <polyline points={line('remaining')} className="remaining" />
        </svg>
      )}
      <TableScroll label={t('stats.burndown')}>
        <table className="results">
          <caption>{t('stats.burndown')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('stats.day')}</th>
              <th scope="col">{t('page.total')}</th>
              <th scope="col">{t('stats.remaining')}</th>
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.day}>
                <th scope="row">{day(p.day)}</th>
                <td>{formatNumber(p.total)}</td>
                <td>{formatNumber(p.remaining)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </div>
  );
}
