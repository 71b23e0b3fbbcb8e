import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemOf, trpc } from '../../api';
import { ErrorMessage } from '../../components/controls';
import { loadDictionaries, useLoaded } from '../../data';
import { formatDate, formatNumber } from '../../i18n';
import { useLiveRefresh } from '../../live/live-events';
import { navigate, onLinkClick } from '../../routes';
import { AddEntries } from './AddEntries';
import { AssignmentForm } from './AssignmentForm';
import { AssignmentTable } from './AssignmentTable';
import { ExportEntries } from './ExportEntries';
import { ProjectForm } from './ProjectForm';
import { ProjectStatistics } from './ProjectStatistics';
import {
  ASSIGNMENT_TYPES,
  type Assignment,
  groupName,
  loadPeople,
  PROJECT_STATUSES,
  type Project,
  type ProjectStatus,
  percent,
  STATUS_MOVES,
  userName,
} from './project-data';
import { useTransitionNames } from './state-names';
import { TableScroll } from './TableScroll';

/** The state a status badge shows, its class from the status (projects.css colours them). */
export function StatusBadge({ status }: { status: string | undefined }) {
  const { t } = useTranslation('project');
  const known = PROJECT_STATUSES.find((s) => s === status) ?? 'DRAFT';
  return <span className={`badge status-${known.toLowerCase()}`}>{t(`status.${known}`)}</span>;
}

/**
 * A project: its details, the status moves its managers may make, progress per language, its
 * assignments with their progress (overdue marked), new assignments, and statistics with the burn-down.
 */
