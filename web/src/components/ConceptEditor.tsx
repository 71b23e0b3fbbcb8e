import { useId } from 'react';
import type { Concept, Dictionary } from '../data';
import { type FieldProblems, namesOf } from './concept-text';

export interface DraftTerm {
  key: string;
  id?: number;
  name: string;
  languageCode: string;
  regionCode: string | null;
  scriptCode: string | null;
  fieldMap: Record<string, string[]>;
  refLinks: NonNullable<Concept['terms']>[number]['refLinks'];
}

export interface Draft {
  sectionOid: string;
  fieldMap: Record<string, string[]>;
  terms: DraftTerm[];
}

let keys = 0;
export const newKey = () => `new-${++keys}`;

export function draftOf(concept: Concept): Draft {
  return {
    sectionOid: concept.sectionOid ?? '',
    fieldMap: { ...(concept.fieldMap ?? {}) },
    terms: (concept.terms ?? []).map((t) => ({
      key: `term-${t.id}`,
      id: t.id,
      name: t.name,
      languageCode: t.languageCode,
      regionCode: t.regionCode,
      scriptCode: t.scriptCode,
      fieldMap: { ...t.fieldMap },
      refLinks: t.refLinks,
    })),
  };
}

/** What the server takes: terms without the editor's keys, fields without empty values. */
export function bodyOf(draft: Draft) {
  const clean = (map: Record<string, string[]>) =>
    Object.fromEntries(
      Object.entries(map).map(([oid, values]) => [oid, values.filter((v) => v.trim() !== '')]),
    );
  return {
    sectionOid: draft.sectionOid,
    fieldMap: clean(draft.fieldMap),
    terms: draft.terms.map(({ key: _key, ...term }) => ({ ...term, fieldMap: clean(term.fieldMap) })),
  };
}

function Problems({ id, list }: { id: string; list?: string[] }) {
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

type Fields = NonNullable<Dictionary['conceptFields']>;

/** One text box per field; the first value is edited, further values of a multi-valued field stay. */
function FieldInputs(props: {
  fields: Fields;
  values: Record<string, string[]>;
  problems: FieldProblems;
  onChange: (values: Record<string, string[]>) => void;
}) {
  const { fields, values, problems, onChange } = props;
  const base = useId();
  return (
    <>
      {fields.map((field) => {
        const oid = field.oid ?? '';
        const current = values[oid] ?? [];
        const errorId = `${base}-${oid}-error`;
        const fieldProblems = problems.fields.get(oid);
        return (
          <label key={oid}>
            {field.name}
            <textarea
              rows={1}
              value={current[0] ?? ''}
              aria-invalid={fieldProblems ? true : undefined}
              aria-describedby={fieldProblems ? errorId : undefined}
              onChange={(e) => onChange({ ...values, [oid]: [e.target.value, ...current.slice(1)] })}
            />
            <Problems id={errorId} list={fieldProblems} />
          </label>
        );
      })}
    </>
  );
}

/** The form of a concept: section, concept fields, terms with their language and fields. */
export function ConceptEditor(props: {
  dictionary: Dictionary;
  draft: Draft;
  problems: FieldProblems;
  onChange: (draft: Draft) => void;
}) {
  const { dictionary, draft, problems, onChange } = props;
  const names = namesOf(dictionary);
  const languages = (dictionary.languages ?? []).filter((l) => !l.deleted);
  const setTerm = (index: number, term: Partial<DraftTerm>) =>
    onChange({ ...draft, terms: draft.terms.map((t, k) => (k === index ? { ...t, ...term } : t)) });
  const base = useId();

  return (
    <div className="stack editor">
      {problems.general.length > 0 && (
        <div role="alert" className="error">
          {problems.general.map((text) => (
            <p key={text}>{text}</p>
          ))}
        </div>
      )}
      <label>
        Section
        <select
          value={draft.sectionOid}
          onChange={(e) => onChange({ ...draft, sectionOid: e.target.value })}
          required
        >
          <option value="">Choose a section</option>
          {(dictionary.sections ?? []).map((s) => (
            <option key={s.oid} value={s.oid ?? ''}>
              {s.name}
            </option>
          ))}
        </select>
      </label>
      <FieldInputs
        fields={dictionary.conceptFields ?? []}
        values={draft.fieldMap}
        problems={problems}
        onChange={(fieldMap) => onChange({ ...draft, fieldMap })}
      />
      <h2>Terms</h2>
      {draft.terms.map((term, index) => {
        const errorId = `${base}-term-${index}-error`;
        const termProblems = problems.terms.get(index);
        return (
          <fieldset key={term.key} className="card">
            <legend>{term.name || 'New term'}</legend>
            <div className="editor-term">
              <label>
                Language
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
                Term
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
                Remove term
              </button>
            </div>
            <Problems id={errorId} list={termProblems} />
            <FieldInputs
              fields={dictionary.termFields ?? []}
              values={term.fieldMap}
              problems={problems}
              onChange={(fieldMap) => setTerm(index, { fieldMap })}
            />
          </fieldset>
        );
      })}
      <div className="actions">
        <button
          type="button"
          onClick={() =>
            onChange({
              ...draft,
              terms: [
                ...draft.terms,
                {
                  key: newKey(),
                  name: '',
                  languageCode: languages[0]?.code ?? 'eng',
                  regionCode: null,
                  scriptCode: null,
                  fieldMap: {},
                  refLinks: [],
                },
              ],
            })
          }
        >
          Add term
        </button>
      </div>
    </div>
  );
}
