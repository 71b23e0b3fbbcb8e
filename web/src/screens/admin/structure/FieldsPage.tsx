import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { trpc } from '../../../api';
import { Check, Choice } from '../../../components/controls';
import { useLoaded } from '../../../data';
import type { AdminPageProps } from '../admin-page';
import { DictionaryFrame, useStructureDraft } from './DictionaryFrame';
import type { FieldInput, FullDictionary, Structure } from './dictionary-data';
import { type FormProblems, formProblems, Problems } from './kit';

const FIELD_TYPES = [
  'SINGLELINE',
  'MULTILINE',
  'NUMBER',
  'DATE',
  'PICKLIST',
  'MULTISELECT',
  'INCREMENTAL',
  'ATTACHMENT',
] as const;
type Level = 'conceptFields' | 'termFields';
type Categories = Awaited<ReturnType<typeof trpc.dictionaries.dataCategories.query>>;

/** /admin/dictionaries/:id/fields: concept and term fields, their checks and picklists. */
export default function FieldsPage({ params }: AdminPageProps) {
  return (
    <DictionaryFrame id={params.id ?? ''} tab="fields">
      {({ dictionary, reload, canEdit }) => (
        <Fields dictionary={dictionary} reload={reload} canEdit={canEdit} />
      )}
    </DictionaryFrame>
  );
}

function Fields(props: { dictionary: FullDictionary; reload: () => void; canEdit: boolean }) {
  const { t } = useTranslation('structure');
  const { draft, change, dirty, save, write, conflictDialog } = useStructureDraft(
    props.dictionary,
    props.reload,
    ['conceptFields', 'termFields'],
  );
  const categories = useLoaded(() => trpc.dictionaries.dataCategories.query(), 'categories').data ?? [];
  const problems = formProblems(write.problem, 'fields');
  return (
    <>
      {(['conceptFields', 'termFields'] as const).map((level) => (
        <FieldGroup
          key={level}
          level={level}
          draft={draft}
          categories={categories}
          canEdit={props.canEdit}
          problems={problems}
          onChange={(fields) => change((d) => ({ ...d, [level]: fields }))}
        />
      ))}
      {props.canEdit && (
        <>
          <div className="actions">
            <button
              type="button"
              className="primary"
              disabled={!dirty || write.busy}
              onClick={() => void save()}
            >
              {t('save')}
            </button>
          </div>
          <Problems id="fields-problems" messages={problems.general} />
          {dirty && <p className="hint">{t('unsaved')}</p>}
        </>
      )}
      {conflictDialog}
    </>
  );
}

function FieldGroup(props: {
  level: Level;
  draft: Structure;
  categories: Categories;
  canEdit: boolean;
  problems: FormProblems;
  onChange: (fields: FieldInput[]) => void;
}) {
  const { t } = useTranslation('structure');
  const fields = props.draft[props.level];
  const [name, setName] = useState('');
  const [fieldType, setFieldType] = useState<FieldInput['fieldType']>('SINGLELINE');
  const headingId = `${props.level}-title`;
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{t(`fields.${props.level}`)}</h2>
      {fields.length === 0 && <p>{t('fields.none')}</p>}
      <ul className="structure-list">
        {fields.map((field, index) => (
          <FieldCard
            key={field.id ?? `new-${index}`}
            field={field}
            path={`${props.level}.${index}`}
            categories={props.categories.filter((c) =>
              c.levels.includes(props.level === 'conceptFields' ? 'CONCEPT' : 'TERM'),
            )}
            canEdit={props.canEdit}
            problems={props.problems}
            onChange={(next) => props.onChange(fields.map((f, i) => (i === index ? next : f)))}
            onRemove={() => props.onChange(fields.filter((_, i) => i !== index))}
          />
        ))}
      </ul>
      {props.canEdit && (
        <form
          className="inline-form"
          aria-label={t(`fields.add.${props.level}`)}
          onSubmit={(event) => {
            event.preventDefault();
            if (!name.trim()) return;
            props.onChange([...fields, { name: name.trim(), fieldType, dataCategory: 'GENERIC' }]);
            setName('');
          }}
        >
          <label>
            {t('fields.name')}
            <input value={name} onChange={(e) => setName(e.target.value)} maxLength={255} />
          </label>
          <Choice
            label={t('fields.type')}
            value={fieldType}
            onChange={(value) => setFieldType(value as FieldInput['fieldType'])}
            options={FIELD_TYPES.map((type) => ({ value: type, label: t(`fieldTypes.${type}`) }))}
          />
          <button type="submit">{t(`fields.add.${props.level}`)}</button>
        </form>
      )}
    </section>
  );
}

