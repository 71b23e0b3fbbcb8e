import * as Dialog from '@radix-ui/react-dialog';
import type { TFunction } from 'i18next';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ApiProblem, problemOf, trpc } from '../api';
import { CheckList, Choice, type Option } from './controls';
import { Problems } from './FieldValues';
import { PathCheckList, PathChoice, type RuleChoices, TextControl } from './WorkflowRuleControls';
import { TransitionRules } from './WorkflowRules';
import { type PathProblems, pathProblems, validationMessages } from './workflow-messages';

export type Workflow = Awaited<ReturnType<typeof trpc.workflows.get.query>>;
type Definition = NonNullable<Workflow['definition']>;
type State = Definition['states'][number];
type Transition = Definition['transitions'][number];

const categories = (t: TFunction<'workflow'>) =>
  ['DRAFT', 'REVIEW', 'APPROVED', 'REJECTED', 'RETIRED'].map((value) => ({
    value,
    label: t(`editor.category.${value}`),
  }));
const PROCESS_STATUSES = [
  { value: 'unprocessed', label: 'unprocessed' },
  { value: 'provisionallyProcessed', label: 'provisionallyProcessed' },
  { value: 'finalized', label: 'finalized' },
];
const roles = (t: TFunction<'workflow'>) =>
  ['DICTIONARY_ADMIN', 'ADMIN', 'SYSADMIN', 'USER'].map((value) => ({
    value,
    label: t(`editor.role.${value}`),
  }));

const newState = (index: number, t: TFunction<'workflow'>): State => ({
  key: `state${index}`,
  name: t('editor.newState', { index }),
  category: 'DRAFT',
  processStatus: null,
  style: '',
  readOnly: false,
  hidden: false,
  unpublished: false,
});

const newTransition = (index: number, states: State[], t: TFunction<'workflow'>): Transition => ({
  key: `transition${index}`,
  name: t('editor.newTransition', { index }),
  from: states[0] ? [states[0].key] : [],
  to: states[1]?.key ?? states[0]?.key ?? '',
  groupIds: [],
  roles: ['DICTIONARY_ADMIN'],
  languages: [],
  condition: [],
  requiredFields: [],
  commentRequired: false,
  votes: null,
  actions: [],
});

/** A text cell of the states table with the server's messages about `path` beside it. */
function StateTextCell(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  path: string;
  problems: PathProblems;
  placeholder?: string;
}) {
  const { problems, path } = props;
  const list = problems.at(path);
  return (
    <td>
      <input
        aria-label={props.label}
        placeholder={props.placeholder}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        aria-invalid={list.length ? true : undefined}
        aria-describedby={list.length ? problems.id(path) : undefined}
      />
      <Problems id={problems.id(path)} list={list} />
    </td>
  );
}

/** A select cell of the states table; `empty` adds a first option with the value ''. */
function StateSelectCell(props: {
  label: string;
  value: string;
  options: Option[];
  onChange: (value: string) => void;
  empty?: string;
}) {
  return (
    <td>
      <select aria-label={props.label} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        {props.empty !== undefined && <option value="">{props.empty}</option>}
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </td>
  );
}

/**
 * A workflow definition as a form (issues 26 and 28, docs/workflows.md): its states, its transitions
 * with all their rules (TransitionRules) and what happens to approved entries. The server checks the
 * definition (`workflows.update`); its messages are listed above the form and each also appears beside
 * the control it is about; a 409 (someone saved the workflow meanwhile) opens a dialog offering to
 * reload their version.
 */
