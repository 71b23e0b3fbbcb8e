import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemOf, trpc } from '../../api';
import { ErrorMessage } from '../../components/controls';
import { StateBadge } from '../../components/WorkflowPanel';
import { loadDictionaries, useLoaded } from '../../data';
import { formatDate, formatNumber } from '../../i18n';
import { navigate, onLinkClick } from '../../routes';
import { useAssigneeLabel } from './AssignmentTable';
import { conceptLabels } from './concept-labels';
import { Bar } from './ProjectPage';
import { type Assignment, loadPeople, type Project, percent } from './project-data';
import { entryHref, projectHref } from './project-routes';
import { useStateNames } from './state-names';
import { TableScroll } from './TableScroll';

type Counts = { moved?: number; waiting?: number; skippedCount?: number };
/** What completing fired, per dictionary: the bulk transition's counts (or its job's `result`). */
interface Result {
  transition?: string | null;
  dictionaries?: (Counts & { result?: Counts })[];
}

/**
 * An assignment: what it asks, its progress, its entries (what is left first) each opening in the
 * concept editor with a "next entry" bar, and completing it, which fires the project's transition for
 * its type on its entries through the workflow's rules (docs/projects.md, "Completing"). Completing is
 * offered to its assignees and the project's managers; cancelling and re-opening to managers.
 */
