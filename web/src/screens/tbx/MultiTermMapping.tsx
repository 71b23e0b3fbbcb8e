/**
 * The MultiTerm import's mapping step (issue 39, docs/exchange.md "MultiTerm XML"): an XML file (or a zip
 * of it and its .xdt, or the XML with its .xdt beside it) goes to the preview call, which answers its
 * indexes and descriptive fields with a proposed target each: a TBX data category, a field of its own
 * name, or nothing. The person corrects the proposal; the import sends it as `field-mapping`. A file the
 * preview finds to be no MultiTerm XML (TBX) shows nothing: it is imported as it is.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemOf, rest } from '../../api';
import { Choice, ErrorMessage } from '../../components/controls';

/** TBX data categories a MultiTerm field commonly stands for (tbx/field-names.ts proposes them). */
const CATEGORIES = [
  'definition',
  'note',
  'source',
  'context',
  'subjectField',
  'partOfSpeech',
  'grammaticalGender',
  'termType',
  'administrativeStatus',
  'register',
  'usageNote',
  'externalCrossReference',
] as const;
const IGNORE = '-';
const OWN = '+';

export interface FieldTarget {
  name: string;
  field: string | null;
}
interface Preview {
  definition: boolean;
  name: string | null;
  entries: number;
  languages: { lang: string; name: string; terms: number }[];
  fields: { name: string; type: string; levels: string[]; values: number; samples: string[] }[];
  mapping: FieldTarget[];
}

/** Files that may be MultiTerm XML: the preview tells. */
export function mayBeMultiTerm(file: File | null): file is File {
  return file !== null && /\.(xml|mtf|zip)$/i.test(file.name);
}

export function MultiTermMapping(props: {
  file: File;
  definition: File | null;
  onChange: (mapping: FieldTarget[] | null) => void;
}) {
  const { file, definition, onChange } = props;
  const { t } = useTranslation('tbx');
  const [preview, setPreview] = useState<Preview | null>(null);
  const [mapping, setMapping] = useState<FieldTarget[] | null>(null);
  const [notMultiTerm, setNotMultiTerm] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    setError(null);
    setNotMultiTerm(false);
    const body = new FormData();
    body.set('file', file);
    if (definition) body.set('definition', definition);
    rest('/dictionaries/import-multiterm/preview', { method: 'POST', body })
      .then((response) => response.json() as Promise<Preview>)
      .then((answer) => {
        if (!current) return;
        setPreview(answer);
        setMapping(answer.mapping);
      })
      .catch((caught) => {
        if (!current) return;
        const problem = problemOf(caught).message;
        setPreview(null);
        setMapping(null);
        // A TBX file: no mapping step, the import reads it as it is.
        if (problem.startsWith('Not MultiTerm XML')) setNotMultiTerm(true);
        else setError(problem);
      });
    return () => {
      current = false;
    };
  }, [file, definition]);

  useEffect(() => onChange(mapping), [mapping, onChange]);

  if (notMultiTerm) return null;
  if (error) return <ErrorMessage text={error} />;
  if (!preview || !mapping) return <p role="status">{t('multiterm.reading')}</p>;

  const setTarget = (name: string, field: string | null) =>
    setMapping(mapping.map((entry) => (entry.name === name ? { name, field } : entry)));

  return (
    <fieldset className="stack" aria-describedby="multiterm-found">
      <legend>{t('multiterm.title')}</legend>
      <p id="multiterm-found" role="status">
        {preview.definition
          ? t('multiterm.foundWithDefinition', { entries: preview.entries, name: preview.name ?? '' })
          : t('multiterm.found', { entries: preview.entries })}
      </p>
      <div className="table-scroll">
        <table className="results">
          <caption>{t('multiterm.languages')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('multiterm.index')}</th>
              <th scope="col">{t('multiterm.code')}</th>
              <th scope="col">{t('multiterm.terms')}</th>
            </tr>
          </thead>
          <tbody>
            {preview.languages.map((language) => (
              <tr key={language.lang}>
                <td>{language.name}</td>
                <td>{language.lang}</td>
                <td>{language.terms}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {preview.fields.map((field) => {
        const target = mapping.find((entry) => entry.name === field.name)?.field ?? null;
        const choice =
          target === null ? IGNORE : (CATEGORIES as readonly string[]).includes(target) ? target : OWN;
        return (
          <fieldset key={field.name} className="actions">
            <legend>
              {t('multiterm.field', {
                name: field.name,
                levels: field.levels.map((level) => t(`multiterm.levels.${level}`)).join(', '),
              })}
            </legend>
            {field.samples.length > 0 && (
              <p className="hint">{t('multiterm.samples', { samples: field.samples.join(' · ') })}</p>
            )}
            <Choice
              label={t('multiterm.target')}
              value={choice}
              options={[
                { value: IGNORE, label: t('multiterm.ignore') },
                ...CATEGORIES.map((category) => ({
                  value: category,
                  label: t(`multiterm.categories.${category}`),
                })),
                { value: OWN, label: t('multiterm.own') },
              ]}
              onChange={(value) =>
                setTarget(field.name, value === IGNORE ? null : value === OWN ? field.name : value)
              }
            />
            {choice === OWN && (
              <label>
                {t('multiterm.ownName')}
                <input
                  value={target ?? ''}
                  onChange={(event) => setTarget(field.name, event.target.value)}
                  required
                  maxLength={255}
                />
              </label>
            )}
          </fieldset>
        );
      })}
    </fieldset>
  );
}
