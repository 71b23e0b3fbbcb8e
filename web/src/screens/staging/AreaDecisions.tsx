import { useTranslation } from 'react-i18next';
import { trpc } from '../../api';
import { Choice, ErrorMessage } from '../../components/controls';
import { Pager } from '../../components/Pager';
import { useLoaded } from '../../data';
import { formatDate, formatNumber } from '../../i18n';
import { navigate, onLinkClick, withQuery } from '../../routes';
import { TableScroll } from '../projects/TableScroll';
import { areaHref, decisionsHref, entryHref } from './staging-routes';

const PAGE_SIZE = 50;
const KINDS = ['ACCEPTED', 'EDITED', 'REJECTED'] as const;

/**
 * /staging/:id/decisions?decision=&page=: every decision made in an area, newest first (reviewers; the
 * server answers 403 to others): who, when, which entry, what, why, the concept written and the state
 * it started in. Linked from the area's page.
 */
export function AreaDecisions({ id, query }: { id: number; query: URLSearchParams }) {
  const { t } = useTranslation('staging');
  const decision = KINDS.find((kind) => kind === query.get('decision'));
  const page = Math.max(0, Number(query.get('page')) || 0);
  const go = (changes: Record<string, string | number | undefined>) =>
    navigate(withQuery(decisionsHref(id), { decision, page: undefined, ...changes }), { replace: true });
  const area = useLoaded(() => trpc.staging.getArea.query({ id }), `staging area ${id}`);
  const list = useLoaded(
    () => trpc.staging.listDecisions.query({ id, decision, page, size: PAGE_SIZE }),
    `staging decisions ${id} ${decision ?? ''} ${page}`,
  );
  if (area.error)
    return (
      <>
        <h1>{t('history.title')}</h1>
        <p role="alert">{area.error.message}</p>
      </>
    );
  if (!area.data) return <p role="status">{t('common:loading')}</p>;
  const rows = list.data?.content ?? [];
  return (
    <div className="staging-page stack">
      <p>
        <a href={areaHref(id)} onClick={onLinkClick}>
          {t('history.back', { name: area.data.name })}
        </a>
      </p>
      <h1>{t('history.heading', { name: area.data.name })}</h1>
      <div className="staging-filters">
        <Choice
          label={t('history.decision')}
          value={decision ?? ''}
          empty={t('history.anyDecision')}
          options={KINDS.map((kind) => ({ value: kind, label: t(`decisions.kind.${kind}`) }))}
          onChange={(value) => go({ decision: value || undefined })}
        />
      </div>
      <ErrorMessage text={list.error?.message} />
      {list.data && (
        <p role="status" className="result-count">
          {list.data.totalElements === 0
            ? t('history.none')
            : t('history.count', {
                count: list.data.totalElements,
                formatted: formatNumber(list.data.totalElements),
              })}
        </p>
      )}
      {rows.length > 0 && (
        <>
          <TableScroll label={t('history.title')}>
            <table className="results staging-decisions">
              <thead>
                <tr>
                  <th scope="col">{t('history.when')}</th>
                  <th scope="col">{t('history.who')}</th>
                  <th scope="col">{t('history.entry')}</th>
                  <th scope="col">{t('history.decision')}</th>
                  <th scope="col">{t('history.details')}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.id}>
                    <td className="nowrap">{formatDate(row.decided)}</td>
                    <td>{row.decidedBy?.name ?? t('history.unknown')}</td>
                    <td>
                      <a href={entryHref(row.stagedEntryId)} onClick={onLinkClick} className="value">
                        {row.entryLabel || t('history.entryN', { id: row.stagedEntryId })}
                      </a>
                    </td>
                    <td>{t(`decisions.kind.${row.decision}`)}</td>
                    <td>
                      {row.conceptId !== null && (
                        <a href={`/concepts/${row.conceptId}`} onClick={onLinkClick}>
                          {t('entry.conceptN', { id: row.conceptId })}
                        </a>
                      )}
                      {row.workflowState && (
                        <span> {t('decisions.state', { state: row.workflowState })}</span>
                      )}
                      {row.reason && <span className="prewrap"> {row.reason}</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <p className="hint scroll-hint">{t('scrollHint')}</p>
        </>
      )}
      {list.data && (
        <Pager
          page={page}
          data={list.data}
          onPage={(to) => go({ page: to })}
          label={t('history.pages')}
          previous={t('area.previous')}
          next={t('area.next')}
          status={t('area.pageOf', { page: page + 1, pages: list.data.totalPages })}
        />
      )}
    </div>
  );
}
