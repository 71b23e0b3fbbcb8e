import { useTranslation } from 'react-i18next';
import { Choice } from '../../components/controls';
import { MERGE_MODES } from './staging-data';

/** How accepted entries go in: the merge mode and, with a workflow, the state they start in. */
export interface AcceptChoice {
  merge: string;
  workflowState: string;
}

export function AcceptOptions(props: {
  value: AcceptChoice;
  onChange: (value: AcceptChoice) => void;
  states: { key: string; name: string }[] | undefined;
}) {
  const { t } = useTranslation('staging');
  const { value, onChange, states } = props;
  return (
    <>
      <Choice
        label={t('accept.merge')}
        value={value.merge}
        empty={t('accept.mergeAsStaged')}
        options={MERGE_MODES.map((mode) => ({ value: mode, label: t(`merge.${mode}`) }))}
        onChange={(merge) => onChange({ ...value, merge })}
      />
      {states && states.length > 0 && (
        <Choice
          label={t('accept.workflowState')}
          value={value.workflowState}
          empty={t('accept.initialState')}
          options={states.map((state) => ({ value: state.key, label: state.name }))}
          onChange={(workflowState) => onChange({ ...value, workflowState })}
        />
      )}
    </>
  );
}

/** The accept call's members from the choice: left out where the server's default is meant. */
export const acceptInput = (choice: AcceptChoice) => ({
  merge: (choice.merge || undefined) as 'ENTRY_ID' | 'TERM' | 'NONE' | undefined,
  workflowState: choice.workflowState || undefined,
});
