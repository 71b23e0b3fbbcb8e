import { useTranslation } from 'react-i18next';
import './editor.css';
import { useId } from 'react';
import type { Dictionary } from '../data';
import { type Draft, type DraftTerm, newTerm } from './concept-draft';
import { namesOf } from './concept-text';
import { DomainsEditor } from './DomainsEditor';
import { type EditorProblems, linkProblems } from './editor-problems';
import { FieldInputs, Problems } from './FieldValues';
import { LanguageFieldsEditor } from './LanguageFieldsEditor';
import { RefLinksEditor } from './RefLinksEditor';
import { RelationsEditor } from './RelationsEditor';

const none = new Map<string, string[]>();

/**
 * The form of a concept: section, domains, concept fields (every value) and their reference links,
 * terms with their language, fields and links, the language values, then the relations. The server's messages appear beside
 * what they name; the rest above the form.
 */
export function ConceptEditor(props: {
  dictionary: Dictionary;
  draft: Draft;
  problems: EditorProblems;
  onChange: (draft: Draft) => void;
  /** The concept edited (none while creating one): left out of the concepts a relation may point to. */
  conceptId?: number;
  /** Languages the labels of related concepts are taken from. */
  languages?: string[];
}) {
  const { t } = useTranslation('concept');
  const { dictionary, draft, problems, onChange, conceptId } = props;
  const names = namesOf(dictionary);
  const languages = (dictionary.languages ?? []).filter((l) => !l.deleted);
  const labelLanguages = props.languages ?? languages.map((l) => l.code);
  const setTerm = (index: number, term: Partial<DraftTerm>) =>
    onChange({ ...draft, terms: draft.terms.map((t, k) => (k === index ? { ...t, ...term } : t)) });
  const base = useId();

  return (
    <div className="stack editor">
      <label>
        {t('editor.section')}
        <select
          value={draft.sectionOid}
          onChange={(e) => onChange({ ...draft, sectionOid: e.target.value })}
          required
        >
          <option value="">{t('editor.chooseSection')}</option>
          {(dictionary.sections ?? []).map((s) => (
            <option key={s.oid} value={s.oid ?? ''}>
              {s.name}
            </option>
          ))}
        </select>
      </label>
      <DomainsEditor
        dictionary={dictionary}
        chosen={draft.domainList}
        problems={problems.domains}
        onChange={(domainList) => onChange({ ...draft, domainList })}
      />
      <FieldInputs
        fields={dictionary.conceptFields ?? []}
        dictionaryId={dictionary.id}
        values={draft.fieldMap}
        problems={problems.fields}
        onChange={(fieldMap) => onChange({ ...draft, fieldMap })}
      />
      {(dictionary.conceptFields ?? []).length > 0 && (
        <RefLinksEditor
          dictionary={dictionary}
          fields={dictionary.conceptFields ?? []}
          values={draft.fieldMap}
          links={draft.refLinks}
          languages={labelLanguages}
          conceptId={conceptId}
          problems={linkProblems(problems, 'concept', draft.refLinks)}
          onChange={(refLinks) => onChange({ ...draft, refLinks })}
        />
      )}
      <h2>{t('tabs.terms')}</h2>
      {draft.terms.map((term, index) => {
        const errorId = `${base}-term-${index}-error`;
        const termProblems = problems.terms.get(index);
        const owner = term.name || t('editor.newTermN', { n: index + 1 });
        return (
          <fieldset key={term.key} className="card">
            <legend>{term.name || t('editor.newTerm')}</legend>
            <div className="editor-term">
              <label>
                {t('editor.language')}
                <select
                  value={term.languageCode}
                  onChange={(e) => setTerm(index, { languageCode: e.target.value })}
                >
                  {languages.map((l) => (
                    <option key={l.code} value={l.code}>
                      {names.language(l.code)}
                    </option>
                  ))}
                </select>
              </label>
              <label>
                {t('editor.term')}
                <input
                  value={term.name}
                  aria-invalid={termProblems ? true : undefined}
                  aria-describedby={termProblems ? errorId : undefined}
                  onChange={(e) => setTerm(index, { name: e.target.value })}
                />
              </label>
              <button
                type="button"
                className="danger"
                onClick={() => onChange({ ...draft, terms: draft.terms.filter((_, k) => k !== index) })}
              >
                {t('editor.removeTerm')}
              </button>
            </div>
            <Problems id={errorId} list={termProblems} />
            <FieldInputs
              fields={dictionary.termFields ?? []}
              dictionaryId={dictionary.id}
              values={term.fieldMap}
              problems={problems.termFields?.get(index) ?? none}
              owner={owner}
              onChange={(fieldMap) => setTerm(index, { fieldMap })}
            />
            {(dictionary.termFields ?? []).length > 0 && (
              <RefLinksEditor
                dictionary={dictionary}
                fields={dictionary.termFields ?? []}
                values={term.fieldMap}
                links={term.refLinks}
                languages={labelLanguages}
                conceptId={conceptId}
                term={owner}
                problems={linkProblems(problems, String(index), term.refLinks)}
                onChange={(refLinks) => setTerm(index, { refLinks })}
              />
            )}
          </fieldset>
        );
      })}
      <div className="actions">
        <button
          type="button"
          onClick={() =>
            onChange({ ...draft, terms: [...draft.terms, newTerm(languages[0]?.code ?? 'eng')] })
          }
        >
          {t('editor.addTerm')}
        </button>
      </div>
      <LanguageFieldsEditor
        dictionary={dictionary}
        rows={draft.languageFields}
        problems={problems.languageFields}
        onChange={(languageFields) => onChange({ ...draft, languageFields })}
      />
      <RelationsEditor
        dictionary={dictionary}
        conceptId={conceptId}
        languages={labelLanguages}
        relations={draft.relations}
        problems={problems.relations}
        endProblems={problems.relationEnds}
        onChange={(relations) => onChange({ ...draft, relations })}
      />
    </div>
  );
}
