import * as Dialog from '@radix-ui/react-dialog';
import { type FormEvent, useState } from 'react';
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

const CATEGORIES = ['DRAFT', 'REVIEW', 'APPROVED', 'REJECTED', 'RETIRED'].map((value) => ({
  value,
  label: value.charAt(0) + value.slice(1).toLowerCase(),
}));
const PROCESS_STATUSES = [
  { value: 'unprocessed', label: 'unprocessed' },
  { value: 'provisionallyProcessed', label: 'provisionallyProcessed' },
  { value: 'finalized', label: 'finalized' },
];
const ROLES = [
  { value: 'DICTIONARY_ADMIN', label: 'Dictionary administrators' },
  { value: 'ADMIN', label: 'Administrators' },
  { value: 'SYSADMIN', label: 'System administrators' },
  { value: 'USER', label: 'Every named user' },
];

const newState = (index: number): State => ({
  key: `state${index}`,
  name: `State ${index}`,
  category: 'DRAFT',
  processStatus: null,
  style: '',
  readOnly: false,
  hidden: false,
  unpublished: false,
});

const newTransition = (index: number, states: State[]): Transition => ({
  key: `transition${index}`,
  name: `Transition ${index}`,
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
        name: workflow.name ?? 'Workflow',
        description: workflow.description ?? null,
        dictionaryId: workflow.dictionaryId!,
        unit: workflow.unit ?? 'LANGUAGE',
        enabled: workflow.enabled ?? false,
        definition,
      });
      setSaved('Workflow saved.');
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
    <form className="workflow-editor stack" onSubmit={save} aria-label={`Definition of ${workflow.name}`}>
      {messages.length > 0 && (
        <div role="alert" className="error">
          <p>The server refused the definition:</p>
          <ul>
            {messages.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        </div>
      )}
      {saved && <p role="status">{saved}</p>}
      <PathChoice
        label="Initial state"
        value={definition.initialState}
        options={stateOptions}
        onChange={(initialState) => setDefinition({ ...definition, initialState })}
        path="initialState"
        problems={problems}
      />
      <fieldset className="rule-list">
        <legend>Approved entries</legend>
        <Choice
          label="When an approved entry is edited"
          value={definition.onEditOfApproved}
          options={[
            { value: 'REOPEN', label: 'it is re-opened' },
            { value: 'KEEP', label: 'it stays approved' },
          ]}
          onChange={(value) => setDefinition({ ...definition, onEditOfApproved: value as 'REOPEN' | 'KEEP' })}
        />
        {definition.onEditOfApproved === 'REOPEN' && (
          <PathChoice
            label="Re-opened into"
            value={definition.reopenState ?? ''}
            empty="(the initial state)"
            options={stateOptions}
            onChange={(value) => setDefinition({ ...definition, reopenState: value || null })}
            path="reopenState"
            problems={problems}
          />
        )}
        <TextControl
          label="Re-validate approved entries after days"
          hint="empty: never"
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
            label="Re-validation moves them into"
            value={definition.revalidateState ?? ''}
            empty="(the initial state)"
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
          <caption>States</caption>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Name</th>
              <th scope="col">Category</th>
              <th scope="col">TBX process status</th>
              <th scope="col">Style in term lists</th>
              <th scope="col">Read-only</th>
              <th scope="col">Hidden</th>
              <th scope="col">Unpublished</th>
              <th scope="col">
                <span className="visually-hidden">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {definition.states.map((state, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place, keys change as typed.
              <tr key={index}>
                <StateTextCell
                  label={`Key of state ${index + 1}`}
                  value={state.key}
                  onChange={(key) => setState(index, { key })}
                  path={`states.${index}.key`}
                  problems={problems}
                />
                <StateTextCell
                  label={`Name of state ${index + 1}`}
                  value={state.name}
                  onChange={(name) => setState(index, { name })}
                  path={`states.${index}.name`}
                  problems={problems}
                />
                <StateSelectCell
                  label={`Category of state ${index + 1}`}
                  value={state.category}
                  options={CATEGORIES}
                  onChange={(category) => setState(index, { category: category as State['category'] })}
                />
                <StateSelectCell
                  label={`TBX process status of state ${index + 1}`}
                  value={state.processStatus ?? ''}
                  empty="(none)"
                  options={PROCESS_STATUSES}
                  onChange={(status) =>
                    setState(index, { processStatus: (status || null) as State['processStatus'] })
                  }
                />
                <StateTextCell
                  label={`Style of state ${index + 1}`}
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
                      aria-label={`${flag} for state ${index + 1}`}
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
                    Remove<span className="visually-hidden"> state {state.key}</span>
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
              states: [...definition.states, newState(definition.states.length + 1)],
            })
          }
        >
          Add a state
        </button>
      </div>
      <h3>Transitions</h3>
      {definition.transitions.map((transition, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: edited in place.
        <fieldset key={index} className="transition card">
          <legend>
            Transition {index + 1}: {transition.name}
          </legend>
          <TextControl
            label="Key"
            value={transition.key}
            onChange={(key) => setTransition(index, { key })}
            path={`transitions.${index}.key`}
            problems={problems}
          />
          <TextControl
            label="Name"
            value={transition.name}
            onChange={(name) => setTransition(index, { name })}
            path={`transitions.${index}.name`}
            problems={problems}
          />
          <PathCheckList
            legend="From"
            options={stateOptions}
            chosen={transition.from}
            onChange={(from) => setTransition(index, { from })}
            path={`transitions.${index}.from`}
            problems={problems}
          />
          <PathChoice
            label="To"
            value={transition.to}
            options={stateOptions}
            onChange={(to) => setTransition(index, { to })}
            path={`transitions.${index}.to`}
            problems={problems}
          />
          <CheckList
            legend="Roles whose holders may fire it"
            options={ROLES}
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
              Remove transition {transition.key}
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
                newTransition(definition.transitions.length + 1, definition.states),
              ],
            })
          }
        >
          Add a transition
        </button>
        <button type="submit" className="primary">
          Save workflow
        </button>
      </div>
      {conflict !== null && (
        <Dialog.Root open onOpenChange={(open) => !open && setConflict(null)}>
          <Dialog.Portal>
            <Dialog.Overlay className="dialog-overlay" />
            <Dialog.Content className="dialog">
              <Dialog.Title>Someone else changed this workflow</Dialog.Title>
              <Dialog.Description>{conflict}</Dialog.Description>
              <p>
                Reload their version (your changes here are lost), or go back to your edit and copy what you
                need.
              </p>
              <div className="actions">
                <button
                  type="button"
                  className="primary"
                  onClick={() => {
                    setConflict(null);
                    props.onReload();
                  }}
                >
                  Reload the saved version
                </button>
                <Dialog.Close asChild>
                  <button type="button">Back to my edit</button>
                </Dialog.Close>
              </div>
            </Dialog.Content>
          </Dialog.Portal>
        </Dialog.Root>
      )}
    </form>
  );
}
