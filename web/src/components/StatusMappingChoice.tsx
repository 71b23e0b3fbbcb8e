import { useTranslation } from 'react-i18next';
import { Choice } from './controls';

/** TBX-Basic's four administrative statuses and Polyterm's term statuses (docs/tbx.md). */
export const ADMINISTRATIVE_STATUSES = [
  'preferredTerm',
  'admittedTerm',
  'deprecatedTerm',
  'supersededTerm',
] as const;
const TERM_STATUSES = ['preferred', 'admitted', 'deprecated', 'forbidden'] as const;

export type StatusChoice = Partial<Record<(typeof ADMINISTRATIVE_STATUSES)[number], string>>;

/** The REST form of the chosen statuses (`deprecatedTerm:forbidden,…`); empty when none is chosen. */
export const statusMappingParam = (choice: StatusChoice) =>
  Object.entries(choice)
    .filter(([, status]) => status)
    .map(([from, to]) => `${from}:${to}`)
    .join(',');

/**
 * Which term status each TBX administrative status of the file stands for (memoQ and Pontoon write
 * forbidden terms as deprecated ones); optional and collapsed: unchosen statuses keep the dictionary's rule.
 */
export function StatusMappingChoice(props: { value: StatusChoice; onChange: (value: StatusChoice) => void }) {
  const { t } = useTranslation('tbx');
  const { value, onChange } = props;
  return (
    <details className="status-mapping">
      <summary>{t('import.statusMapping.title')}</summary>
      <p>{t('import.statusMapping.hint')}</p>
      {ADMINISTRATIVE_STATUSES.map((status) => (
        <Choice
          key={status}
          label={t(`import.statusMapping.from.${status}`)}
          value={value[status] ?? ''}
          empty={t('import.statusMapping.default')}
          options={TERM_STATUSES.map((termStatus) => ({
            value: termStatus,
            label: t(`import.statusMapping.to.${termStatus}`),
          }))}
          onChange={(chosen) => onChange({ ...value, [status]: chosen })}
        />
      ))}
    </details>
  );
}
