import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { Dictionary } from '../data';
import { AttachmentInput } from './Attachments';

export type Fields = NonNullable<Dictionary['conceptFields']>;
type Field = Fields[number];

/** Problems shown under a control, referenced by its aria-describedby. */
export function Problems({ id, list }: { id: string; list?: string[] }) {
  if (!list?.length) return null;
  return (
    <div id={id}>
      {list.map((text) => (
        <p key={text} className="field-error">
          {text}
        </p>
      ))}
    </div>
  );
}

/** The values a PICKLIST or MULTISELECT field may take: its items' names (the TBX name where none). */
function choicesOf(field: Field): string[] {
  return (field.model?.picklistItems ?? [])
    .map((item) => item.name || item.tbxName || '')
    .filter((name) => name !== '');
}

/** One control for one value, by the field's type. */
function ValueControl(props: {
  field: Field;
  value: string;
  label: string;
  invalid: boolean;
  describedBy?: string;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation('concept');
  const { field, value, label, invalid, describedBy, onChange } = props;
  const common = {
    'aria-label': label,
    'aria-invalid': invalid ? true : undefined,
    'aria-describedby': describedBy,
  } as const;
  const type = field.fieldType;
  if (type === 'PICKLIST' || type === 'MULTISELECT') {
    const choices = choicesOf(field);
    return (
      <select {...common} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{t('fields.none')}</option>
        {/* A stored value the picklist no longer has stays choosable, so it is not lost unseen. */}
        {[...choices, ...(value && !choices.includes(value) ? [value] : [])].map((choice) => (
          <option key={choice} value={choice}>
            {choice}
          </option>
        ))}
      </select>
    );
  }
  if (type === 'MULTILINE' || type === 'SINGLELINE') {
    return (
      <textarea
        {...common}
        rows={type === 'MULTILINE' ? 3 : 1}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    );
  }
  return (
    <input
      {...common}
      type={type === 'DATE' ? 'date' : 'text'}
      inputMode={type === 'NUMBER' || type === 'INCREMENTAL' ? 'decimal' : undefined}
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

/**
 * The fields of one entry (the concept or a term), every value of each: a MULTISELECT field adds and
 * removes values; any field holding several values (an import may leave them) shows and removes each.
 * The server's messages naming a field appear beside it.
 */
export function FieldInputs(props: {
  fields: Fields;
  values: Record<string, string[]>;
  problems: Map<string, string[]>;
  /** Names the entry in the labels of the buttons ("Add value to Tags of valve"). */
  owner?: string;
  /** Where ATTACHMENT fields upload their files. */
  dictionaryId?: number;
  onChange: (values: Record<string, string[]>) => void;
}) {
  const { t } = useTranslation('concept');
  const { fields, values, problems, owner, dictionaryId, onChange } = props;
  const base = useId();
  // The field named with the entry it belongs to ("Tags of valve"), so labels of several entries differ.
  const named = (field: string) => (owner ? t('fields.of', { field, owner }) : field);
  return (
    <>
      {fields.map((field) => {
        const oid = field.oid ?? '';
        const stored = values[oid] ?? [];
        const shown = stored.length ? stored : [''];
        const errorId = `${base}-${oid}-error`;
        const fieldProblems = problems.get(oid);
        const multi = field.fieldType === 'MULTISELECT';
        const set = (list: string[]) => onChange({ ...values, [oid]: list });
        if (field.fieldType === 'ATTACHMENT') {
          return (
            <fieldset key={oid} className="field-values">
              <legend>{field.name}</legend>
              {dictionaryId !== undefined && (
                <AttachmentInput
                  dictionaryId={dictionaryId}
                  label={named(field.name)}
                  keys={stored}
                  invalid={!!fieldProblems}
                  describedBy={fieldProblems ? errorId : undefined}
                  onChange={set}
                />
              )}
              <Problems id={errorId} list={fieldProblems} />
            </fieldset>
          );
        }
        return (
          <fieldset key={oid} className="field-values">
            <legend>{field.name}</legend>
            {shown.map((value, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: values are edited in place; their order is their identity.
              <div key={index} className="field-value">
                <ValueControl
                  field={field}
                  value={value}
                  label={
                    shown.length > 1
                      ? t('fields.valueN', { field: named(field.name), n: index + 1 })
                      : named(field.name)
                  }
                  invalid={!!fieldProblems}
                  describedBy={fieldProblems ? errorId : undefined}
                  onChange={(next) => set(shown.map((v, k) => (k === index ? next : v)))}
                />
                {(multi || shown.length > 1) && (
                  <button
                    type="button"
                    className="danger"
                    aria-label={t('fields.removeN', { field: named(field.name), n: index + 1 })}
                    onClick={() => set(shown.filter((_, k) => k !== index))}
                  >
                    {t('fields.remove')}
                  </button>
                )}
              </div>
            ))}
            {multi && (
              <button
                type="button"
                onClick={() => set([...shown, ''])}
                aria-label={t('fields.addTo', { field: named(field.name) })}
              >
                {t('fields.add')}
              </button>
            )}
            <Problems id={errorId} list={fieldProblems} />
          </fieldset>
        );
      })}
    </>
  );
}
