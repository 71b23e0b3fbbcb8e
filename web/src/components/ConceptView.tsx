import { useTranslation } from 'react-i18next';
import type { Concept, Dictionary } from '../data';
import { onLinkClick, withQuery } from '../routes';
import { ConceptFiles } from './Attachments';
import { useConceptLabels } from './concept-labels';
import { namesOf, relationName } from './concept-text';
import { useDomains } from './DomainsEditor';
import { languageLabel } from './LanguageFieldsEditor';
import { RefLinkList } from './RefLinkList';
import { TermExtras } from './TermExtras';

/** Field values as text (never HTML), one line per value. */
export function FieldList({
  fieldMap,
  fieldName,
  hidden,
}: {
  fieldMap: Record<string, string[]>;
  fieldName: (oid: string) => string;
  /** Fields shown otherwise (ATTACHMENT fields: ConceptFiles). */
  hidden?: ReadonlySet<string>;
}) {
  const entries = Object.entries(fieldMap).filter(([oid]) => !hidden?.has(oid));
  if (entries.length === 0) return null;
  return (
    <dl className="fields">
      {entries.map(([oid, values]) => (
        <div key={oid} style={{ display: 'contents' }}>
          <dt>{fieldName(oid)}</dt>
          <dd className="value">{values.join('\n')}</dd>
        </div>
      ))}
    </dl>
  );
}

function Relations({ concept, languages }: { concept: Concept; languages: string[] }) {
  const { t } = useTranslation('concept');
  const relations = concept.conceptRelations ?? [];
  const labels = useConceptLabels(
    relations.map((r) => (r.sourceConceptId === concept.id ? r.targetConceptId : r.sourceConceptId)),
    languages,
  );
  if (relations.length === 0) return null;
  return (
    <section aria-labelledby="relations-title">
      <h2 id="relations-title">{t('relations.title')}</h2>
      <ul>
        {relations.map((relation) => {
          const outgoing = relation.sourceConceptId === concept.id;
          const other = outgoing ? relation.targetConceptId : relation.sourceConceptId;
          return (
            <li key={relation.id}>
              {outgoing ? '' : t('relations.otherEnd')}
              {relationName(relation.attribute)}:{' '}
              <a href={withQuery(`/concepts/${other}`, { langs: languages.join(',') })} onClick={onLinkClick}>
                {labels.get(other) ?? t('conceptN', { id: other })}
              </a>
              {relation.text && <span className="value"> ({relation.text})</span>}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** The concept's domains by their paths, as text. */
function Domains({ concept, dictionary }: { concept: Concept; dictionary?: Dictionary }) {
  const { t } = useTranslation('concept');
  const domains = useDomains(dictionary);
  const chosen = concept.domainList ?? [];
  if (chosen.length === 0) return null;
  const label = (oid: string) => domains.data?.find((d) => d.oid === oid)?.label ?? oid;
  return (
    <p className="domains-line">
      <span className="hint">{t('domains')} </span>
      <span className="value">{chosen.map(label).join('; ')}</span>
    </p>
  );
}

/** The concept read-only: its fields, then the chosen languages side by side, then its relations. */
export function ConceptView(props: {
  concept: Concept;
  dictionary?: Dictionary;
  languages: string[];
  canComment?: boolean;
  onChanged?: () => void;
}) {
  const { t } = useTranslation('concept');
  const { concept, dictionary, languages, canComment = false, onChanged = () => undefined } = props;
  const names = namesOf(dictionary);
  const terms = concept.terms ?? [];
  const files = new Set(
    [...(dictionary?.conceptFields ?? []), ...(dictionary?.termFields ?? [])]
      .filter((field) => field.fieldType === 'ATTACHMENT')
      .map((field) => field.oid ?? ''),
  );
  return (
    <>
      <Domains concept={concept} dictionary={dictionary} />
      <FieldList fieldMap={concept.fieldMap ?? {}} fieldName={names.field} hidden={files} />
      {files.size > 0 && <ConceptFiles concept={concept} fieldName={names.field} />}
      <RefLinkList links={concept.refLinks ?? []} fieldName={names.field} languages={languages} />
      <div className="languages">
        {languages.map((code) => (
          <section key={code} className="card" aria-label={names.language(code)} lang={names.tag(code)}>
            <h2>{names.language(code)}</h2>
            {(concept.languageFields ?? [])
              .filter((row) => row.languageCode === code && Object.keys(row.fieldMap).length > 0)
              .map((row) => (
                <section
                  key={`${row.regionCode}-${row.scriptCode}`}
                  className="language-values"
                  aria-label={t('languageValues', { language: languageLabel(names, row) })}
                >
                  {(row.regionCode || row.scriptCode) && <p className="hint">{languageLabel(names, row)}</p>}
                  <FieldList fieldMap={row.fieldMap} fieldName={names.field} />
                </section>
              ))}
            {terms.filter((term) => term.languageCode === code).length === 0 && (
              <p className="hint">{t('noTerm')}</p>
            )}
            {terms
              .filter((term) => term.languageCode === code)
              .map((term) => (
                <article key={term.id} className="term" aria-labelledby={`term-name-${term.id}`}>
                  <div id={`term-name-${term.id}`} className="term-name value">
                    {term.name}
                  </div>
                  <FieldList fieldMap={term.fieldMap} fieldName={names.field} hidden={files} />
                  <RefLinkList links={term.refLinks} fieldName={names.field} languages={languages} />
                  <TermExtras
                    concept={concept}
                    term={term}
                    dictionary={dictionary}
                    canComment={canComment}
                    onChanged={onChanged}
                  />
                </article>
              ))}
          </section>
        ))}
      </div>
      <Relations concept={concept} languages={languages} />
    </>
  );
}
