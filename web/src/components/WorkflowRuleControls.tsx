import type { TFunction } from 'i18next';
/**
 * The controls a transition's rules are built from (WorkflowRules.tsx) and the Workflows screen's
 * editor reuses: lists of rows, text and choice controls that show the server's messages beside them,
 * and pickers of fields, groups and users.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { trpc } from '../api';
import type { Dictionary } from '../data';
import { CheckList, Choice, type Option } from './controls';
import { Problems } from './FieldValues';
import type { Workflow } from './WorkflowEditor';
import type { PathProblems } from './workflow-messages';

type Transition = NonNullable<Workflow['definition']>['transitions'][number];
type Condition = Transition['condition'][number];
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

const levels = (t: TFunction<'workflow'>): Option[] => [
  { value: 'CONCEPT', label: t('rules.level.CONCEPT') },
  { value: 'TERM', label: t('rules.level.TERM') },
];

/** Lines of a text area as values; no lines: none. */
export const linesOf = (text: string) => (text === '' ? [] : text.split('\n'));
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
export const userOptions = (users: User[]): Option[] =>
  users.map((u) => ({ value: String(u.id), label: u.fullName || u.username || String(u.id) }));

const groupOptions = (groups: Group[]): Option[] =>
  groups.map((g) => ({ value: String(g.id), label: g.name ?? String(g.id) }));

/** A list of rows edited in place: each in its own fieldset with a remove button, and one add button. */
export function RowList<T>(props: {
  legend: string;
  rows: T[];
  rowLegend: (row: T, index: number) => string;
  onChange: (rows: T[]) => void;
  render: (row: T, set: (change: Partial<T>) => void, index: number) => ReactNode;
  add?: { label: string; row: () => T };
  extraAdd?: ReactNode;
}) {
  const { t } = useTranslation('workflow');
  const { rows, onChange } = props;
  return (
    <fieldset className="rule-list">
      <legend>{props.legend}</legend>
      {rows.length === 0 && <p className="hint">{t('rules.none')}</p>}
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
              {t('rules.remove')}
              <span className="visually-hidden"> {props.rowLegend(row, index)}</span>
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
export function GroupIds(props: {
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
export function LevelAndField(props: {
  rule: { level: Level; fieldOid: string };
  set: (change: { level?: Level; fieldOid: string }) => void;
  path: string;
  dictionary: Dictionary | undefined;
  problems: PathProblems;
}) {
  const { t } = useTranslation('workflow');
  const { rule, set, path, problems } = props;
  return (
    <>
      <PathChoice
        label={t('rules.levelLabel')}
        value={rule.level}
        options={levels(t)}
        onChange={(level) => set({ level: level as Level, fieldOid: '' })}
        path={`${path}.level`}
        problems={problems}
      />
      <PathChoice
        label={t('rules.field')}
        value={rule.fieldOid}
        empty={t('rules.chooseField')}
        options={fieldOptions(props.dictionary, rule.level, rule.fieldOid)}
        onChange={(fieldOid) => set({ fieldOid })}
        path={`${path}.fieldOid`}
        problems={problems}
      />
    </>
  );
}

/** Ids of users: checkboxes where the users may be listed, else a text box of ids. */
export function UserIds(props: {
  legend: string;
  ids: number[];
  users: User[] | null;
  onChange: (ids: number[]) => void;
  path: string;
  problems: PathProblems;
}) {
  const { t } = useTranslation('workflow');
  const { problems, path } = props;
  if (props.users === null) {
    return (
      <TextControl
        label={props.legend}
        hint={t('rules.userIdsHint')}
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
