import { useTranslation } from 'react-i18next';
import { Choice } from '../../components/controls';
import { ASSIGNMENT_TYPES, type AssignmentType } from './project-data';
import { useTransitionNames } from './state-names';

export type Transitions = Partial<Record<AssignmentType, string | null>>;

/**
 * The workflow transition completing an assignment of each type fires (docs/projects.md, `transitions`):
 * chosen among the transitions of the enabled workflows of the project's dictionaries, or typed as a key
 * where the caller cannot list workflows. A key no workflow names any more stays offered, so that saving
 * does not drop it unseen.
 */
export function TransitionChoices(props: {
  dictionaryIds: readonly number[];
  value: Transitions;
  onChange: (value: Transitions) => void;
}) {
  const { t } = useTranslation('project');
  const { names, loaded } = useTransitionNames(props.dictionaryIds);
  const set = (type: AssignmentType, key: string) => props.onChange({ ...props.value, [type]: key || null });
  return (
    <fieldset className="transitions">
      <legend>{t('form.transitions')}</legend>
      <p className="hint">{t('form.transitionsHint')}</p>
      {!loaded && <p role="status">{t('common:loading')}</p>}
      <div className="form-grid" hidden={!loaded}>
        {ASSIGNMENT_TYPES.map((type) => {
          const current = props.value[type] ?? '';
          if (names.size === 0) {
            return (
              <label key={type}>
                {t('form.transitionKey', { type: t(`type.${type}`) })}
                <input
                  value={current}
                  maxLength={64}
                  onChange={(event) => set(type, event.target.value.trim())}
                />
              </label>
            );
          }
          const keys = [...names.keys()];
          if (current && !names.has(current)) keys.push(current);
          return (
            <Choice
              key={type}
              label={t(`type.${type}`)}
              value={current}
              empty={t('form.noTransition')}
              options={keys.map((key) => ({ value: key, label: names.get(key) ?? key }))}
              onChange={(key) => set(type, key)}
            />
          );
        })}
      </div>
    </fieldset>
  );
}
