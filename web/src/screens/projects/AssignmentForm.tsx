import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemOf, trpc } from '../../api';
import { Choice, ErrorMessage } from '../../components/controls';
import { ASSIGNMENT_TYPES, type Assignment, dayEnd, dayOf, type People } from './project-data';

type Kind = 'user' | 'group';

/**
 * A new assignment: a type, one language or all, a user or a group, instructions and a due date. Users
 * are picked from the client's where the caller may list them, else typed as an id. The first assignment
 * of a DRAFT project starts it (the server moves it to ONGOING). With `assignment`, that assignment
 * changed instead: its type, assignee, due date and instructions (its language stays).
 */
export function AssignmentForm(props: {
  projectId: number;
  languages: { code: string; name: string }[];
  people: People | undefined;
  onSaved: () => void;
  assignment?: Assignment;
  onCancel?: () => void;
}) {
  const { t } = useTranslation('project');
  const a = props.assignment;
  const [type, setType] = useState<(typeof ASSIGNMENT_TYPES)[number]>(a?.type ?? 'TRANSLATION');
  const [language, setLanguage] = useState('');
  const [kind, setKind] = useState<Kind>(a?.assigneeGroupId != null ? 'group' : 'user');
  const [userId, setUserId] = useState(a?.assigneeUserId != null ? String(a.assigneeUserId) : '');
  const [groupId, setGroupId] = useState(a?.assigneeGroupId != null ? String(a.assigneeGroupId) : '');
  const [instructions, setInstructions] = useState(a?.instructions ?? '');
  const [due, setDue] = useState(dayOf(a?.dueAt));
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useId();
  const radios = useId();
  const users = props.people?.users;

  async function create(event: React.FormEvent) {
    event.preventDefault();
    setError(null);
    setNotice(null);
    setBusy(true);
    const body = {
      type,
      ...(kind === 'user'
        ? { assigneeUserId: Number(userId) || null }
        : { assigneeGroupId: Number(groupId) || null }),
      instructions: instructions || null,
      dueAt: dayEnd(due),
    };
    try {
      if (a) {
        await trpc.projects.patchAssignment.mutate({ ...body, assignmentId: a.id, version: a.version });
        props.onSaved();
        return;
      }
      await trpc.projects.createAssignment.mutate({
        ...body,
        id: props.projectId,
        languageCode: language || null,
      });
      setNotice(t('assignment.created'));
      setInstructions('');
      props.onSaved();
    } catch (caught) {
      setError(problemOf(caught).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="assignment-form" aria-labelledby={heading} onSubmit={(event) => void create(event)}>
      <h3 id={heading}>{t(a ? 'assignment.editTitle' : 'assignment.new')}</h3>
      <div className="form-grid">
        <Choice
          label={t('assignment.type')}
          value={type}
          options={ASSIGNMENT_TYPES.map((value) => ({ value, label: t(`type.${value}`) }))}
          onChange={(value) => setType(value as typeof type)}
        />
        {!a && (
          <Choice
            label={t('assignment.language')}
            value={language}
            empty={t('allLanguages')}
            options={props.languages.map((l) => ({ value: l.code, label: l.name }))}
            onChange={setLanguage}
          />
        )}
        <fieldset className="radios">
          <legend>{t('assignment.assignTo')}</legend>
          {(['user', 'group'] as const).map((value) => (
            <label key={value} className="check">
              <input type="radio" name={radios} checked={kind === value} onChange={() => setKind(value)} />
              {t(`assignment.kind.${value}`)}
            </label>
          ))}
        </fieldset>
        {kind === 'user' &&
          (users ? (
            <Choice
              label={t('assignment.user')}
              value={userId}
              empty={t('assignment.choose')}
              options={users.map((u) => ({
                value: String(u.id),
                label: u.fullName || u.username || String(u.id),
              }))}
              onChange={setUserId}
            />
          ) : (
            <label>
              {t('assignment.userId')}
              <input inputMode="numeric" value={userId} onChange={(e) => setUserId(e.target.value)} />
            </label>
          ))}
        {kind === 'group' && (
          <Choice
            label={t('assignment.group')}
            value={groupId}
            empty={t('assignment.choose')}
            options={(props.people?.groups ?? []).map((g) => ({
              value: String(g.id),
              label: g.name ?? String(g.id),
            }))}
            onChange={setGroupId}
          />
        )}
        <label>
          {t('assignment.due')}
          <input type="date" value={due} onChange={(e) => setDue(e.target.value)} />
        </label>
      </div>
      <label>
        {t('assignment.instructions')}
        <textarea value={instructions} onChange={(e) => setInstructions(e.target.value)} />
      </label>
      <ErrorMessage text={error} />
      {notice && <p role="status">{notice}</p>}
      <div className="actions">
        <button type="submit" className="primary" disabled={busy}>
          {t(a ? 'assignment.save' : 'assignment.create')}
        </button>
        {props.onCancel && (
          <button type="button" onClick={props.onCancel}>
            {t('form.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}
