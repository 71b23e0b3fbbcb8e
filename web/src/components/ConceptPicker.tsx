import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemOf, trpc } from '../api';
import type { Dictionary, TermEntry } from '../data';
import { namesOf } from './concept-text';
import { ErrorMessage } from './controls';

/** A term found by the picker: its concept, and the term itself (for links to a term). */
export interface Picked {
  conceptId: number;
  termId: number;
  name: string;
  languageCode: string;
}

/**
 * Finds a concept of the dictionary by one of its terms (as you type, 200 ms pause) and offers each
 * match as a button; `exclude` (the concept being edited) is left out. Native controls only, so Tab and
 * Enter are all a keyboard needs.
 */
export function ConceptPicker(props: {
  dictionary: Dictionary;
  label: string;
  exclude?: number;
  onPick: (picked: Picked) => void;
}) {
  const { t } = useTranslation('concept');
  const { dictionary, exclude, onPick } = props;
  const names = namesOf(dictionary);
  const languages = (dictionary.languages ?? []).filter((l) => !l.deleted);
  const [language, setLanguage] = useState(languages[0]?.code ?? 'eng');
  const [text, setText] = useState('');
  const [found, setFound] = useState<TermEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const list = useRef<HTMLUListElement>(null);

  useEffect(() => {
    if (text.trim() === '') {
      setFound(null);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      trpc.terms.search
        .query({
          dictionaryIds: [dictionary.id],
          langCode: language,
          sectionOids: [],
          name: text,
          pageSize: 10,
          searchOptions: { mode: 'PREFIX', normalized: true },
        })
        .then((answer) => {
          if (!live) return;
          setError(null);
          setFound(answer.results.filter((entry) => entry.conceptId !== exclude && !entry.hidden));
        })
        .catch((caught: unknown) => live && setError(problemOf(caught).message));
    }, 200);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [text, language, dictionary.id, exclude]);

  return (
    <fieldset className="picker">
      <legend>{props.label}</legend>
      <div className="actions">
        <label>
          {t('picker.language')}
          <select value={language} onChange={(e) => setLanguage(e.target.value)}>
            {languages.map((l) => (
              <option key={l.code} value={l.code}>
                {l.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('picker.find')}
          <input
            type="search"
            value={text}
            onChange={(e) => setText(e.target.value)}
            aria-describedby={id}
            onKeyDown={(e) => {
              // Enter would submit the editor's form: it goes to the first match instead.
              if (e.key !== 'Enter') return;
              e.preventDefault();
              list.current?.querySelector('button')?.focus();
            }}
          />
        </label>
      </div>
      <ErrorMessage text={error} />
      <p id={id} className="hint" role="status">
        {found === null
          ? ''
          : found.length === 0
            ? t('picker.none')
            : t('picker.found', { count: found.length })}
      </p>
      {found && found.length > 0 && (
        <ul className="picker-results" ref={list}>
          {found.map((entry) => (
            <li key={entry.id}>
              <button
                type="button"
                onClick={() =>
                  onPick({
                    conceptId: entry.conceptId,
                    termId: entry.id,
                    name: entry.name,
                    languageCode: entry.langCode,
                  })
                }
              >
                <span className="value">{entry.name}</span>{' '}
                <span className="hint">
                  {t('picker.where', { language: names.language(entry.langCode), id: entry.conceptId })}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
