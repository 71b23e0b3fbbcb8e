import type { TFunction } from 'i18next';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Dictionary } from '../data';
import { ConceptPicker, type Picked } from './ConceptPicker';
import { type DraftLink, positionIn } from './concept-draft';
import { useConceptLabels } from './concept-labels';
import { namesOf } from './concept-text';
import { ErrorMessage } from './controls';
import type { Fields } from './FieldValues';
import { Problems } from './FieldValues';

type Target = 'URL' | 'CONCEPT' | 'TERM';

/** "“pump” in Definition → https://…", as text. */
function describe(
  t: TFunction<'concept'>,
  link: DraftLink,
  fieldName: string,
  conceptName: (id: number) => string,
): string {
  const concept = conceptName(link.conceptId ?? 0);
  const target =
    link.type === 'URL'
      ? (link.url ?? '')
      : link.type === 'CONCEPT'
        ? concept
        : link.termId
          ? t('linksEditor.termOfN', { concept, id: link.termId })
          : t('linksEditor.termOf', { concept });
  return t('linksEditor.describe', { text: link.text, field: fieldName, target });
}

/**
 * The owner of the links: the concept itself (no term), or a term by its name. Each phrase is its own
 * message, since the languages word "of the concept" and "of pump" differently.
 */
type Owner = { term?: string };

