import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemOf, trpc } from '../../api';
import { ErrorMessage } from '../../components/controls';
import { useLoaded } from '../../data';
import { formatNumber } from '../../i18n';
import { navigate, onLinkClick } from '../../routes';
import { StatusBadge } from './ProjectPage';
import { assignmentHref, entryHref, projectHref } from './project-routes';
import './projects.css';

/** The projects a concept belongs to (those the caller may see), each a link; nothing when none. */
export function ConceptProjects({ conceptId }: { conceptId: number }) {
  const { t } = useTranslation('project');
  const projects = useLoaded(
    () => trpc.projects.conceptProjects.query({ conceptId }).catch(() => []),
    `concept projects ${conceptId}`,
  );
  if (!projects.data?.length) return null;
  return (
    <section className="concept-projects" aria-labelledby="concept-projects">
      <h2 id="concept-projects">{t('concept.title')}</h2>
      <ul>
        {projects.data.map((p) => (
          <li key={p.id}>
            <a href={projectHref(p.id)} onClick={onLinkClick}>
              {p.name}
            </a>{' '}
            <StatusBadge status={p.status} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * Working through an assignment in the concept editor (`?assignment=` on the concept's page): what the
 * assignment is, how many entries are left, and "Next entry", which opens the next entry not done
 * after this one (in the assignment's concept order, from the start again at the end), asked afresh at
 * each click so that entries finished meanwhile are passed over.
 */
export function AssignmentBar({ assignmentId, conceptId }: { assignmentId: number; conceptId: number }) {
  const { t } = useTranslation('project');
  const assignment = useLoaded(
    () => trpc.projects.assignment.query({ assignmentId }),
    `assignment ${assignmentId} at ${conceptId}`,
  );
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  async function next() {
    setError(null);
    setNotice(null);
    try {
      const entries = await trpc.projects.assignmentEntries.query({ assignmentId, size: 1000, page: 0 });
      const order = [...new Set(entries.map((e) => e.conceptId))];
      const open = new Set(entries.filter((e) => !e.done).map((e) => e.conceptId));
      const here = order.indexOf(conceptId);
      const after = [...order.slice(here + 1), ...order.slice(0, Math.max(here, 0))];
      const target = after.find((id) => open.has(id) && id !== conceptId);
      if (target === undefined) setNotice(t('bar.noneLeft'));
      else navigate(entryHref(target, assignmentId));
    } catch (caught) {
      setError(problemOf(caught).message);
    }
  }

  const a = assignment.data;
  return (
    <section className="assignment-bar card" aria-labelledby="assignment-bar">
      <h2 id="assignment-bar">
        {a ? t('bar.title', { type: t(`type.${a.type}`), project: a.projectName }) : t('common:loading')}
      </h2>
      {a && (
        <p>
          {t('bar.progress', {
            done: formatNumber(a.progress.done),
            total: formatNumber(a.progress.total),
          })}
        </p>
      )}
      <div className="actions">
        <button type="button" className="primary" onClick={() => void next()}>
          {t('bar.next')}
        </button>
        <a href={assignmentHref(assignmentId)} onClick={onLinkClick}>
          {t('bar.back')}
        </a>
      </div>
      <ErrorMessage text={error ?? assignment.error?.message} />
      {notice && <p role="status">{notice}</p>}
    </section>
  );
}
