import { useTranslation } from 'react-i18next';
import type { Dictionary } from '../../data';
import { languageName, type StagedContent, type StagedValue } from './staging-data';

/** Values as a definition list: category (a TBX data category or a field's name), then its value. */
function Values({ values }: { values: StagedValue[] }) {
  if (values.length === 0) return null;
  return (
    <dl className="fields">
      {values.map((value, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a staged entry's values have no identity but order
        <div key={index} style={{ display: 'contents' }}>
          <dt>{value.category}</dt>
          <dd className="value">
            {value.value}
            {value.target ? ` (${value.target})` : ''}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** A staged entry read-only: its concept values, then each language with its values and terms. */
export function EntryView({ content, dictionary }: { content: StagedContent; dictionary?: Dictionary }) {
  const { t } = useTranslation('staging');
  return (
    <div className="staged-entry">
      {content.id && <p className="hint">{t('entry.fileId', { id: content.id })}</p>}
      <Values values={content.values} />
      {content.languages.map((section, index) => (
        <section
          // biome-ignore lint/suspicious/noArrayIndexKey: a language may come twice in a file
          key={`${section.lang} ${index}`}
          className="staged-language"
          aria-label={languageName(dictionary, section.lang)}
        >
          <h3>{languageName(dictionary, section.lang)}</h3>
          <Values values={section.values} />
          <ul className="staged-terms">
            {section.terms.map((term, k) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: terms have no identity but order
              <li key={k}>
                <span className="term-name value">{term.term}</span>
                <Values values={term.values} />
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
