import { useEffect, useState } from 'react';
import { trpc } from '../api';
import type { Concept, Dictionary } from '../data';
import { onLinkClick, withQuery } from '../routes';
import { conceptLabel, namesOf, RELATION_ATTRIBUTES } from './concept-text';

/** Field values as text (never HTML), one line per value. */
export function FieldList({
  fieldMap,
  fieldName,
}: {
  fieldMap: Record<string, string[]>;
  fieldName: (oid: string) => string;
}) {
  const entries = Object.entries(fieldMap);
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
  const [labels, setLabels] = useState(new Map<number, string>());
  const relations = concept.conceptRelations ?? [];
  const others = relations.map((r) =>
    r.sourceConceptId === concept.id ? r.targetConceptId : r.sourceConceptId,
  );
  const key = others.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` lists the related concepts.
  useEffect(() => {
    for (const id of new Set(others)) {
      trpc.concepts.get
        .query({ id, format: 'SHORT', 'with-comments': false, 'include-deleted': false })
        .then((other) => setLabels((map) => new Map(map).set(id, conceptLabel(other, languages))))
        .catch(() => undefined);
    }
  }, [key]);
  if (relations.length === 0) return null;
  return (
    <section aria-labelledby="relations-title">
      <h2 id="relations-title">Relations</h2>
      <ul>
        {relations.map((relation) => {
          const outgoing = relation.sourceConceptId === concept.id;
          const other = outgoing ? relation.targetConceptId : relation.sourceConceptId;
          return (
            <li key={relation.id}>
              {outgoing ? '' : 'is the other end of: '}
              {RELATION_ATTRIBUTES[relation.attribute] ?? 'related'}:{' '}
              <a href={withQuery(`/concepts/${other}`, { langs: languages.join(',') })} onClick={onLinkClick}>
                {labels.get(other) ?? `Concept ${other}`}
              </a>
              {relation.text && <span className="value"> ({relation.text})</span>}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** The concept read-only: its fields, then the chosen languages side by side, then its relations. */
export function ConceptView({
  concept,
  dictionary,
  languages,
}: {
  concept: Concept;
  dictionary?: Dictionary;
  languages: string[];
}) {
  const names = namesOf(dictionary);
  const terms = concept.terms ?? [];
  return (
    <>
      <FieldList fieldMap={concept.fieldMap ?? {}} fieldName={names.field} />
      <div className="languages">
        {languages.map((code) => (
          <section key={code} className="card" aria-label={names.language(code)} lang={names.tag(code)}>
            <h2>{names.language(code)}</h2>
            {terms.filter((t) => t.languageCode === code).length === 0 && <p className="hint">No term</p>}
            {terms
              .filter((t) => t.languageCode === code)
              .map((term) => (
                <div key={term.id} className="term">
                  <div className="term-name value">{term.name}</div>
                  <FieldList fieldMap={term.fieldMap} fieldName={names.field} />
                </div>
              ))}
          </section>
        ))}
      </div>
      <Relations concept={concept} languages={languages} />
    </>
  );
}