export function AssignmentPage({ id }: { id: number }) {
  const { t } = useTranslation('project');
  const assignment = useLoaded(
    () => trpc.projects.assignment.query({ assignmentId: id }),
    `assignment ${id}`,
  );
  const projectId = assignment.data?.projectId;
  const context = useLoaded(
    async () =>
      projectId === undefined
        ? null
        : Promise.all([
            trpc.projects.get.query({ id: projectId, format: 'FULL' }) as Promise<Project>,
            trpc.projects.myAssignments.query({ assignee: 'me', 'project-id': projectId }).catch(() => []),
          ]),
    `assignment context ${projectId}`,
  );
  const entries = useLoaded(
    () => trpc.projects.assignmentEntries.query({ assignmentId: id, size: 1000, page: 0 }),
    `assignment entries ${id}`,
  );
  const labels = useLoaded(
    () => conceptLabels((entries.data ?? []).map((e) => e.conceptId)),
    `labels ${(entries.data ?? []).map((e) => e.conceptId).join(',')}`,
  );
  const dictionaries = useLoaded(loadDictionaries, 'dictionaries');
  const people = useLoaded(loadPeople, 'people');
  const assignee = useAssigneeLabel(people.data);
  const stateName = useStateNames();
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  if (assignment.error) return <p role="alert">{assignment.error.message}</p>;
  if (!assignment.data) return <p role="status">{t('common:loading')}</p>;
  const a = assignment.data;
  const [project, mine] = context.data ?? [undefined, []];
  const manager = project?.manageable === true;
  const assigned = mine.some((m) => m.id === a.id);
  const languageNames = new Map(
    (dictionaries.data ?? []).flatMap((d) => (d.languages ?? []).map((l) => [l.code, l.name] as const)),
  );
  const left = (entries.data ?? []).filter((e) => !e.done);
  const next = left[0];
  const label = (conceptId: number) =>
    labels.data?.get(conceptId) ?? t('candidates.conceptN', { id: conceptId });

  async function run(change: () => Promise<Assignment>, done: (result: Assignment) => string) {
    setError(null);
    setNotice(null);
    try {
      const result = await change();
      setNotice(done(result));
      assignment.reload();
      entries.reload();
    } catch (caught) {
      setError(problemOf(caught).message);
    }
  }

  const complete = () =>
    run(
      () =>
        trpc.projects.completeAssignment.mutate({
          assignmentId: id,
          version: a.version,
          comment: comment.trim() || undefined,
        }),
      (result) => {
        if (result.jobTaskId) return t('work.completing', { id: result.jobTaskId });
        const fired = (result.result ?? {}) as Result;
        const sum = (key: 'moved' | 'waiting' | 'skippedCount') =>
          (fired.dictionaries ?? []).reduce((total, d) => total + (d[key] ?? d.result?.[key] ?? 0), 0);
        return fired.transition
          ? t('work.completedFired', {
              transition: fired.transition,
              moved: formatNumber(sum('moved')),
              waiting: formatNumber(sum('waiting')),
              skipped: formatNumber(sum('skippedCount')),
            })
          : t('work.completed');
      },
    );
  const setStatus = (status: 'OPEN' | 'CANCELLED') =>
    run(
      () => trpc.projects.patchAssignment.mutate({ assignmentId: id, version: a.version, status }),
      () => t(status === 'OPEN' ? 'work.reopened' : 'work.cancelled'),
    );

  return (
    <article className="assignment-page" aria-labelledby="assignment-title">
      <h1 id="assignment-title">
        {t('work.title', {
          type: t(`type.${a.type}`),
          language: a.languageCode
            ? (languageNames.get(a.languageCode) ?? a.languageCode)
            : t('allLanguages'),
        })}
        {a.overdue && <span className="badge overdue">{t('overdue')}</span>}
      </h1>
      <p>
        <a href={projectHref(a.projectId)} onClick={onLinkClick}>
          {t('work.project', { name: a.projectName })}
        </a>
      </p>
      <section className="card" aria-labelledby="assignment-details">
        <h2 id="assignment-details">{t('page.details')}</h2>
        <dl className="fields">
          <dt>{t('assignment.assignee')}</dt>
          <dd>{assignee(a)}</dd>
          <dt>{t('assignment.status')}</dt>
          <dd>
            {t(`assignmentStatus.${a.status}`)}
            {a.completed &&
              ` ${t('candidates.decidedBy', { who: a.completed.fullName || a.completed.name || '', when: formatDate(a.completed.time) })}`}
          </dd>
          <dt>{t('assignment.due')}</dt>
          <dd>{a.dueAt ? formatDate(a.dueAt, { dateStyle: 'long' }) : t('page.noDue')}</dd>
          {a.instructions && (
            <>
              <dt>{t('assignment.instructions')}</dt>
              <dd className="prewrap">{a.instructions}</dd>
            </>
          )}
          <dt>{t('assignment.progress')}</dt>
          <dd>
            <span className="nowrap">
              {t('assignment.doneOf', {
                done: formatNumber(a.progress.done),
                total: formatNumber(a.progress.total),
              })}
            </span>{' '}
            <Bar value={percent(a.progress.done, a.progress.total)} />
          </dd>
        </dl>
        <div className="actions">
          {next && (
            <button type="button" className="primary" onClick={() => navigate(entryHref(next.conceptId, id))}>
              {t('work.start', { label: label(next.conceptId) })}
            </button>
          )}
        </div>
        {a.status === 'OPEN' && (assigned || manager) && (
          <div className="inline-form">
            <label>
              {t('work.comment')}
              <input value={comment} onChange={(e) => setComment(e.target.value)} />
            </label>
            <button type="button" onClick={() => void complete()}>
              {t('work.complete')}
            </button>
          </div>
        )}
        {manager && a.status !== 'DONE' && (
          <div className="actions">
            <button
              type="button"
              className={a.status === 'OPEN' ? 'danger' : undefined}
              onClick={() => void setStatus(a.status === 'OPEN' ? 'CANCELLED' : 'OPEN')}
            >
              {t(a.status === 'OPEN' ? 'work.cancel' : 'work.reopen')}
            </button>
          </div>
        )}
        <ErrorMessage text={error} />
        {notice && <p role="status">{notice}</p>}
      </section>
      <section className="card" aria-labelledby="assignment-entries">
        <h2 id="assignment-entries">
          {t('work.entries', {
            left: formatNumber(left.length),
            total: formatNumber(entries.data?.length ?? 0),
          })}
        </h2>
        <ErrorMessage text={entries.error?.message} />
        {entries.data && entries.data.length > 0 && (
          <TableScroll label={t('work.entriesLabel')}>
            <table className="results">
              <thead>
                <tr>
                  <th scope="col">{t('work.concept')}</th>
                  <th scope="col">{t('assignment.language')}</th>
                  <th scope="col">{t('stats.state')}</th>
                  <th scope="col">{t('work.doneColumn')}</th>
                </tr>
              </thead>
              <tbody>
                {entries.data.map((e) => (
                  <tr key={`${e.conceptId} ${e.languageCode}`}>
                    <td>
                      <a href={entryHref(e.conceptId, id)} onClick={onLinkClick}>
                        {label(e.conceptId)}
                      </a>
                    </td>
                    <td>{e.languageCode ? (languageNames.get(e.languageCode) ?? e.languageCode) : ''}</td>
                    <td>
                      {e.state ? (
                        <StateBadge
                          name={stateName(e.dictionaryId, e.state)}
                          category={e.category ?? 'DRAFT'}
                        />
                      ) : (
                        t('stats.noWorkflow')
                      )}
                    </td>
                    <td>{t(e.done ? 'work.yes' : 'work.no')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
    </article>
  );
}