/** The form that adds a link: a value of a field, the text in it, and what it points to. */
function NewLink(props: {
  dictionary: Dictionary;
  fields: Fields;
  values: Record<string, string[]>;
  conceptId?: number;
  owner: Owner;
  onAdd: (link: DraftLink, picked: Picked | null) => void;
}) {
  const { dictionary, fields, values, conceptId, owner, onAdd } = props;
  const { t } = useTranslation('concept');
  const slots = fields.flatMap((field) =>
    (values[field.oid ?? ''] ?? [])
      .map((value, index, all) => ({
        key: `${field.oid}#${index}`,
        oid: field.oid ?? '',
        value,
        label: all.length > 1 ? t('fields.valueN', { field: field.name, n: index + 1 }) : field.name,
      }))
      .filter((slot) => slot.value.trim() !== ''),
  );
  const [slotKey, setSlotKey] = useState('');
  const [text, setText] = useState('');
  const [type, setType] = useState<Target>('URL');
  const [url, setUrl] = useState('');
  const [picked, setPicked] = useState<Picked | null>(null);
  const [error, setError] = useState<string | null>(null);
  const slot = slots.find((s) => s.key === slotKey) ?? slots[0];
  if (!slot) return <p className="hint">{t('linksEditor.noValue')}</p>;

  function add() {
    setError(null);
    if (!slot) return;
    const position = positionIn(slot.value, text);
    if (text === '' || position < 0)
      return setError(t('linksEditor.notInValue', { text, field: slot.label }));
    if (type === 'URL' && url.trim() === '') return setError(t('linksEditor.noAddress'));
    if (type !== 'URL' && !picked) return setError(t('linksEditor.noTarget'));
    onAdd(
      {
        sourceFieldOid: slot.oid,
        type,
        text,
        position,
        url: type === 'URL' ? url.trim() : null,
        conceptId: type === 'URL' ? null : (picked?.conceptId ?? null),
        termId: type === 'TERM' ? (picked?.termId ?? null) : null,
        languageCode: type === 'TERM' ? (picked?.languageCode ?? null) : null,
        dynamicText: null,
      },
      type === 'URL' ? null : picked,
    );
    setText('');
    setUrl('');
    setPicked(null);
  }
  // Enter in a box of this part adds the link rather than submitting the whole form.
  const onEnter = (e: React.KeyboardEvent) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    add();
  };

  return (
    <fieldset className="new-link">
      <legend>
        {owner.term === undefined
          ? t('linksEditor.newInConcept')
          : t('linksEditor.newInTerm', { term: owner.term })}
      </legend>
      <div className="actions">
        <label>
          {t('linksEditor.field')}
          <select value={slot.key} onChange={(e) => setSlotKey(e.target.value)}>
            {slots.map((s) => (
              <option key={s.key} value={s.key}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('linksEditor.text')}
          <input value={text} onChange={(e) => setText(e.target.value)} onKeyDown={onEnter} />
        </label>
        <label>
          {t('linksEditor.leadsTo')}
          <select value={type} onChange={(e) => setType(e.target.value as Target)}>
            <option value="URL">{t('linksEditor.toUrl')}</option>
            <option value="CONCEPT">{t('linksEditor.toConcept')}</option>
            <option value="TERM">{t('linksEditor.toTerm')}</option>
          </select>
        </label>
        {type === 'URL' && (
          <label>
            {t('linksEditor.address')}
            <input type="url" value={url} onChange={(e) => setUrl(e.target.value)} onKeyDown={onEnter} />
          </label>
        )}
      </div>
      {type !== 'URL' && (
        <>
          <ConceptPicker
            dictionary={dictionary}
            label={t('linksEditor.target')}
            exclude={conceptId}
            onPick={setPicked}
          />
          <p className="hint" role="status">
            {picked ? t('linksEditor.picked', { name: picked.name }) : t('linksEditor.notPicked')}
          </p>
        </>
      )}
      <ErrorMessage text={error} />
      <button type="button" onClick={add}>
        {t('linksEditor.add')}
      </button>
    </fieldset>
  );
}

/**
 * The reference links of one entry (the concept or a term): each listed as text with a button that
 * removes it, and a form that adds one. Positions are computed from the value as the server stores it;
 * a link whose text no longer stands there after an edit is refused by the server, whose message shows
 * here.
 */
export function RefLinksEditor(props: {
  dictionary: Dictionary;
  fields: Fields;
  values: Record<string, string[]>;
  links: DraftLink[];
  languages: string[];
  conceptId?: number;
  /** The term whose links these are; none for the concept's own. */
  term?: string;
  problems?: string[];
  onChange: (links: DraftLink[]) => void;
}) {
  const { dictionary, fields, values, links, languages, conceptId, term, problems, onChange } = props;
  const { t } = useTranslation('concept');
  const owner: Owner = { term };
  const names = namesOf(dictionary);
  const [picked, setPicked] = useState<Record<number, string>>({});
  const labels = useConceptLabels(
    links.flatMap((l) => (l.conceptId === null ? [] : [l.conceptId])),
    languages,
  );
  const conceptName = (id: number) => picked[id] ?? labels.get(id) ?? t('cid', { cid: id });
  const [open, setOpen] = useState(false);
  const errorId = useId();
  return (
    <fieldset className="links-editor" aria-describedby={problems?.length ? errorId : undefined}>
      <legend>{term === undefined ? t('linksEditor.ofConcept') : t('linksEditor.ofTerm', { term })}</legend>
      {links.length > 0 && (
        <ul>
          {links.map((link, index) => {
            const text = describe(t, link, names.field(link.sourceFieldOid), conceptName);
            return (
              <li key={`${link.sourceFieldOid}-${link.position}-${link.text}`}>
                <span className="value">{text}</span>{' '}
                <button
                  type="button"
                  className="danger"
                  aria-label={t('linksEditor.removeLabel', { link: text })}
                  onClick={() => onChange(links.filter((_, k) => k !== index))}
                >
                  {t('linksEditor.remove')}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <Problems id={errorId} list={problems} />
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open
          ? t('linksEditor.close')
          : term === undefined
            ? t('linksEditor.addInConcept')
            : t('linksEditor.addInTerm', { term })}
      </button>
      {open && (
        <NewLink
          dictionary={dictionary}
          fields={fields}
          values={values}
          conceptId={conceptId}
          owner={owner}
          onAdd={(link, target) => {
            if (target) setPicked((map) => ({ ...map, [target.conceptId]: target.name }));
            onChange([...links, link]);
          }}
        />
      )}
    </fieldset>
  );
}
