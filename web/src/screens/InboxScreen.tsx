import { useTranslation } from 'react-i18next';
import { trpc } from '../api';
import { Choice, dictionaryOptions } from '../components/controls';
import { StateBadge } from '../components/WorkflowPanel';
import { loadDictionaries, loadSearchSettings, useLoaded } from '../data';
import { formatDate, formatNumber } from '../i18n';
import { useLiveRefresh } from '../live/live-events';
import { navigate, onLinkClick, withQuery } from '../routes';
import { MyAssignments } from './projects/MyAssignments';

/**
 * The task inbox: the workflow entries assigned to the caller (workflows.inbox, docs/workflows.md),
 * newest move first, each a link to its concept where its transitions are. `d` in the URL narrows it
 * to a dictionary. The caller's project assignments (docs/projects.md) come first, beside these tasks.
 */
export default function InboxScreen({ query }: { query: URLSearchParams }) {
  const { t } = useTranslation('workflow');
  const dictionaryId = Number(query.get('d')) || undefined;
  const dictionaries = useLoaded(loadDictionaries, 'dictionaries');
  const tasks = useLoaded(
    () =>
      trpc.workflows.inbox.query({
        assignee: 'me',
        'dictionary-id': dictionaryId,
        open: true, // done tasks (approved, rejected, retired) leave the inbox
        size: 200,
        page: 0,
      }),
    `inbox ${dictionaryId}`,
  );
  // Moves and assignments anywhere may add or remove a task: the list refreshes by itself.
  useLiveRefresh(
    (event) => event.type === 'workflow.transitioned' || event.type.startsWith('assignment.'),
    tasks.reload,
  );
  // The inbox answers state keys; the enabled workflows name them (one call for every dictionary).
  const workflows = useLoaded(
    () =>
      trpc.workflows.list.query({
        enabled: true,
        size: 500,
        page: 0,
        format: 'FULL',
        'include-deleted': false,
      }),
    'enabled workflows',
  );
  // Each concept named by its preferred term in the first working language it has: one call for the page.
  const conceptIds = [...new Set((tasks.data ?? []).map((task) => task.conceptId))];
  const labels = useLoaded(
    async () => {
      if (conceptIds.length === 0) return new Map<number, string>();
      const settings = await loadSearchSettings();
      const languages = [
        ...(settings?.targetLanguages ?? []),
        ...(settings?.sourceLanguage ? [settings.sourceLanguage] : []),
      ];
      const answer = await trpc.concepts.labels.query({ ids: conceptIds.slice(0, 500), languages });
      return new Map(
        answer.flatMap((label) => (label.label === null ? [] : [[label.id, label.label] as const])),
      );
    },
    `labels ${conceptIds.join(',')}`,
  );
  const stateNames = new Map(
    (workflows.data?.content ?? []).flatMap((w) =>
      (w.definition?.states ?? []).map((state) => [`${w.dictionaryId} ${state.key}`, state.name] as const),
    ),
  );
  const names = new Map((dictionaries.data ?? []).map((d) => [d.id, d.name ?? String(d.id)]));
  const languages = new Map(
    (dictionaries.data ?? []).flatMap((d) => (d.languages ?? []).map((l) => [l.code, l.name] as const)),
  );
  return (
    <div className="inbox-page">
      <h1>{t('inbox.title')}</h1>
      <MyAssignments />
      <h2>{t('inbox.workflowTasks')}</h2>
      <Choice
        label={t('inbox.dictionary')}
        value={dictionaryId ?? ''}
        options={dictionaryOptions(dictionaries.data ?? [])}
        empty={t('inbox.allDictionaries')}
        onChange={(value) => navigate(withQuery('/inbox', { d: value }), { replace: true })}
      />
      {tasks.error && <p role="alert">{tasks.error.message}</p>}
      {!tasks.data && !tasks.error && <p role="status">{t('common:loading')}</p>}
      {tasks.data && (
        <>
          <p role="status" className="result-count">
            {tasks.data.length === 0
              ? t('inbox.nothing')
              : t('inbox.count', { count: tasks.data.length, formatted: formatNumber(tasks.data.length) })}
          </p>
          {tasks.data.length > 0 && (
            <div className="table-scroll">
              <table className="results inbox">
                <thead>
                  <tr>
                    <th scope="col">{t('inbox.concept')}</th>
                    <th scope="col">{t('inbox.dictionary')}</th>
                    <th scope="col">{t('inbox.language')}</th>
                    <th scope="col">{t('inbox.state')}</th>
                    <th scope="col">{t('inbox.since')}</th>
                  </tr>
                </thead>
                <tbody>
                  {tasks.data.map((task) => (
                    <tr key={`${task.conceptId}-${task.languageCode}-${task.termId}`}>
                      <td>
                        <a href={`/concepts/${task.conceptId}`} onClick={onLinkClick}>
                          {labels.data?.get(task.conceptId) ?? t('inbox.conceptN', { id: task.conceptId })}
                          {task.termId !== null ? t('inbox.termN', { id: task.termId }) : ''}
                        </a>
                      </td>
                      <td>{names.get(task.dictionaryId) ?? task.dictionaryId}</td>
                      <td>
                        {task.languageCode ? (languages.get(task.languageCode) ?? task.languageCode) : ''}
                      </td>
                      <td>
                        <StateBadge
                          name={stateNames.get(`${task.dictionaryId} ${task.state}`) ?? task.state}
                          category={task.category}
                        />
                      </td>
                      <td>{task.enteredAt ? formatDate(task.enteredAt) : ''}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </div>
  );
}
