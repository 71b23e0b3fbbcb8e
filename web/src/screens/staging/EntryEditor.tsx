import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { Dictionary } from '../../data';
import { languageName, languageOf, type StagedContent, type StagedValue } from './staging-data';

/**
 * The form of a staged entry in the import's entry model (docs/staging.md): concept values, languages
 * with their values and terms, each term with its values. A value is named by a field of the dictionary
 * (offered in a list) or a TBX data category, as the import maps them. The concept editor edits stored
 * concepts by field oid; a staged entry is not one yet, so this form keeps the model the merge reads.
 */
export function EntryEditor(props: {
  content: StagedContent;
  dictionary?: Dictionary;
  onChange: (content: StagedContent) => void;
  /** Names the form's controls apart from another editor on the page. */
  label: string;
}) {
  const { t } = useTranslation('staging');
  const { content, dictionary, onChange } = props;
  const listId = useId();
  const languages = (dictionary?.languages ?? []).filter((l) => !l.deleted);
  const fieldNames = [
    ...new Set([...(dictionary?.conceptFields ?? []), ...(dictionary?.termFields ?? [])].map((f) => f.name)),
  ];
  const setSection = (index: number, section: StagedContent['languages'][number]) =>
    onChange({ ...content, languages: content.languages.map((s, k) => (k === index ? section : s)) });
  const unused = languages.find(
    (l) => !content.languages.some((s) => languageOf(dictionary, s.lang)?.code === l.code),
  );

  return (
    <fieldset className="entry-editor stack">
      <legend>{props.label}</legend>
      <datalist id={listId}>
        {fieldNames.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      <ValueRows
        legend={t('editor.conceptValues')}
        values={content.values}
        listId={listId}
        onChange={(values) => onChange({ ...content, values })}
      />
      {content.languages.map((section, index) => {
        const language = languageName(dictionary, section.lang);
        const known = languageOf(dictionary, section.lang)?.code;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: sections have no identity but order
          <fieldset key={index} className="card stack">
            <legend>{language}</legend>
            <label>
              {t('editor.language')}
              <select
                value={known ?? section.lang}
                onChange={(e) => setSection(index, { ...section, lang: e.target.value })}
              >
                {!known && <option value={section.lang}>{section.lang}</option>}
                {languages.map((l) => (
                  <option key={l.code} value={l.code}>
                    {l.name}
                  </option>
                ))}
              </select>
            </label>
            {section.terms.map((term, k) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: terms have no identity but order
              <div key={k} className="entry-term stack">
                <div className="inline-form">
                  <label>
                    {t('editor.term', { language })}
                    <input
                      value={term.term}
                      onChange={(e) =>
                        setSection(index, {
                          ...section,
                          terms: section.terms.map((x, j) => (j === k ? { ...x, term: e.target.value } : x)),
                        })
                      }
                    />
                  </label>
                  <button
                    type="button"
                    className="danger"
                    onClick={() =>
                      setSection(index, { ...section, terms: section.terms.filter((_, j) => j !== k) })
                    }
                  >
                    {t('editor.removeTerm')}
                    <span className="visually-hidden"> {term.term || t('editor.newTerm')}</span>
                  </button>
                </div>
                <ValueRows
                  legend={t('editor.termValues', { term: term.term || t('editor.newTerm') })}
                  values={term.values}
                  listId={listId}
                  onChange={(values) =>
                    setSection(index, {
                      ...section,
                      terms: section.terms.map((x, j) => (j === k ? { ...x, values } : x)),
                    })
                  }
                />
              </div>
            ))}
            <ValueRows
              legend={t('editor.languageValues', { language })}
              values={section.values}
              listId={listId}
              onChange={(values) => setSection(index, { ...section, values })}
            />
            <div className="actions">
              <button
                type="button"
                onClick={() =>
                  setSection(index, {
                    ...section,
                    terms: [...section.terms, { id: null, term: '', values: [] }],
                  })
                }
              >
                {t('editor.addTerm', { language })}
              </button>
              <button
                type="button"
                className="danger"
                onClick={() =>
                  onChange({ ...content, languages: content.languages.filter((_, k) => k !== index) })
                }
              >
                {t('editor.removeLanguage', { language })}
              </button>
            </div>
          </fieldset>
        );
      })}
      {unused && (
        <div className="actions">
          <button
            type="button"
            onClick={() =>
              onChange({
                ...content,
                languages: [
                  ...content.languages,
                  { lang: unused.code, values: [], terms: [{ id: null, term: '', values: [] }] },
                ],
              })
            }
          >
            {t('editor.addLanguage')}
          </button>
        </div>
      )}
    </fieldset>
  );
}

/** Rows of category and value, with a button to add one and one to remove each. */
function ValueRows(props: {
  legend: string;
  values: StagedValue[];
  listId: string;
  onChange: (values: StagedValue[]) => void;
}) {
  const { t } = useTranslation('staging');
  const { values, onChange } = props;
  const set = (index: number, change: Partial<StagedValue>) =>
    onChange(values.map((v, k) => (k === index ? { ...v, ...change } : v)));
  return (
    <fieldset className="value-rows">
      <legend>{props.legend}</legend>
      {values.map((value, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: values have no identity but order
        <div key={index} className="value-row">
          <label>
            {t('editor.category')}
            <input
              list={props.listId}
              value={value.category}
              onChange={(e) => set(index, { category: e.target.value })}
            />
          </label>
          <label>
            {t('editor.value')}
            <textarea rows={1} value={value.value} onChange={(e) => set(index, { value: e.target.value })} />
          </label>
          <button
            type="button"
            className="danger"
            onClick={() => onChange(values.filter((_, k) => k !== index))}
          >
            {t('editor.removeValue')}
            <span className="visually-hidden"> {value.category}</span>
          </button>
        </div>
      ))}
      <button type="button" onClick={() => onChange([...values, { category: '', value: '' }])}>
        {t('editor.addValue')}
        <span className="visually-hidden"> ({props.legend})</span>
      </button>
    </fieldset>
  );
}
