import { useId, useState } from 'react';
import type { Dictionary } from '../data';
import { ConceptPicker } from './ConceptPicker';
import { type DraftRelation, newKey, typeOfAttribute } from './concept-draft';
import { useConceptLabels } from './concept-labels';
import { RELATION_ATTRIBUTES } from './concept-text';
import { Problems } from './FieldValues';

function AttributeSelect(props: {
  label?: string;
  id?: string;
  value: number;
  onChange: (attribute: number) => void;
}) {
  return (
    <select
      id={props.id}
      aria-label={props.label}
      value={props.value}
      onChange={(e) => props.onChange(Number(e.target.value))}
    >
      {RELATION_ATTRIBUTES.map((name, attribute) => (
        <option key={name} value={attribute}>
          {name}
        </option>
      ))}
    </select>
  );
}

/**
 * The concept's relations: each with its kind (the attribute; the type follows from it) and a button
 * that removes it; new ones point to a concept found by one of its terms. A relation whose source is the
 * other concept is shown as such ("from X"). The server's messages appear beside the relation they name.
 */
export function RelationsEditor(props: {
  dictionary: Dictionary;
  conceptId?: number;
  languages: string[];
  relations: DraftRelation[];
  problems?: Map<number, string[]>;
  /** Messages naming the other concept of a relation rather than its place in the list. */
  endProblems?: Map<number, string[]>;
  onChange: (relations: DraftRelation[]) => void;
}) {
  const { dictionary, conceptId, languages, relations, problems, endProblems, onChange } = props;
  const [attribute, setAttribute] = useState(RELATION_ATTRIBUTES.length - 1);
  const [picked, setPicked] = useState<Record<number, string>>({});
  const base = useId();
  const self = conceptId ?? null;
  const otherOf = (r: DraftRelation) =>
    r.sourceConceptId !== null && r.sourceConceptId !== self ? r.sourceConceptId : r.targetConceptId;
  const labels = useConceptLabels(relations.map(otherOf), languages);
  const nameOf = (id: number) => picked[id] ?? labels.get(id) ?? `Concept ${id}`;
  const set = (index: number, change: Partial<DraftRelation>) =>
    onChange(relations.map((r, k) => (k === index ? { ...r, ...change } : r)));

  return (
    <section className="card relations-editor" aria-labelledby={`${base}-title`}>
      <h2 id={`${base}-title`}>Relations</h2>
      {relations.length === 0 && <p className="hint">No relation.</p>}
      <ul className="relation-list">
        {relations.map((relation, index) => {
          const other = otherOf(relation);
          const incoming = other !== relation.targetConceptId;
          const errorId = `${base}-${index}-error`;
          const found = [...(problems?.get(index) ?? []), ...(endProblems?.get(other) ?? [])];
          const list = found.length ? found : undefined;
          return (
            <li key={relation.key} aria-describedby={list ? errorId : undefined}>
              <div className="actions">
                {incoming && <span className="hint">from</span>}
                <span className="value">{nameOf(other)}</span>
                <AttributeSelect
                  label={`Kind of the relation ${incoming ? 'from' : 'to'} ${nameOf(other)}`}
                  value={relation.attribute}
                  onChange={(value) => set(index, { attribute: value, type: typeOfAttribute(value) })}
                />
                <button
                  type="button"
                  className="danger"
                  aria-label={`Remove the relation ${incoming ? 'from' : 'to'} ${nameOf(other)}`}
                  onClick={() => onChange(relations.filter((_, k) => k !== index))}
                >
                  Remove
                </button>
              </div>
              <Problems id={errorId} list={list} />
            </li>
          );
        })}
      </ul>
      <div className="actions">
        <label htmlFor={`${base}-kind`}>Kind of a new relation</label>
        <AttributeSelect id={`${base}-kind`} value={attribute} onChange={setAttribute} />
      </div>
      <ConceptPicker
        dictionary={dictionary}
        label="Add a relation to"
        exclude={conceptId}
        onPick={(found) => {
          setPicked((map) => ({ ...map, [found.conceptId]: found.name }));
          onChange([
            ...relations,
            {
              key: newKey(),
              sourceConceptId: null,
              targetConceptId: found.conceptId,
              type: typeOfAttribute(attribute),
              attribute,
              text: null,
            },
          ]);
        }}
      />
    </section>
  );
}
