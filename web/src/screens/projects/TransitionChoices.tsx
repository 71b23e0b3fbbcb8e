import { useTranslation } from 'react-i18next';
import { Choice, ErrorMessage } from '../../components/controls';
import { ASSIGNMENT_TYPES, type AssignmentType } from './project-data';
import { useTransitionNames } from './state-names';

export type Transitions = Partial<Record<AssignmentType, string | null>>;

/**
 * The workflow transition completing an assignment of each type fires (docs/projects.md, `transitions`):
 * chosen among the transitions of the enabled workflows of the project's dictionaries, or typed as a key
 * where the caller reads none of their workflows (not while they load, nor when reading them failed). A
 * key no workflow names any more stays offered, so that saving does not drop it unseen.
 */
export function TransitionChoices(props: {
  dictionaryIds: readonly number[];
  value: Transitions;
  onChange: (value: Transitions) => void;
}) {
  const { t } = useTranslation('project');
  const { names, loaded, error } = useTransitionNames(props.dictionaryIds);
  const set = (type: AssignmentType, key: string) => props.onChange({ ...props.value, [type]: key || null });
  return (
    <fieldset className="transitions">
      <legend>{t('form.transitions')}</legend>
      <p className="hint">{t('form.transitionsHint')}</p>
      {/* Not even hidden while loading: typed-key inputs are only for workflows known to name none. */}
      {!loaded && !error && <p role="status">{t('common:loading')}</p>}
      <ErrorMessage text={error?.message} />
      {loaded && (
        <div className="form-grid">
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
      )}
    </fieldset>
  );
}
