import type { ReactNode } from 'react';
import type { trpc } from '../api';
import type { Dictionary } from '../data';
import { Check, CheckList, Choice, type Option } from './controls';
import { Problems } from './FieldValues';
import type { Workflow } from './WorkflowEditor';
import type { PathProblems } from './workflow-messages';

type Transition = NonNullable<Workflow['definition']>['transitions'][number];
type Condition = Transition['condition'][number];
type Action = Transition['actions'][number];
type Level = Condition['level'];
export type Group = Awaited<ReturnType<typeof trpc.groups.list.query>>['content'][number];
export type User = Awaited<ReturnType<typeof trpc.users.list.query>>['content'][number];

/** What the pickers of a transition's rules offer: the dictionary's fields and languages, the client's groups and users. */
export interface RuleChoices {
  dictionary?: Dictionary;
  groups: Group[];
  /** null: the caller may not list users; ids are typed instead. */
  users: User[] | null;
}

const LEVELS: Option[] = [
  { value: 'CONCEPT', label: 'Concept' },
  { value: 'TERM', label: 'Term' },
];
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

/** Lines of a text area as values; no lines: none. */
const linesOf = (text: string) => (text === '' ? [] : text.split('\n'));
/** "3, 7" as ids; what is not a number goes to the server as NaN (null), which refuses it beside the control. */
const idsOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(Number);

function fieldOptions(dictionary: Dictionary | undefined, level: Level, current: string): Option[] {
  const fields = (level === 'TERM' ? dictionary?.termFields : dictionary?.conceptFields) ?? [];
  const options = fields
    .filter((field) => field.oid)
    .map((field) => ({ value: field.oid!, label: field.name ?? field.oid! }));
  // A stored field the dictionary no longer has stays choosable, so it is not lost unseen.
  return current && !options.some((o) => o.value === current)
    ? [...options, { value: current, label: current }]
    : options;
}

/** Users by full name (user name, id where none), valued by id. */
const userOptions = (users: User[]): Option[] =>
  users.map((u) => ({ value: String(u.id), label: u.fullName || u.username || String(u.id) }));

const groupOptions = (groups: Group[]): Option[] =>
  groups.map((g) => ({ value: String(g.id), label: g.name ?? String(g.id) }));

/** A list of rows edited in place: each in its own fieldset with a remove button, and one add button. */
function RowList<T>(props: {
  legend: string;
  rows: T[];
  rowLegend: (row: T, index: number) => string;
  onChange: (rows: T[]) => void;
  render: (row: T, set: (change: Partial<T>) => void, index: number) => ReactNode;
  add?: { label: string; row: () => T };
  extraAdd?: ReactNode;
}) {
  const { rows, onChange } = props;
  return (
    <fieldset className="rule-list">
      <legend>{props.legend}</legend>
      {rows.length === 0 && <p className="hint">None.</p>}
      {rows.map((row, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place.
        <fieldset key={index} className="rule">
          <legend>{props.rowLegend(row, index)}</legend>
          {props.render(
            row,
            (change) => onChange(rows.map((r, i) => (i === index ? { ...r, ...change } : r))),
            index,
          )}
          <div className="actions">
            <button type="button" onClick={() => onChange(rows.filter((_, i) => i !== index))}>
              Remove<span className="visually-hidden"> {props.rowLegend(row, index)}</span>
            </button>
          </div>
        </fieldset>
      ))}
      <div className="actions">
        {props.add && (
          <button type="button" onClick={() => onChange([...rows, props.add!.row()])}>
            {props.add.label}
          </button>
        )}
        {props.extraAdd}
      </div>
    </fieldset>
  );
}

