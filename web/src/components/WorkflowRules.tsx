import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
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

const voteModes = (t: TFunction<'workflow'>): Option[] =>
  ['', 'FIRST_WINS', 'MINIMUM_VOTES', 'MINIMUM_AGREEMENT'].map((value) => ({
    value,
    label: t(`rules.vote.${value || 'NONE'}`),
  }));
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
  const { t } = useTranslation('workflow');
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
        legend={t('rules.groups')}
        ids={transition.groupIds}
        groups={choices.groups}
        onChange={(groupIds) => onChange({ groupIds })}
        path={`${at}.groupIds`}
        problems={problems}
      />
      <CheckList
        legend={t('rules.languages')}
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
        legend={t('rules.conditions')}
        rows={transition.condition}
        rowLegend={(_, i) => t('rules.conditionN', { n: i + 1 })}
        onChange={(condition) => onChange({ condition })}
        add={{
          label: t('rules.addCondition'),
          row: () => ({ fieldOid: '', level: 'CONCEPT', present: true }),
        }}
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
                label={t('rules.valueMustBe')}
                value={condition.present ? 'present' : 'absent'}
                options={[
                  { value: 'present', label: t('rules.present') },
                  { value: 'absent', label: t('rules.empty') },
                ]}
                onChange={(value) =>
                  set(value === 'present' ? { present: true } : { present: false, equals: undefined })
                }
              />
              {condition.present && (
                <TextControl
                  label={t('rules.equalTo')}
                  hint={t('rules.equalToHint')}
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
        legend={t('rules.required')}
        rows={transition.requiredFields}
        rowLegend={(_, i) => t('rules.requiredN', { n: i + 1 })}
        onChange={(requiredFields) => onChange({ requiredFields })}
        add={{ label: t('rules.addRequired'), row: () => ({ fieldOid: '', level: 'CONCEPT' }) }}
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
        label={t('rules.commentRequired')}
        checked={transition.commentRequired}
        onChange={(commentRequired) => onChange({ commentRequired })}
      />
      <fieldset className="rule-list">
        <legend>{t('rules.votes')}</legend>
        <PathChoice
          label={t('rules.voteMode')}
          value={transition.votes?.mode ?? ''}
          options={voteModes(t)}
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
            label={t('rules.votesNeeded')}
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
        legend={t('rules.actions')}
        rows={transition.actions}
        rowLegend={(action, i) => t('rules.actionN', { n: i + 1, name: t(`rules.action.${action.type}`) })}
        onChange={(actions) => onChange({ actions })}
        extraAdd={(Object.keys(NEW_ACTIONS) as Action['type'][]).map((type) => (
          <button
            key={type}
            type="button"
            onClick={() => onChange({ actions: [...transition.actions, structuredClone(NEW_ACTIONS[type])] })}
          >
            {t('rules.addAction', { name: t(`rules.action.${type}`) })}
            <span className="visually-hidden"> {t('rules.toTransition', { key: transition.key })}</span>
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
  const { t } = useTranslation('workflow');
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
          label={t('rules.newValues')}
          hint={t('rules.newValuesHint')}
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
          legend={t('rules.usersToNotify')}
          ids={action.userIds}
          users={choices.users}
          onChange={(userIds) => set({ userIds })}
          path={`${path}.userIds`}
          problems={problems}
        />
        <GroupIds
          legend={t('rules.groupsToNotify')}
          ids={action.groupIds}
          groups={choices.groups}
          onChange={(groupIds) => set({ groupIds })}
          path={`${path}.groupIds`}
          problems={problems}
        />
        <Check
          label={t('rules.alsoAssignee')}
          checked={action.assignee}
          onChange={(assignee) => set({ assignee })}
        />
        <Check
          label={t('rules.alsoEnteredBy')}
          checked={action.enteredBy}
          onChange={(enteredBy) => set({ enteredBy })}
        />
      </>
    );
  }
  if (choices.users === null) {
    return (
      <TextControl
        label={t('rules.assignTo')}
        hint={t('rules.assignHint')}
        value={action.userId === null ? '' : String(action.userId)}
        onChange={(text) => set({ userId: text.trim() === '' ? null : Number(text) })}
        path={`${path}.userId`}
        problems={problems}
      />
    );
  }
  return (
    <PathChoice
      label={t('rules.assignTo')}
      value={action.userId === null ? '' : String(action.userId)}
      empty={t('rules.nobody')}
      options={userOptions(choices.users)}
      onChange={(value) => set({ userId: value === '' ? null : Number(value) })}
      path={`${path}.userId`}
      problems={problems}
    />
  );
}