export function WorkflowEditor(props: {
  workflow: Workflow;
  choices: RuleChoices;
  onSaved: (saved: Workflow) => void;
  onReload: () => void;
}) {
  const { t } = useTranslation('workflow');
  const { workflow } = props;
  const [definition, setDefinition] = useState<Definition>(workflow.definition!);
  const [messages, setMessages] = useState<string[]>([]);
  const [refusal, setRefusal] = useState<ApiProblem | null>(null);
  const problems = pathProblems(refusal, `workflow-${workflow.id}`);
  const [saved, setSaved] = useState<string | null>(null);
  const [conflict, setConflict] = useState<string | null>(null);
  const stateOptions = definition.states.map((state) => ({
    value: state.key,
    label: `${state.name} (${state.key})`,
  }));

  const setState = (index: number, change: Partial<State>) =>
    setDefinition({
      ...definition,
      states: definition.states.map((s, i) => (i === index ? { ...s, ...change } : s)),
    });
  const setTransition = (index: number, change: Partial<Transition>) =>
    setDefinition({
      ...definition,
      transitions: definition.transitions.map((t, i) => (i === index ? { ...t, ...change } : t)),
    });

  async function save(event: FormEvent) {
    event.preventDefault();
    setMessages([]);
    setRefusal(null);
    setSaved(null);
    try {
      const answer = await trpc.workflows.update.mutate({
        id: workflow.id,
        version: workflow.version,
        format: 'FULL',
        name: workflow.name ?? t('editor.fallbackName'),
        description: workflow.description ?? null,
        dictionaryId: workflow.dictionaryId!,
        unit: workflow.unit ?? 'LANGUAGE',
        enabled: workflow.enabled ?? false,
        definition,
      });
      setSaved(t('editor.saved'));
      props.onSaved(answer as Workflow);
    } catch (caught) {
      const problem = problemOf(caught);
      if (problem.status === 409) setConflict(problem.message);
      else {
        setMessages(validationMessages(problem));
        setRefusal(problem);
      }
    }
  }

  return (
    <form
      className="workflow-editor stack"
      onSubmit={save}
      aria-label={t('editor.definitionOf', { name: workflow.name })}
    >
      {messages.length > 0 && (
        <div role="alert" className="error">
          <p>{t('editor.refused')}</p>
          <ul>
            {messages.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        </div>
      )}
      {saved && <p role="status">{saved}</p>}
      <PathChoice
        label={t('editor.initialState')}
        value={definition.initialState}
        options={stateOptions}
        onChange={(initialState) => setDefinition({ ...definition, initialState })}
        path="initialState"
        problems={problems}
      />
      <fieldset className="rule-list">
        <legend>{t('editor.approvedEntries')}</legend>
        <Choice
          label={t('editor.onEdit')}
          value={definition.onEditOfApproved}
          options={[
            { value: 'REOPEN', label: t('editor.reopen') },
            { value: 'KEEP', label: t('editor.keep') },
          ]}
          onChange={(value) => setDefinition({ ...definition, onEditOfApproved: value as 'REOPEN' | 'KEEP' })}
        />
        {definition.onEditOfApproved === 'REOPEN' && (
          <PathChoice
            label={t('editor.reopenedInto')}
            value={definition.reopenState ?? ''}
            empty={t('editor.theInitialState')}
            options={stateOptions}
            onChange={(value) => setDefinition({ ...definition, reopenState: value || null })}
            path="reopenState"
            problems={problems}
          />
        )}
        <TextControl
          label={t('editor.revalidateAfter')}
          hint={t('editor.never')}
          type="number"
          value={definition.revalidateAfterDays === null ? '' : String(definition.revalidateAfterDays)}
          onChange={(text) =>
            setDefinition({ ...definition, revalidateAfterDays: text === '' ? null : Number(text) })
          }
          path="revalidateAfterDays"
          problems={problems}
        />
        {definition.revalidateAfterDays !== null && (
          <PathChoice
            label={t('editor.revalidateInto')}
            value={definition.revalidateState ?? ''}
            empty={t('editor.theInitialState')}
            options={stateOptions}
            onChange={(value) => setDefinition({ ...definition, revalidateState: value || null })}
            path="revalidateState"
            problems={problems}
          />
        )}
      </fieldset>
      {/* Seven columns of controls outgrow the card on narrow screens: the table scrolls, not the page. */}
      <div className="table-scroll">
        <table className="results states-table">
          <caption>{t('editor.states')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('editor.key')}</th>
              <th scope="col">{t('editor.name')}</th>
              <th scope="col">{t('editor.categoryHeader')}</th>
              <th scope="col">{t('editor.processStatus')}</th>
              <th scope="col">{t('editor.style')}</th>
              <th scope="col">{t('editor.flag.readOnly')}</th>
              <th scope="col">{t('editor.flag.hidden')}</th>
              <th scope="col">{t('editor.flag.unpublished')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('editor.remove')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {definition.states.map((state, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place, keys change as typed.
              <tr key={index}>
                <StateTextCell
                  label={t('editor.keyOf', { n: index + 1 })}
                  value={state.key}
                  onChange={(key) => setState(index, { key })}
                  path={`states.${index}.key`}
                  problems={problems}
                />
                <StateTextCell
                  label={t('editor.nameOf', { n: index + 1 })}
                  value={state.name}
                  onChange={(name) => setState(index, { name })}
                  path={`states.${index}.name`}
                  problems={problems}
                />
                <StateSelectCell
                  label={t('editor.categoryOf', { n: index + 1 })}
                  value={state.category}
                  options={categories(t)}
                  onChange={(category) => setState(index, { category: category as State['category'] })}
                />
                <StateSelectCell
                  label={t('editor.processStatusOf', { n: index + 1 })}
                  value={state.processStatus ?? ''}
                  empty={t('editor.none')}
                  options={PROCESS_STATUSES}
                  onChange={(status) =>
                    setState(index, { processStatus: (status || null) as State['processStatus'] })
                  }
                />
                <StateTextCell
                  label={t('editor.styleOf', { n: index + 1 })}
                  placeholder="color: #888"
                  value={state.style}
                  onChange={(style) => setState(index, { style })}
                  path={`states.${index}.style`}
                  problems={problems}
                />
                {(['readOnly', 'hidden', 'unpublished'] as const).map((flag) => (
                  <td key={flag}>
                    <input
                      type="checkbox"
                      aria-label={t('editor.flagOf', { flag: t(`editor.flag.${flag}`), n: index + 1 })}
                      checked={state[flag]}
                      onChange={(e) => setState(index, { [flag]: e.target.checked })}
                    />
                  </td>
                ))}
                <td>
                  <button
                    type="button"
                    onClick={() =>
                      setDefinition({
                        ...definition,
                        states: definition.states.filter((_, i) => i !== index),
                      })
                    }
                  >
                    {t('editor.remove')}
                    <span className="visually-hidden"> {t('editor.stateKey', { key: state.key })}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="actions">
        <button
          type="button"
          onClick={() =>
            setDefinition({
              ...definition,
              states: [...definition.states, newState(definition.states.length + 1, t)],
            })
          }
        >
          {t('editor.addState')}
        </button>
      </div>
      <h3>{t('editor.transitions')}</h3>
      {definition.transitions.map((transition, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: edited in place.
        <fieldset key={index} className="transition card">
          <legend>{t('editor.transitionN', { n: index + 1, name: transition.name })}</legend>
          <TextControl
            label={t('editor.key')}
            value={transition.key}
            onChange={(key) => setTransition(index, { key })}
            path={`transitions.${index}.key`}
            problems={problems}
          />
          <TextControl
            label={t('editor.name')}
            value={transition.name}
            onChange={(name) => setTransition(index, { name })}
            path={`transitions.${index}.name`}
            problems={problems}
          />
          <PathCheckList
            legend={t('editor.from')}
            options={stateOptions}
            chosen={transition.from}
            onChange={(from) => setTransition(index, { from })}
            path={`transitions.${index}.from`}
            problems={problems}
          />
          <PathChoice
            label={t('editor.to')}
            value={transition.to}
            options={stateOptions}
            onChange={(to) => setTransition(index, { to })}
            path={`transitions.${index}.to`}
            problems={problems}
          />
          <CheckList
            legend={t('editor.roles')}
            options={roles(t)}
            chosen={transition.roles}
            onChange={(roles) => setTransition(index, { roles })}
          />
          <TransitionRules
            transition={transition}
            at={`transitions.${index}`}
            choices={props.choices}
            problems={problems}
            onChange={(change) => setTransition(index, change)}
          />
          <div className="actions">
            <button
              type="button"
              onClick={() =>
                setDefinition({
                  ...definition,
                  transitions: definition.transitions.filter((_, i) => i !== index),
                })
              }
            >
              {t('editor.removeTransition', { key: transition.key })}
            </button>
          </div>
        </fieldset>
      ))}
      <div className="actions">
        <button
          type="button"
          onClick={() =>
            setDefinition({
              ...definition,
              transitions: [
                ...definition.transitions,
                newTransition(definition.transitions.length + 1, definition.states, t),
              ],
            })
          }
        >
          {t('editor.addTransition')}
        </button>
        <button type="submit" className="primary">
          {t('editor.save')}
        </button>
      </div>
      {conflict !== null && (
        <Dialog.Root open onOpenChange={(open) => !open && setConflict(null)}>
          <Dialog.Portal>
            <Dialog.Overlay className="dialog-overlay" />
            <Dialog.Content className="dialog">
              <Dialog.Title>{t('editor.conflictTitle')}</Dialog.Title>
              <Dialog.Description>{conflict}</Dialog.Description>
              <p>{t('editor.conflictHelp')}</p>
              <div className="actions">
                <button
                  type="button"
                  className="primary"
                  onClick={() => {
                    setConflict(null);
                    props.onReload();
                  }}
                >
                  {t('editor.reloadSaved')}
                </button>
                <Dialog.Close asChild>
                  <button type="button">{t('editor.backToEdit')}</button>
                </Dialog.Close>
              </div>
            </Dialog.Content>
          </Dialog.Portal>
        </Dialog.Root>
      )}
    </form>
  );
}