/** A labelled text control with the server's messages about `path` beside it. */
export function TextControl(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  path: string;
  problems: PathProblems;
  multiline?: boolean;
  type?: 'text' | 'number';
  hint?: string;
}) {
  const { problems, path } = props;
  const list = problems.at(path);
  const common = {
    value: props.value,
    'aria-invalid': list.length ? true : undefined,
    'aria-describedby': list.length ? problems.id(path) : undefined,
  } as const;
  const hint = props.hint && <span className="hint"> ({props.hint})</span>;
  return (
    <div className="rule-control">
      {props.multiline ? (
        <label>
          {props.label}
          {hint}
          <textarea rows={2} {...common} onChange={(e) => props.onChange(e.target.value)} />
        </label>
      ) : (
        <label>
          {props.label}
          {hint}
          <input type={props.type ?? 'text'} {...common} onChange={(e) => props.onChange(e.target.value)} />
        </label>
      )}
      <Problems id={problems.id(path)} list={list} />
    </div>
  );
}

/** A Choice with the server's messages about `path` beside it. */
export function PathChoice(props: {
  label: string;
  value: string;
  options: Option[];
  onChange: (value: string) => void;
  path: string;
  problems: PathProblems;
  empty?: string;
}) {
  const { problems, path } = props;
  const list = problems.at(path);
  return (
    <div className="rule-control">
      <Choice
        label={props.label}
        value={props.value}
        options={props.options}
        empty={props.empty}
        onChange={props.onChange}
        describedBy={list.length ? problems.id(path) : undefined}
      />
      <Problems id={problems.id(path)} list={list} />
    </div>
  );
}

/** A CheckList with the server's messages about `path` beside it. */
export function PathCheckList(props: {
  legend: string;
  options: Option[];
  chosen: string[];
  onChange: (chosen: string[]) => void;
  path: string;
  problems: PathProblems;
}) {
  const { problems, path } = props;
  const list = problems.at(path);
  return (
    <>
      <CheckList
        legend={props.legend}
        options={props.options}
        chosen={props.chosen}
        onChange={props.onChange}
        describedBy={list.length ? problems.id(path) : undefined}
      />
      <Problems id={problems.id(path)} list={list} />
    </>
  );
}

/** Ids of groups as checkboxes, with the server's messages about `path`. */
function GroupIds(props: {
  legend: string;
  ids: number[];
  groups: Group[];
  onChange: (ids: number[]) => void;
  path: string;
  problems: PathProblems;
}) {
  return (
    <PathCheckList
      legend={props.legend}
      options={groupOptions(props.groups)}
      chosen={props.ids.map(String)}
      onChange={(chosen) => props.onChange(chosen.map(Number))}
      path={props.path}
      problems={props.problems}
    />
  );
}

/**
 * A field named by level and oid (conditions, required fields, SET_FIELD): changing the level clears
 * the field, since concept and term fields are different lists.
 */
function LevelAndField(props: {
  rule: { level: Level; fieldOid: string };
  set: (change: { level?: Level; fieldOid: string }) => void;
  path: string;
  dictionary: Dictionary | undefined;
  problems: PathProblems;
}) {
  const { rule, set, path, problems } = props;
  return (
    <>
      <PathChoice
        label="Level"
        value={rule.level}
        options={LEVELS}
        onChange={(level) => set({ level: level as Level, fieldOid: '' })}
        path={`${path}.level`}
        problems={problems}
      />
      <PathChoice
        label="Field"
        value={rule.fieldOid}
        empty="(choose a field)"
        options={fieldOptions(props.dictionary, rule.level, rule.fieldOid)}
        onChange={(fieldOid) => set({ fieldOid })}
        path={`${path}.fieldOid`}
        problems={problems}
      />
    </>
  );
}

/** Ids of users: checkboxes where the users may be listed, else a text box of ids. */
function UserIds(props: {
  legend: string;
  ids: number[];
  users: User[] | null;
  onChange: (ids: number[]) => void;
  path: string;
  problems: PathProblems;
}) {
  const { problems, path } = props;
  if (props.users === null) {
    return (
      <TextControl
        label={props.legend}
        hint="user ids, separated by commas"
        value={props.ids.join(', ')}
        onChange={(text) => props.onChange(idsOf(text))}
        path={path}
        problems={problems}
      />
    );
  }
  return (
    <PathCheckList
      legend={props.legend}
      options={userOptions(props.users)}
      chosen={props.ids.map(String)}
      onChange={(chosen) => props.onChange(chosen.map(Number))}
      path={path}
      problems={problems}
    />
  );
}

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
