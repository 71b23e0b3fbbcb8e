import { useTranslation } from 'react-i18next';
import { formatDate, formatNumber } from '../../i18n';
import { onLinkClick } from '../../routes';
import { Bar } from './ProjectPage';
import { type Assignment, groupName, type People, percent, userName } from './project-data';
import { assignmentHref } from './project-routes';
import { TableScroll } from './TableScroll';

/** Who an assignment names: the user, or the group (by name where known). */
export function useAssigneeLabel(people: People | undefined) {
  const { t } = useTranslation('project');
  return (a: Pick<Assignment, 'assigneeUserId' | 'assigneeGroupId'>) =>
    a.assigneeUserId !== null
      ? (userName(people, a.assigneeUserId) ?? t('userN', { id: a.assigneeUserId }))
      : t('groupLabel', {
          name: groupName(people, a.assigneeGroupId) ?? t('groupN', { id: a.assigneeGroupId }),
        });
}

/**
 * Assignments with their progress: type (a link to the assignment), language, assignee, due date with
 * overdue marked in words (not by colour alone), status, and done of total. `showProject` adds the
 * project's name (the inbox's "my assignments"); `onEdit` (managers) a button per assignment not DONE.
 */
export function AssignmentTable(props: {
  assignments: Assignment[];
  people: People | undefined;
  languageNames: Map<string, string>;
  showProject?: boolean;
  caption?: string;
  onEdit?: (assignment: Assignment) => void;
}) {
  const { t } = useTranslation('project');
  const assignee = useAssigneeLabel(props.people);
  const language = (code: string | null) =>
    code ? (props.languageNames.get(code) ?? code) : t('allLanguages');
  if (props.assignments.length === 0) return <p>{t('assignment.none')}</p>;
  return (
    <TableScroll label={props.caption ?? t('page.assignments')}>
      <table className="results assignments">
        {props.caption && <caption className="visually-hidden">{props.caption}</caption>}
        <thead>
          <tr>
            <th scope="col">{t('assignment.type')}</th>
            {props.showProject && <th scope="col">{t('assignment.project')}</th>}
            <th scope="col">{t('assignment.language')}</th>
            {!props.showProject && <th scope="col">{t('assignment.assignee')}</th>}
            <th scope="col">{t('assignment.due')}</th>
            <th scope="col">{t('assignment.status')}</th>
            <th scope="col">{t('assignment.progress')}</th>
            {props.onEdit && (
              <th scope="col">
                <span className="visually-hidden">{t('assignment.change')}</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {props.assignments.map((a) => (
            <tr key={a.id} className={a.overdue ? 'overdue-row' : undefined}>
              <td>
                <a href={assignmentHref(a.id)} onClick={onLinkClick}>
                  {t(`type.${a.type}`)}
                </a>
              </td>
              {props.showProject && <td>{a.projectName}</td>}
              <td>{language(a.languageCode)}</td>
              {!props.showProject && <td>{assignee(a)}</td>}
              <td>
                {a.dueAt ? formatDate(a.dueAt, { dateStyle: 'medium' }) : ''}
                {a.overdue && <span className="badge overdue">{t('overdue')}</span>}
              </td>
              <td>{t(`assignmentStatus.${a.status}`)}</td>
              <td>
                <span className="nowrap">
                  {t('assignment.doneOf', {
                    done: formatNumber(a.progress.done),
                    total: formatNumber(a.progress.total),
                  })}
                </span>{' '}
                <Bar value={percent(a.progress.done, a.progress.total)} />
              </td>
              {props.onEdit && (
                <td>
                  {a.status !== 'DONE' && (
                    <button
                      type="button"
                      aria-label={t('assignment.editOne', {
                        type: t(`type.${a.type}`),
                        language: language(a.languageCode),
                        assignee: assignee(a),
                      })}
                      onClick={() => props.onEdit?.(a)}
                    >
                      {t('assignment.edit')}
                    </button>
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
