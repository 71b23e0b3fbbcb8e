/** The definition import's later steps: what the file holds, and the mapping its filters may need. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { trpc } from '../../../api';
import { Choice } from '../../../components/controls';

type Started = Awaited<ReturnType<typeof trpc.dictionaryDefinitions.importStart.mutate>>;
export type Summary = NonNullable<Started['summary']>;
type FilterAnswer = Awaited<ReturnType<typeof trpc.dictionaryDefinitions.processFilter.mutate>>;
export type FilterValidation = Extract<FilterAnswer, { missingUsers: unknown }>;

/** The file's contents by name, before anything is written. */
export function DefinitionSummaryList({ summary }: { summary: Summary }) {
  const { t } = useTranslation('structure');
  const none = t('import.none');
  const rows: [string, string][] = [
    [t('import.summary.name'), summary.name],
    [t('import.summary.languages'), summary.languages.join(', ') || none],
    [t('import.summary.conceptFields'), summary.conceptFields.join(', ') || none],
    [t('import.summary.termFields'), summary.termFields.join(', ') || none],
    [t('import.summary.sections'), summary.sections.join(', ') || none],
    [t('import.summary.domains'), String(summary.domains)],
    [t('import.summary.views'), summary.views.join(', ') || none],
    [t('import.summary.filters'), summary.filters.join(', ') || none],
  ];
  return (
    <dl className="definition-summary" aria-label={t('import.summary.title')}>
      {rows.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

const KINDS = [
  ['missingUsers', 'existingUsers', 'userMapping'],
  ['missingGroups', 'existingGroups', 'groupMapping'],
  ['missingConceptFields', 'existingConceptFields', 'conceptFieldsMapping'],
  ['missingTermFields', 'existingTermFields', 'termFieldsMapping'],
] as const;

export type Mappings = Record<(typeof KINDS)[number][2], Record<string, number>>;

/**
 * The users, groups and fields the filters name that the target lacks: each mapped to one that exists,
 * or skipped (the filters needing it are left out).
 */
export function FilterMapping(props: {
  validation: FilterValidation;
  busy: boolean;
  onSubmit: (mappings: Mappings) => void;
}) {
  const { t } = useTranslation('structure');
  const [chosen, setChosen] = useState<Record<string, string>>({});
  const { validation } = props;
  const submit = () => {
    const mappings: Mappings = {
      userMapping: {},
      groupMapping: {},
      conceptFieldsMapping: {},
      termFieldsMapping: {},
    };
    for (const [missing, , mapping] of KINDS) {
      for (const item of validation[missing]) {
        const key = item.oid ?? item.name;
        mappings[mapping][key] = Number(chosen[`${mapping}:${key}`] ?? '0');
      }
    }
    props.onSubmit(mappings);
  };
  return (
    <fieldset className="card structure-form">
      <legend>{t('import.mappingStep')}</legend>
      <p>{t('import.mappingText')}</p>
      {KINDS.flatMap(([missing, existing, mapping]) =>
        validation[missing].map((item) => {
          const key = `${mapping}:${item.oid ?? item.name}`;
          return (
            <Choice
              key={key}
              label={t(`import.missing.${mapping}`, { name: item.name })}
              value={chosen[key] ?? '0'}
              onChange={(value) => setChosen({ ...chosen, [key]: value })}
              options={validation[existing].map((choice) => ({
                value: String(choice.id ?? 0),
                label: choice.skip ? t('import.skip') : choice.name,
              }))}
            />
          );
        }),
      )}
      <div className="actions">
        <button type="button" className="primary" disabled={props.busy} onClick={submit}>
          {t('import.writeFilters')}
        </button>
      </div>
    </fieldset>
  );
}
