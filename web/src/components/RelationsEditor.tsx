import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Dictionary } from '../data';
import { ConceptPicker } from './ConceptPicker';
import { type DraftRelation, newKey, typeOfAttribute } from './concept-draft';
import { useConceptLabels } from './concept-labels';
import { RELATION_ATTRIBUTES, relationName } from './concept-text';
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
          {relationName(attribute)}
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
  const { t } = useTranslation('concept');
  const { dictionary, conceptId, languages, relations, problems, endProblems, onChange } = props;
  const [attribute, setAttribute] = useState(RELATION_ATTRIBUTES.length - 1);
  const [picked, setPicked] = useState<Record<number, string>>({});
  const base = useId();
  const self = conceptId ?? null;
  const otherOf = (r: DraftRelation) =>
    r.sourceConceptId !== null && r.sourceConceptId !== self ? r.sourceConceptId : r.targetConceptId;
  const labels = useConceptLabels(relations.map(otherOf), languages);
  const nameOf = (id: number) => picked[id] ?? labels.get(id) ?? t('conceptN', { id });
  const set = (index: number, change: Partial<DraftRelation>) =>
    onChange(relations.map((r, k) => (k === index ? { ...r, ...change } : r)));

  return (
    <section className="card relations-editor" aria-labelledby={`${base}-title`}>
      <h2 id={`${base}-title`}>{t('relations.title')}</h2>
      {relations.length === 0 && <p className="hint">{t('relationsEditor.none')}</p>}
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
                {incoming && <span className="hint">{t('relationsEditor.from')}</span>}
                <span className="value">{nameOf(other)}</span>
                <AttributeSelect
                  label={t(incoming ? 'relationsEditor.kindFrom' : 'relationsEditor.kindTo', {
                    name: nameOf(other),
                  })}
                  value={relation.attribute}
                  onChange={(value) => set(index, { attribute: value, type: typeOfAttribute(value) })}
                />
                <button
                  type="button"
                  className="danger"
                  aria-label={t(incoming ? 'relationsEditor.removeFrom' : 'relationsEditor.removeTo', {
                    name: nameOf(other),
                  })}
                  onClick={() => onChange(relations.filter((_, k) => k !== index))}
                >
                  {t('relationsEditor.remove')}
                </button>
              </div>
              <Problems id={errorId} list={list} />
            </li>
          );
        })}
      </ul>
      <div className="actions">
        <label htmlFor={`${base}-kind`}>{t('relationsEditor.newKind')}</label>
        <AttributeSelect id={`${base}-kind`} value={attribute} onChange={setAttribute} />
      </div>
      <ConceptPicker
        dictionary={dictionary}
        label={t('relationsEditor.addTo')}
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
