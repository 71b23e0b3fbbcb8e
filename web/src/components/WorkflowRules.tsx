import { Check, CheckList, Choice, type Option } from './controls';
import type { Workflow } from './WorkflowEditor';
import {
  GroupIds,
  LevelAndField,
  linesOf,
  PathChoice,
  RowList,
  type RuleChoices,
  TextControl,
  UserIds,
  userOptions,
} from './WorkflowRuleControls';
import type { PathProblems } from './workflow-messages';

type Transition = NonNullable<Workflow['definition']>['transitions'][number];
type Condition = Transition['condition'][number];
type Action = Transition['actions'][number];

const VOTE_MODES: Option[] = [
  { value: '', label: 'No vote: the first to fire it moves the entry' },
  { value: 'FIRST_WINS', label: 'First vote wins' },
  { value: 'MINIMUM_VOTES', label: 'A number of votes for it' },
  { value: 'MINIMUM_AGREEMENT', label: 'A number of votes for it, none for another transition' },
];
const ACTION_NAMES: Record<Action['type'], string> = {
  SET_FIELD: 'Set a field',
  NOTIFY: 'Notify',
  ASSIGN: 'Assign',
};
const NEW_ACTIONS: Record<Action['type'], Action> = {
  SET_FIELD: { type: 'SET_FIELD', fieldOid: '', level: 'CONCEPT', values: [] },
  NOTIFY: { type: 'NOTIFY', userIds: [], groupIds: [], assignee: false, enteredBy: false },
  ASSIGN: { type: 'ASSIGN', userId: null },
};

/**
 * The rules of one transition beyond its states (docs/workflows.md): who may fire it (groups besides the
 * roles), on which languages, the conditions that must hold for it to be offered, the fields that must be
 * filled, a comment, votes, and the actions run when it fires. Every control shows the server's messages
 * about it; values are plain text (React escapes them).
 */
export function TransitionRules(props: {
  transition: Transition;
  at: string;
  choices: RuleChoices;
  problems: PathProblems;
  onChange: (change: Partial<Transition>) => void;
}) {
  const { transition, at, choices, problems, onChange } = props;
  const { dictionary } = choices;
  const languages = (dictionary?.languages ?? [])
    .filter((language) => !language.deleted)
    .map((language) => ({
      value: language.code.toLowerCase(),
      label: `${language.name} (${language.code})`,
    }));
  const votesPath = `${at}.votes`;

  return (
    <>
      <GroupIds
        legend="Groups whose members may fire it"
        ids={transition.groupIds}
        groups={choices.groups}
        onChange={(groupIds) => onChange({ groupIds })}
        path={`${at}.groupIds`}
        problems={problems}
      />
      <CheckList
        legend="Only on these languages (none chosen: all)"
        options={[
          ...languages,
          ...transition.languages
            .filter((code) => !languages.some((l) => l.value === code))
            .map((code) => ({ value: code, label: code })),
        ]}
        chosen={transition.languages}
        onChange={(chosen) => onChange({ languages: chosen })}
      />
      <RowList<Condition>
        legend="Conditions (all must hold for it to be offered)"
        rows={transition.condition}
        rowLegend={(_, i) => `Condition ${i + 1}`}
        onChange={(condition) => onChange({ condition })}
        add={{ label: 'Add a condition', row: () => ({ fieldOid: '', level: 'CONCEPT', present: true }) }}
        render={(condition, set, i) => {
          const path = `${at}.condition.${i}`;
          return (
            <>
              <LevelAndField
                rule={condition}
                set={set}
                path={path}
                dictionary={dictionary}
                problems={problems}
              />
              <Choice
                label="Its value must be"
                value={condition.present ? 'present' : 'absent'}
                options={[
                  { value: 'present', label: 'present' },
                  { value: 'absent', label: 'empty' },
                ]}
                onChange={(value) =>
                  set(value === 'present' ? { present: true } : { present: false, equals: undefined })
                }
              />
              {condition.present && (
                <TextControl
                  label="Equal to one of"
                  hint="one value a line; none: any value"
                  multiline
                  value={(condition.equals ?? []).join('\n')}
                  onChange={(text) => set({ equals: text === '' ? undefined : linesOf(text) })}
                  path={`${path}.equals`}
                  problems={problems}
                />
              )}
            </>
          );
        }}
      />
      <RowList<Transition['requiredFields'][number]>
        legend="Required fields (must be filled to fire it)"
        rows={transition.requiredFields}
        rowLegend={(_, i) => `Required field ${i + 1}`}
        onChange={(requiredFields) => onChange({ requiredFields })}
        add={{ label: 'Add a required field', row: () => ({ fieldOid: '', level: 'CONCEPT' }) }}
        render={(required, set, i) => (
          <LevelAndField
            rule={required}
            set={set}
            path={`${at}.requiredFields.${i}`}
            dictionary={dictionary}
            problems={problems}
          />
        )}
      />
      <Check
        label="Comment required"
        checked={transition.commentRequired}
        onChange={(commentRequired) => onChange({ commentRequired })}
      />
      <fieldset className="rule-list">
        <legend>Votes</legend>
        <PathChoice
          label="Vote mode"
          value={transition.votes?.mode ?? ''}
          options={VOTE_MODES}
          onChange={(mode) =>
            onChange({
              votes: mode
                ? {
                    mode: mode as NonNullable<Transition['votes']>['mode'],
                    count: transition.votes?.count ?? 1,
                  }
                : null,
            })
          }
          path={`${votesPath}.mode`}
          problems={problems}
        />
        {transition.votes && (
          <TextControl
            label="Votes needed"
            type="number"
            value={Number.isNaN(transition.votes.count) ? '' : String(transition.votes.count)}
            onChange={(text) =>
              onChange({ votes: { ...transition.votes!, count: text === '' ? Number.NaN : Number(text) } })
            }
            path={`${votesPath}.count`}
            problems={problems}
          />
        )}
      </fieldset>
      <RowList<Action>
        legend="Actions when it fires"
        rows={transition.actions}
        rowLegend={(action, i) => `Action ${i + 1}: ${ACTION_NAMES[action.type]}`}
        onChange={(actions) => onChange({ actions })}
        extraAdd={(Object.keys(NEW_ACTIONS) as Action['type'][]).map((type) => (
          <button
            key={type}
            type="button"
            onClick={() => onChange({ actions: [...transition.actions, structuredClone(NEW_ACTIONS[type])] })}
          >
            Add action: {ACTION_NAMES[type]}
            <span className="visually-hidden"> to transition {transition.key}</span>
          </button>
        ))}
        render={(action, set, i) => (
          <ActionControls
            action={action}
            set={set as (change: Partial<Action>) => void}
            path={`${at}.actions.${i}`}
            choices={choices}
            problems={problems}
          />
        )}
      />
    </>
  );
}

