import { useTranslation } from 'react-i18next';
import { trpc } from '../../api';
import { useCaller } from '../../caller';
import { Check, Choice, dictionaryOptions, ErrorMessage } from '../../components/controls';
import { loadDictionaries, useLoaded } from '../../data';
import { formatDate, formatNumber } from '../../i18n';
import { navigate, onLinkClick, withQuery } from '../../routes';
import { loadPeople, PROJECT_SORTS, PROJECT_STATUSES, type ProjectStatus, userName } from './project-data';
import { projectHref } from './project-routes';
import { TableScroll } from './TableScroll';

const PAGE_SIZE = 20;

/**
 * The projects the caller may see, filtered by status, dictionary, coordinator and overdue, sorted and
 * paged by the server (`projects.list`). Every choice lives in the URL: `status`, `d`, `coordinator`
 * (a user id or `me`), `overdue`, `sort` (`dueAt,ASC`…) and `page`.
 */
export function ProjectList({ query }: { query: URLSearchParams }) {
  const { t } = useTranslation('project');
  const caller = useCaller();
  const dictionaries = useLoaded(loadDictionaries, 'dictionaries');
  const people = useLoaded(loadPeople, 'people');
  const status = query.get('status') ?? '';
  const dictionaryId = Number(query.get('d')) || undefined;
  const coordinator = query.get('coordinator') ?? '';
  const overdue = query.get('overdue') === '1';
  const sort = query.get('sort') ?? 'name,ASC';
  const page = Math.max(0, Number(query.get('page')) || 0);
  const state = { status, d: dictionaryId, coordinator, overdue, sort, page };
  const go = (changes: Partial<typeof state>) =>
    navigate(withQuery('/projects', { ...state, page: 0, ...changes }), { replace: true });

  const list = useLoaded(
    () =>
      trpc.projects.list.query({
        status: (status || undefined) as ProjectStatus | undefined,
        'dictionary-id': dictionaryId,
        'coordinator-id': coordinator || undefined,
        overdue: overdue || undefined,
        sort,
        page,
        size: PAGE_SIZE,
        format: 'FULL',
        'include-deleted': false,
      }),
    `projects ${JSON.stringify(state)}`,
  );
  const names = new Map((dictionaries.data ?? []).map((d) => [d.id, d.name ?? String(d.id)]));
  const mayCreate = caller !== undefined && (dictionaries.data ?? []).some((d) => caller.administers(d));
  const sortOptions = PROJECT_SORTS.flatMap((key) =>
    (['ASC', 'DESC'] as const).map((direction) => ({
      value: `${key},${direction}`,
      label: t(`sort.${key}_${direction}`),
    })),
  );
  const coordinatorOptions = [
    { value: 'me', label: t('list.me') },
    ...(people.data?.users ?? []).map((u) => ({
      value: String(u.id),
      label: u.fullName || u.username || String(u.id),
    })),
  ];
  const data = list.data;

  return (
    <div className="projects-page">
      <h1>{t('list.title')}</h1>
      {mayCreate && (
        <p>
          <a className="button-link" href="/projects/new" onClick={onLinkClick}>
            {t('list.new')}
          </a>
        </p>
      )}
      <div className="project-filters">
        <Choice
          label={t('list.status')}
          value={status}
          empty={t('list.anyStatus')}
          options={PROJECT_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
          onChange={(value) => go({ status: value })}
        />
        <Choice
          label={t('list.dictionary')}
          value={dictionaryId ?? ''}
          empty={t('list.anyDictionary')}
          options={dictionaryOptions(dictionaries.data ?? [])}
          onChange={(value) => go({ d: Number(value) || undefined })}
        />
        <Choice
          label={t('list.coordinator')}
          value={coordinator}
          empty={t('list.anyone')}
          options={coordinatorOptions}
          onChange={(value) => go({ coordinator: value })}
        />
        <Choice
          label={t('list.sort')}
          value={sort}
          options={sortOptions}
          onChange={(value) => go({ sort: value })}
        />
        <Check
          label={t('list.overdueOnly')}
          checked={overdue}
          onChange={(checked) => go({ overdue: checked })}
        />
      </div>
      <ErrorMessage text={list.error?.message} />
      {!data && !list.error && <p role="status">{t('common:loading')}</p>}
      {data && (
        <>
          <p role="status" className="result-count">
            {data.totalElements === 0
              ? t('list.none')
              : t('list.count', { count: data.totalElements, formatted: formatNumber(data.totalElements) })}
          </p>
          {data.content.length > 0 && (
            <TableScroll label={t('list.title')}>
              <table className="results projects">
                <thead>
                  <tr>
                    <th scope="col">{t('list.name')}</th>
                    <th scope="col">{t('list.status')}</th>
                    <th scope="col">{t('list.due')}</th>
                    <th scope="col">{t('list.dictionaries')}</th>
                    <th scope="col">{t('list.entries')}</th>
                    <th scope="col">{t('list.coordinators')}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.content.map((project) => (
                    <tr key={project.id}>
                      <td>
                        <a href={projectHref(project.id)} onClick={onLinkClick}>
                          {project.name}
                        </a>
                      </td>
                      <td>
                        <span className={`badge status-${(project.status ?? '').toLowerCase()}`}>
                          {t(`status.${project.status ?? 'DRAFT'}`)}
                        </span>
                      </td>
                      <td>
                        {project.dueAt ? formatDate(project.dueAt, { dateStyle: 'medium' }) : ''}
                        {project.overdue && <span className="badge overdue">{t('overdue')}</span>}
                      </td>
                      <td>{(project.dictionaryIds ?? []).map((id) => names.get(id) ?? id).join(', ')}</td>
                      <td>{formatNumber(project.entryCount ?? 0)}</td>
                      <td>
                        {(project.coordinatorIds ?? [])
                          .map((id) => userName(people.data, id) ?? t('userN', { id }))
                          .join(', ')}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )}
          {data.totalPages > 1 && (
            <nav className="actions pager" aria-label={t('list.pages')}>
              <button type="button" disabled={data.first} onClick={() => go({ page: page - 1 })}>
                {t('list.previous')}
              </button>
              <span>{t('list.pageOf', { page: page + 1, pages: data.totalPages })}</span>
              <button type="button" disabled={data.last} onClick={() => go({ page: page + 1 })}>
                {t('list.next')}
              </button>
            </nav>
          )}
        </>
      )}
    </div>
  );
}
