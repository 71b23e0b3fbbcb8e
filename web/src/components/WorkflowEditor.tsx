import * as Dialog from '@radix-ui/react-dialog';
import { type FormEvent, useState } from 'react';
import { problemOf, trpc } from '../api';
import { CheckList, Choice } from './controls';
import { validationMessages } from './workflow-messages';

export type Workflow = Awaited<ReturnType<typeof trpc.workflows.get.query>>;
type Definition = NonNullable<Workflow['definition']>;
type State = Definition['states'][number];
type Transition = Definition['transitions'][number];

const CATEGORIES = ['DRAFT', 'REVIEW', 'APPROVED', 'REJECTED', 'RETIRED'].map((value) => ({
  value,
  label: value.charAt(0) + value.slice(1).toLowerCase(),
}));
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

/**
 * A workflow definition's states and transitions as a form (issue 28, docs/workflows.md). The server
 * checks the definition (`workflows.update`); its messages appear above the form, and a 409 (someone
 * saved the workflow meanwhile) opens a dialog offering to reload their version.
 */
export function WorkflowEditor(props: {
  workflow: Workflow;
  onSaved: (saved: Workflow) => void;
  onReload: () => void;
}) {
  const { workflow } = props;
  const [definition, setDefinition] = useState<Definition>(workflow.definition!);
  const [messages, setMessages] = useState<string[]>([]);
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
      else setMessages(validationMessages(problem));
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
      <Choice
        label="Initial state"
        value={definition.initialState}
        options={stateOptions}
        onChange={(initialState) => setDefinition({ ...definition, initialState })}
      />
      <table className="results states-table">
        <caption>States</caption>
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">Name</th>
            <th scope="col">Category</th>
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
              <td>
                <input
                  aria-label={`Key of state ${index + 1}`}
                  value={state.key}
                  onChange={(e) => setState(index, { key: e.target.value })}
                />
              </td>
              <td>
                <input
                  aria-label={`Name of state ${index + 1}`}
                  value={state.name}
                  onChange={(e) => setState(index, { name: e.target.value })}
                />
              </td>
              <td>
                <select
                  aria-label={`Category of state ${index + 1}`}
                  value={state.category}
                  onChange={(e) => setState(index, { category: e.target.value as State['category'] })}
                >
                  {CATEGORIES.map((category) => (
                    <option key={category.value} value={category.value}>
                      {category.label}
                    </option>
                  ))}
                </select>
              </td>
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
                    setDefinition({ ...definition, states: definition.states.filter((_, i) => i !== index) })
                  }
                >
                  Remove<span className="visually-hidden"> state {state.key}</span>
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
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
          <label>
            Key
            <input value={transition.key} onChange={(e) => setTransition(index, { key: e.target.value })} />
          </label>
          <label>
            Name
            <input value={transition.name} onChange={(e) => setTransition(index, { name: e.target.value })} />
          </label>
          <CheckList
            legend="From"
            options={stateOptions}
            chosen={transition.from}
            onChange={(from) => setTransition(index, { from })}
          />
          <Choice
            label="To"
            value={transition.to}
            options={stateOptions}
            onChange={(to) => setTransition(index, { to })}
          />
          <CheckList
            legend="Who may fire it"
            options={ROLES}
            chosen={transition.roles}
            onChange={(roles) => setTransition(index, { roles })}
          />
          <label className="check">
            <input
              type="checkbox"
              checked={transition.commentRequired}
              onChange={(e) => setTransition(index, { commentRequired: e.target.checked })}
            />
            Comment required
          </label>
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
