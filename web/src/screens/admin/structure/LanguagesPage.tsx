import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Check, Choice } from '../../../components/controls';
import type { AdminPageProps } from '../admin-page';
import { DictionaryFrame, useStructureDraft } from './DictionaryFrame';
import type { FullDictionary, LanguageInput } from './dictionary-data';
import { type FormProblems, formProblems, Problems } from './kit';

/** /admin/dictionaries/:id/languages: the dictionary's languages and their regional or script variants. */
export default function LanguagesPage({ params }: AdminPageProps) {
  return (
    <DictionaryFrame id={params.id ?? ''} tab="languages">
      {({ dictionary, reload, canEdit }) => (
        <Languages dictionary={dictionary} reload={reload} canEdit={canEdit} />
      )}
    </DictionaryFrame>
  );
}

function Languages(props: { dictionary: FullDictionary; reload: () => void; canEdit: boolean }) {
  const { t } = useTranslation('structure');
  const { draft, change, dirty, save, write, conflictDialog } = useStructureDraft(
    props.dictionary,
    props.reload,
    ['languages'],
  );
  const problems = formProblems(write.problem, 'languages');
  const [code, setCode] = useState('');
  const [custom, setCustom] = useState(false);
  const setLanguage = (index: number, next: Partial<LanguageInput>) =>
    change((d) => ({ ...d, languages: d.languages.map((l, i) => (i === index ? { ...l, ...next } : l)) }));
  const add = (event: React.FormEvent) => {
    event.preventDefault();
    const trimmed = code.trim();
    if (!trimmed) return;
    change((d) => ({ ...d, languages: [...d.languages, { code: trimmed, custom, variants: [] }] }));
    setCode('');
    setCustom(false);
  };
  return (
    <>
      {draft.languages.length === 0 && <p>{t('languages.none')}</p>}
      <ul className="structure-list" aria-label={t('tabs.languages')}>
        {draft.languages.map((language, index) => (
          <LanguageRow
            key={language.id ?? `new-${index}`}
            language={language}
            index={index}
            canEdit={props.canEdit}
            problems={problems}
            onChange={(next) => setLanguage(index, next)}
            onRemove={() => change((d) => ({ ...d, languages: d.languages.filter((_, i) => i !== index) }))}
          />
        ))}
      </ul>
      {props.canEdit && (
        <>
          <form className="card structure-form" onSubmit={add} aria-labelledby="add-language-title">
            <h2 id="add-language-title">{t('languages.add')}</h2>
            <label>
              {t('languages.code')}
              <input
                value={code}
                onChange={(e) => setCode(e.target.value)}
                maxLength={64}
                aria-describedby="language-code-hint"
              />
            </label>
            <p id="language-code-hint" className="hint">
              {t('languages.codeHint')}
            </p>
            <Check label={t('languages.custom')} checked={custom} onChange={setCustom} />
            <div className="actions">
              <button type="submit">{t('languages.addButton')}</button>
            </div>
          </form>
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
          <Problems id="languages-problems" messages={problems.general} />
          {dirty && <p className="hint">{t('unsaved')}</p>}
        </>
      )}
      {conflictDialog}
    </>
  );
}

function LanguageRow(props: {
  language: LanguageInput;
  index: number;
  canEdit: boolean;
  problems: FormProblems;
  onChange: (next: Partial<LanguageInput>) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation('structure');
  const { language, index, problems } = props;
  const path = `languages.${index}`;
  const title = language.name ? `${language.name} (${language.code})` : language.code;
  const variants = language.variants ?? [];
  const [variantCode, setVariantCode] = useState('');
  const [variantType, setVariantType] = useState('0');
  const setVariants = (next: typeof variants) => props.onChange({ variants: next });
  return (
    <li className="card" aria-label={title}>
      <h2>{title}</h2>
      <Problems id={problems.id(`${path}.code`)} messages={problems.at(`${path}.code`)} />
      <label>
        {t('languages.name')}
        <input
          value={language.name ?? ''}
          disabled={!props.canEdit}
          onChange={(e) => props.onChange({ name: e.target.value })}
          maxLength={255}
          aria-invalid={problems.describedBy(`${path}.name`) ? true : undefined}
          aria-describedby={problems.describedBy(`${path}.name`)}
        />
      </label>
      <Problems id={problems.id(`${path}.name`)} messages={problems.at(`${path}.name`)} />
      {props.canEdit ? (
        <Check
          label={t('languages.rtl')}
          checked={language.rtl ?? false}
          onChange={(rtl) => props.onChange({ rtl })}
        />
      ) : (
        language.rtl && <p>{t('languages.rtl')}</p>
      )}
      <h3>{t('languages.variants')}</h3>
      {variants.length === 0 && <p>{t('languages.noVariants')}</p>}
      <ul>
        {variants.map((variant, vi) => (
          <li key={variant.id ?? `new-${vi}`}>
            {variant.name ? `${variant.name} (${variant.code})` : variant.code}
            {' · '}
            {t(variant.type === 1 ? 'languages.script' : 'languages.region')}
            {props.canEdit && (
              <button
                type="button"
                onClick={() => setVariants(variants.filter((_, i) => i !== vi))}
                aria-label={t('languages.removeVariant', { name: variant.name || variant.code })}
              >
                {t('remove')}
              </button>
            )}
          </li>
        ))}
      </ul>
      <Problems id={problems.id(`${path}.variants`)} messages={problems.at(`${path}.variants`)} />
      {props.canEdit && (
        <fieldset className="inline-form">
          <legend>{t('languages.addVariantTo', { name: title })}</legend>
          <Choice
            label={t('languages.variantType')}
            value={variantType}
            onChange={setVariantType}
            options={[
              { value: '0', label: t('languages.region') },
              { value: '1', label: t('languages.script') },
            ]}
          />
          <label>
            {t('languages.variantCode')}
            <input value={variantCode} onChange={(e) => setVariantCode(e.target.value)} maxLength={64} />
          </label>
          <button
            type="button"
            onClick={() => {
              if (!variantCode.trim()) return;
              setVariants([...variants, { code: variantCode.trim(), type: Number(variantType) }]);
              setVariantCode('');
            }}
          >
            {t('languages.addVariant')}
          </button>
        </fieldset>
      )}
      {props.canEdit && (
        <div className="actions">
          <button type="button" onClick={props.onRemove} aria-label={t('languages.remove', { name: title })}>
            {t('remove')}
          </button>
        </div>
      )}
    </li>
  );
}
