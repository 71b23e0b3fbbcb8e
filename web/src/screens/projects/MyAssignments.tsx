import { useTranslation } from 'react-i18next';
import { trpc } from '../../api';
import { ErrorMessage } from '../../components/controls';
import { languagesOf, loadDictionaries, useLoaded } from '../../data';
import { formatNumber } from '../../i18n';
import { useLiveRefresh } from '../../live/live-events';
import { AssignmentTable } from './AssignmentTable';
import { loadPeople } from './project-data';
import './projects.css';

/** "My assignments": the open project assignments naming the caller or a group of theirs, soonest due first. */
export function MyAssignments() {
  const { t } = useTranslation('project');
  const mine = useLoaded(() => trpc.projects.myAssignments.query({ assignee: 'me' }), 'my assignments');
  const dictionaries = useLoaded(loadDictionaries, 'dictionaries');
  // New, changed or finished assignments, and moves that advance their progress.
  useLiveRefresh(
    (event) =>
      event.type.startsWith('assignment.') ||
      event.type.startsWith('project.') ||
      event.type === 'workflow.transitioned',
    mine.reload,
  );
  const people = useLoaded(loadPeople, 'people');
  const languageNames = new Map(languagesOf(dictionaries.data ?? []).map((l) => [l.code, l.name]));
  return (
    <section className="my-assignments" aria-labelledby="my-assignments">
      <h2 id="my-assignments">{t('mine.title')}</h2>
      <ErrorMessage text={mine.error?.message} />
      {!mine.data && !mine.error && <p role="status">{t('common:loading')}</p>}
      {mine.data && (
        <>
          <p className="result-count">
            {mine.data.length === 0
              ? t('mine.none')
              : t('mine.count', { count: mine.data.length, formatted: formatNumber(mine.data.length) })}
          </p>
          {mine.data.length > 0 && (
            <AssignmentTable
              assignments={mine.data}
              people={people.data}
              languageNames={languageNames}
              showProject
              caption={t('mine.title')}
            />
          )}
        </>
      )}
    </section>
  );
}