export function ProjectPage({ id }: { id: number }) {
  const { t } = useTranslation('project');
  const project = useLoaded(
    () => trpc.projects.get.query({ id, format: 'FULL' }) as Promise<Project>,
    `project ${id}`,
  );
  const progress = useLoaded(() => trpc.projects.progress.query({ id }), `progress ${id}`);
  const dictionaries = useLoaded(loadDictionaries, 'dictionaries');
  const people = useLoaded(loadPeople, 'people');
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [round, setRound] = useState(0);
  const [editing, setEditing] = useState(false);
  const [changing, setChanging] = useState<Assignment | null>(null);
  const [changed, setChanged] = useState<string | null>(null);
  const transitionNames = useTransitionNames(project.data?.dictionaryIds ?? []).names;
  // Someone else's changes of this project, its assignments and candidates, and moves of entries in its
  // dictionaries (its progress): the page refreshes by itself.
  useLiveRefresh(
    (event) =>
      event.data.projectId === id ||
      (event.type === 'workflow.transitioned' &&
        event.dictionaryId !== null &&
        (project.data?.dictionaryIds ?? []).includes(event.dictionaryId)),
    () => {
      project.reload();
      progress.reload();
      setRound((value) => value + 1);
    },
  );

  if (project.error) return <p role="alert">{project.error.message}</p>;
  if (!project.data) return <p role="status">{t('common:loading')}</p>;
  const data = project.data;
  const status = (data.status ?? 'DRAFT') as ProjectStatus;
  const manageable = data.manageable === true;
  const mine = (dictionaries.data ?? []).filter((d) => data.dictionaryIds?.includes(d.id));
  const languageNames = new Map(
    mine.flatMap((d) => (d.languages ?? []).map((l) => [l.code, l.name] as const)),
  );
  const languages = data.languages?.length ? data.languages : [...languageNames.keys()];
  const reload = () => {
    project.reload();
    progress.reload();
    setRound((value) => value + 1);
  };

  async function move(to: ProjectStatus) {
    setError(null);
    setNotice(null);
    try {
      await trpc.projects.setStatus.mutate({ id, status: to, version: data.version });
      setNotice(t('page.moved', { status: t(`status.${to}`) }));
      reload();
    } catch (caught) {
      setError(problemOf(caught).message);
    }
  }

  async function remove() {
    if (!window.confirm(t('page.deleteQuestion', { name: data.name }))) return;
    setError(null);
    try {
      await trpc.projects.delete.mutate({ id });
      navigate('/projects');
    } catch (caught) {
      setError(problemOf(caught).message);
    }
  }

  const open = status === 'DRAFT' || status === 'ONGOING';
  return (
    <article className="project-page" aria-labelledby="project-title">
      <h1 id="project-title">
        {data.name} <StatusBadge status={status} />
        {data.overdue && <span className="badge overdue">{t('overdue')}</span>}
      </h1>
      <p>
        <a href="/projects" onClick={onLinkClick}>
          {t('page.allProjects')}
        </a>
      </p>
      {editing && (
        <section className="card">
          <ProjectForm
            project={data}
            onSaved={() => {
              setEditing(false);
              reload();
            }}
          />
        </section>
      )}
      <section className="card" aria-labelledby="project-details" hidden={editing}>
        <h2 id="project-details">{t('page.details')}</h2>
        <dl className="fields">
          {data.description && (
            <>
              <dt>{t('form.description')}</dt>
              <dd className="prewrap">{data.description}</dd>
            </>
          )}
          <dt>{t('form.dictionaries')}</dt>
          <dd>{mine.map((d) => d.name).join(', ') || (data.dictionaryIds ?? []).join(', ')}</dd>
          <dt>{t('page.languages')}</dt>
          <dd>{languages.map((code) => languageNames.get(code) ?? code).join(', ')}</dd>
          <dt>{t('form.coordinators')}</dt>
          <dd>
            {(data.coordinatorIds ?? [])
              .map((u) => userName(people.data, u) ?? t('userN', { id: u }))
              .join(', ') || t('page.none')}
          </dd>
          <dt>{t('form.due')}</dt>
          <dd>{data.dueAt ? formatDate(data.dueAt, { dateStyle: 'long' }) : t('page.noDue')}</dd>
          {data.instructions && (
            <>
              <dt>{t('form.instructions')}</dt>
              <dd className="prewrap">{data.instructions}</dd>
            </>
          )}
          <dt>{t('page.transitions')}</dt>
          <dd>
            {ASSIGNMENT_TYPES.flatMap((type) => {
              const key = data.transitions?.[type];
              return key
                ? [t('page.fires', { type: t(`type.${type}`), transition: transitionNames.get(key) ?? key })]
                : [];
            }).join('; ') || t('page.none')}
          </dd>
        </dl>
        {manageable && (
          <div className="actions">
            <button type="button" onClick={() => setEditing(true)}>
              {t('page.edit')}
            </button>
            {STATUS_MOVES[status].map((to) => (
              <button key={to} type="button" onClick={() => void move(to)}>
                {t(`move.${to}`)}
              </button>
            ))}
            <button type="button" className="danger" onClick={() => void remove()}>
              {t('page.delete')}
            </button>
          </div>
        )}
        <ErrorMessage text={error} />
        {notice && <p role="status">{notice}</p>}
      </section>

      <section className="card" aria-labelledby="project-work">
        <h2 id="project-work">{t('page.work')}</h2>
        <p>
          {t('page.entries', { count: data.entryCount ?? 0, formatted: formatNumber(data.entryCount ?? 0) })}{' '}
          <a href={`/projects/${id}/candidates`} onClick={onLinkClick}>
            {t('page.candidates', {
              count: data.openCandidateCount ?? 0,
              formatted: formatNumber(data.openCandidateCount ?? 0),
            })}
          </a>
        </p>
        {manageable && open && <AddEntries projectId={id} onAdded={reload} />}
        {(data.entryCount ?? 0) > 0 && <ExportEntries projectId={id} dictionaries={mine} />}
      </section>

      <section className="card" aria-labelledby="project-progress">
        <h2 id="project-progress">{t('page.progress')}</h2>
        <ErrorMessage text={progress.error?.message} />
        {progress.data && (
          <TableScroll label={t('page.progress')}>
            <table className="results">
              <caption className="visually-hidden">{t('page.byLanguage')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('page.language')}</th>
                  <th scope="col">{t('page.total')}</th>
                  <th scope="col">{t('page.withTerms')}</th>
                  <th scope="col">{t('page.approved')}</th>
                  <th scope="col">{t('page.done')}</th>
                </tr>
              </thead>
              <tbody>
                {progress.data.languages.map((row) => (
                  <tr key={row.languageCode}>
                    <th scope="row">{languageNames.get(row.languageCode) ?? row.languageCode}</th>
                    <td>{formatNumber(row.total)}</td>
                    <td>{formatNumber(row.withTerms)}</td>
                    <td>{formatNumber(row.approved)}</td>
                    <td>
                      <Bar value={percent(row.approved, row.total)} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>

      <section className="card" aria-labelledby="project-assignments">
        <h2 id="project-assignments">{t('page.assignments')}</h2>
        {progress.data && (
          <AssignmentTable
            assignments={progress.data.assignments}
            people={people.data}
            languageNames={languageNames}
            {...(manageable
              ? {
                  onEdit: (a: Assignment) => {
                    setChanged(null);
                    setChanging(a);
                  },
                }
              : {})}
          />
        )}
        {changed && <p role="status">{changed}</p>}
        {manageable && changing && (
          <AssignmentForm
            key={changing.id}
            projectId={id}
            languages={[]}
            people={people.data}
            assignment={changing}
            onCancel={() => setChanging(null)}
            onSaved={() => {
              setChanging(null);
              setChanged(t('assignment.saved'));
              reload();
            }}
          />
        )}
        {manageable && open && !changing && (
          <AssignmentForm
            projectId={id}
            languages={languages.map((code) => ({ code, name: languageNames.get(code) ?? code }))}
            people={people.data}
            onSaved={reload}
          />
        )}
      </section>

      <ProjectStatistics
        key={round}
        projectId={id}
        languageNames={languageNames}
        assigneeName={(row) =>
          row.userId !== null
            ? (userName(people.data, row.userId) ?? t('userN', { id: row.userId }))
            : (groupName(people.data, row.groupId) ?? t('groupN', { id: row.groupId }))
        }
      />
    </article>
  );
}

/** A percentage as text with a bar beside it (the bar is decoration: the number says it). */
export function Bar({ value }: { value: number }) {
  return (
    <span className="bar-cell">
      <span className="bar" aria-hidden="true">
        <span style={{ width: `${value}%` }} />
      </span>
      {formatNumber(value / 100, { style: 'percent' })}
    </span>
  );
}
