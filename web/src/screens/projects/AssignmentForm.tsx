import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemOf, trpc } from '../../api';
import { Choice, ErrorMessage } from '../../components/controls';
import { ASSIGNMENT_TYPES, dayEnd, type People } from './project-data';

type Kind = 'user' | 'group';

/**
 * A new assignment: a type, one language or all, a user or a group, instructions and a due date. Users
 * are picked from the client's where the caller may list them, else typed as an id. The first assignment
 * of a DRAFT project starts it (the server moves it to ONGOING).
 */
export function AssignmentForm(props: {
  projectId: number;
  languages: { code: string; name: string }[];
  people: People | undefined;
  onCreated: () => void;
}) {
  const { t } = useTranslation('project');
  const [type, setType] = useState<(typeof ASSIGNMENT_TYPES)[number]>('TRANSLATION');
  const [language, setLanguage] = useState('');
  const [kind, setKind] = useState<Kind>('user');
  const [userId, setUserId] = useState('');
  const [groupId, setGroupId] = useState('');
  const [instructions, setInstructions] = useState('');
  const [due, setDue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useId();
  const users = props.people?.users;

  async function create(event: React.FormEvent) {
    event.preventDefault();
    setError(null);
    setNotice(null);
    setBusy(true);
    try {
      await trpc.projects.createAssignment.mutate({
        id: props.projectId,
        type,
        languageCode: language || null,
        ...(kind === 'user'
          ? { assigneeUserId: Number(userId) || null }
          : { assigneeGroupId: Number(groupId) || null }),
        instructions: instructions || null,
        dueAt: dayEnd(due),
      });
      setNotice(t('assignment.created'));
      setInstructions('');
      props.onCreated();
    } catch (caught) {
      setError(problemOf(caught).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="assignment-form" aria-labelledby={heading} onSubmit={(event) => void create(event)}>
      <h3 id={heading}>{t('assignment.new')}</h3>
      <div className="form-grid">
        <Choice
          label={t('assignment.type')}
          value={type}
          options={ASSIGNMENT_TYPES.map((value) => ({ value, label: t(`type.${value}`) }))}
          onChange={(value) => setType(value as typeof type)}
        />
        <Choice
          label={t('assignment.language')}
          value={language}
          empty={t('allLanguages')}
          options={props.languages.map((l) => ({ value: l.code, label: l.name }))}
          onChange={setLanguage}
        />
        <fieldset className="radios">
          <legend>{t('assignment.assignTo')}</legend>
          {(['user', 'group'] as const).map((value) => (
            <label key={value} className="check">
              <input
                type="radio"
                name="assignee-kind"
                checked={kind === value}
                onChange={() => setKind(value)}
              />
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
          {t('assignment.create')}
        </button>
      </div>
    </form>
  );
}