function ActionControls(props: {
  action: Action;
  set: (change: Partial<Action>) => void;
  path: string;
  choices: RuleChoices;
  problems: PathProblems;
}) {
  const { action, set, path, choices, problems } = props;
  if (action.type === 'SET_FIELD') {
    return (
      <>
        <LevelAndField
          rule={action}
          set={set}
          path={path}
          dictionary={choices.dictionary}
          problems={problems}
        />
        <TextControl
          label="New values"
          hint="one value a line; none: the field is cleared"
          multiline
          value={action.values.join('\n')}
          onChange={(text) => set({ values: linesOf(text) })}
          path={`${path}.values`}
          problems={problems}
        />
      </>
    );
  }
  if (action.type === 'NOTIFY') {
    return (
      <>
        <UserIds
          legend="Users to notify"
          ids={action.userIds}
          users={choices.users}
          onChange={(userIds) => set({ userIds })}
          path={`${path}.userIds`}
          problems={problems}
        />
        <GroupIds
          legend="Groups to notify"
          ids={action.groupIds}
          groups={choices.groups}
          onChange={(groupIds) => set({ groupIds })}
          path={`${path}.groupIds`}
          problems={problems}
        />
        <Check
          label="Also the assignee"
          checked={action.assignee}
          onChange={(assignee) => set({ assignee })}
        />
        <Check
          label="Also whoever moved the entry into the state left"
          checked={action.enteredBy}
          onChange={(enteredBy) => set({ enteredBy })}
        />
      </>
    );
  }
  if (choices.users === null) {
    return (
      <TextControl
        label="Assign to"
        hint="a user id; empty: nobody"
        value={action.userId === null ? '' : String(action.userId)}
        onChange={(text) => set({ userId: text.trim() === '' ? null : Number(text) })}
        path={`${path}.userId`}
        problems={problems}
      />
    );
  }
  return (
    <PathChoice
      label="Assign to"
      value={action.userId === null ? '' : String(action.userId)}
      empty="(nobody: no assignee any more)"
      options={userOptions(choices.users)}
      onChange={(value) => set({ userId: value === '' ? null : Number(value) })}
      path={`${path}.userId`}
      problems={problems}
    />
  );
}