function FieldCard(props: {
  field: FieldInput;
  path: string;
  categories: Categories;
  canEdit: boolean;
  problems: FormProblems;
  onChange: (field: FieldInput) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation('structure');
  const { field, path, problems, canEdit } = props;
  const model = field.model ?? {
    required: false,
    minLen: 0,
    maxLen: 0,
    number: false,
    unicode: false,
    picklistItems: [],
  };
  const setModel = (next: Partial<typeof model>) =>
    props.onChange({ ...field, model: { ...model, ...next } });
  const items = model.picklistItems ?? [];
  const [item, setItem] = useState('');
  const picklist = field.fieldType === 'PICKLIST' || field.fieldType === 'MULTISELECT';
  const described = (at: string) => ({
    'aria-invalid': problems.describedBy(`${path}.${at}`) ? true : undefined,
    'aria-describedby': problems.describedBy(`${path}.${at}`),
  });
  return (
    <li className="card" aria-label={field.name || t('fields.unnamed')}>
      <label>
        {t('fields.name')}
        <input
          value={field.name}
          disabled={!canEdit}
          maxLength={255}
          onChange={(e) => props.onChange({ ...field, name: e.target.value })}
          {...described('name')}
        />
      </label>
      <Problems id={problems.id(`${path}.name`)} messages={problems.at(`${path}.name`)} />
      <Choice
        label={t('fields.type')}
        value={field.fieldType}
        disabled={!canEdit || field.id !== undefined}
        onChange={(value) => props.onChange({ ...field, fieldType: value as FieldInput['fieldType'] })}
        options={FIELD_TYPES.map((type) => ({ value: type, label: t(`fieldTypes.${type}`) }))}
        describedBy={problems.describedBy(`${path}.fieldType`)}
      />
      <Problems id={problems.id(`${path}.fieldType`)} messages={problems.at(`${path}.fieldType`)} />
      <Choice
        label={t('fields.category')}
        value={field.dataCategory ?? 'GENERIC'}
        disabled={!canEdit}
        onChange={(value) => props.onChange({ ...field, dataCategory: value as FieldInput['dataCategory'] })}
        options={[
          { value: 'GENERIC', label: t('fields.generic') },
          ...props.categories.map((category) => ({ value: category.key, label: category.name })),
        ]}
        describedBy={problems.describedBy(`${path}.dataCategory`)}
      />
      <Problems id={problems.id(`${path}.dataCategory`)} messages={problems.at(`${path}.dataCategory`)} />
      {canEdit ? (
        <Check
          label={t('fields.required')}
          checked={model.required ?? false}
          onChange={(required) => setModel({ required })}
        />
      ) : (
        model.required && <p>{t('fields.required')}</p>
      )}
      {(field.fieldType === 'SINGLELINE' || field.fieldType === 'MULTILINE') && (
        <>
          <label>
            {t('fields.maxLen')}
            <input
              type="number"
              min={0}
              value={model.maxLen ?? 0}
              disabled={!canEdit}
              onChange={(e) => setModel({ maxLen: Number(e.target.value) })}
              {...described('model.maxLen')}
            />
          </label>
          <Problems id={problems.id(`${path}.model.maxLen`)} messages={problems.at(`${path}.model.maxLen`)} />
          <label>
            {t('fields.regExp')}
            <input
              value={model.regExp ?? ''}
              disabled={!canEdit}
              maxLength={1024}
              onChange={(e) => setModel({ regExp: e.target.value || null })}
              {...described('model.regExp')}
            />
          </label>
          <Problems id={problems.id(`${path}.model.regExp`)} messages={problems.at(`${path}.model.regExp`)} />
        </>
      )}
      {picklist && (
        <fieldset>
          <legend>{t('fields.picklist')}</legend>
          {items.length === 0 && <p>{t('fields.noItems')}</p>}
          <ul>
            {items.map((entry, index) => (
              <li key={entry.id ?? `new-${index}`}>
                {entry.name || entry.tbxName}
                {canEdit && (
                  <button
                    type="button"
                    aria-label={t('fields.removeItem', { name: entry.name || entry.tbxName })}
                    onClick={() => setModel({ picklistItems: items.filter((_, i) => i !== index) })}
                  >
                    {t('remove')}
                  </button>
                )}
              </li>
            ))}
          </ul>
          {canEdit && (
            <div className="inline-form">
              <label>
                {t('fields.newItem')}
                <input value={item} onChange={(e) => setItem(e.target.value)} maxLength={255} />
              </label>
              <button
                type="button"
                onClick={() => {
                  if (!item.trim()) return;
                  setModel({ picklistItems: [...items, { name: item.trim() }] });
                  setItem('');
                }}
              >
                {t('fields.addItem')}
              </button>
            </div>
          )}
          <Problems
            id={problems.id(`${path}.model.picklistItems`)}
            messages={problems.at(`${path}.model.picklistItems`)}
          />
        </fieldset>
      )}
      {canEdit && (
        <div className="actions">
          <button
            type="button"
            onClick={props.onRemove}
            aria-label={t('fields.remove', { name: field.name })}
          >
            {t('remove')}
          </button>
        </div>
      )}
    </li>
  );
}
