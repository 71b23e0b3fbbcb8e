import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemOf, trpc } from '../../api';
import { useCaller } from '../../caller';
import { CheckList, dictionaryOptions, ErrorMessage, languageOptions } from '../../components/controls';
import { languagesOf, loadDictionaries, useLoaded } from '../../data';
import { navigate } from '../../routes';
import { getSession } from '../../session';
import { dayEnd, dayOf, loadPeople, type Project } from './project-data';
import { projectHref } from './project-routes';
import { TransitionChoices, type Transitions } from './TransitionChoices';

/**
 * A new project (DRAFT), or a project's details changed (`project`, its managers): its name, dictionaries
 * (those the caller administers: the server asks for administration of every one), languages (none
 * chosen: every language of its dictionaries), coordinators, due date, instructions and the workflow
 * transition completing each type of assignment fires. Coordinators are
 * picked from the client's users where the caller may list them, else typed as ids.
 */
export function ProjectForm({ project, onSaved }: { project?: Project; onSaved?: () => void }) {
  const { t } = useTranslation('project');
  const caller = useCaller();
  const dictionaries = useLoaded(loadDictionaries, 'dictionaries');
  const people = useLoaded(loadPeople, 'people');
  const [name, setName] = useState(project?.name ?? '');
  const [description, setDescription] = useState(project?.description ?? '');
  const [chosen, setChosen] = useState<string[]>((project?.dictionaryIds ?? []).map(String));
  const [languages, setLanguages] = useState<string[]>(project?.languages ?? []);
  const [coordinators, setCoordinators] = useState<string[]>((project?.coordinatorIds ?? []).map(String));
  const [coordinatorIds, setCoordinatorIds] = useState((project?.coordinatorIds ?? []).join(', '));
  const [due, setDue] = useState(dayOf(project?.dueAt));
  const [instructions, setInstructions] = useState(project?.instructions ?? '');
  const [transitions, setTransitions] = useState<Transitions>(
    project?.transitions ?? { VALIDATION: 'approve' },
  );
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useId();

  // A project's own dictionaries stay listed, so that a change does not drop them unseen.
  const mine = (dictionaries.data ?? []).filter(
    (d) => caller?.administers(d) || project?.dictionaryIds?.includes(d.id),
  );
  const picked = mine.filter((d) => chosen.includes(String(d.id)));
  const users = people.data?.users;

  async function create(event: React.FormEvent) {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      const typed = coordinatorIds
        .split(/[\s,]+/)
        .filter(Boolean)
        .map(Number);
      const me = caller?.userId;
      const body = {
        format: 'FULL' as const,
        name,
        description: description || null,
        dictionaryIds: chosen.map(Number),
        languages,
        // The creator coordinates unless they name others.
        coordinatorIds: users ? coordinators.map(Number) : typed.length ? typed : me ? [me] : [],
        dueAt: dayEnd(due),
        instructions: instructions || null,
        transitions,
      };
      if (project) {
        await trpc.projects.patch.mutate({ ...body, id: project.id, version: project.version });
        onSaved?.();
      } else {
        const created = await trpc.projects.create.mutate(body);
        navigate(projectHref(created.id));
      }
    } catch (caught) {
      setError(problemOf(caught).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="stack project-form" aria-labelledby={heading} onSubmit={(event) => void create(event)}>
      {project ? <h2 id={heading}>{t('form.editTitle')}</h2> : <h1 id={heading}>{t('form.title')}</h1>}
      {!project && caller && dictionaries.data && mine.length === 0 && <p>{t('form.noDictionaries')}</p>}
      <label>
        {t('form.name')}
        <input required maxLength={255} value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <label>
        {t('form.description')}
        <textarea value={description} onChange={(e) => setDescription(e.target.value)} />
      </label>
      <CheckList
        legend={t('form.dictionaries')}
        options={dictionaryOptions(mine)}
        chosen={chosen}
        onChange={(value) => {
          setChosen(value);
          setLanguages([]);
        }}
      />
      {picked.length > 0 && (
        <CheckList
          legend={t('form.languages')}
          className="pickers"
          options={languageOptions(languagesOf(picked))}
          chosen={languages}
          onChange={setLanguages}
        />
      )}
      {users ? (
        <CheckList
          legend={t('form.coordinators')}
          className="pickers"
          options={users.map((u) => ({
            value: String(u.id),
            label: u.fullName || u.username || String(u.id),
          }))}
          chosen={coordinators}
          onChange={setCoordinators}
        />
      ) : (
        <label>
          {t('form.coordinatorIds')}
          <input
            value={coordinatorIds}
            inputMode="numeric"
            onChange={(e) => setCoordinatorIds(e.target.value)}
            placeholder={t('form.coordinatorIdsHint', { who: getSession()?.username ?? '' })}
          />
        </label>
      )}
      <label>
        {t('form.due')}
        <input type="date" value={due} onChange={(e) => setDue(e.target.value)} />
      </label>
      <label>
        {t('form.instructions')}
        <textarea value={instructions} onChange={(e) => setInstructions(e.target.value)} />
      </label>
      {chosen.length > 0 && (
        <TransitionChoices dictionaryIds={chosen.map(Number)} value={transitions} onChange={setTransitions} />
      )}
      <ErrorMessage text={error} />
      <div className="actions">
        <button type="submit" className="primary" disabled={busy || chosen.length === 0}>
          {t(project ? 'form.save' : 'form.create')}
        </button>
        {project && (
          <button type="button" onClick={onSaved}>
            {t('form.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}
