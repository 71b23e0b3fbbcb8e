import { useId, useState } from 'react';
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
function describe(link: DraftLink, fieldName: string, conceptName: (id: number) => string): string {
  const target =
    link.type === 'URL'
      ? (link.url ?? '')
      : link.type === 'CONCEPT'
        ? conceptName(link.conceptId ?? 0)
        : `a term of ${conceptName(link.conceptId ?? 0)}${link.termId ? ` (term ${link.termId})` : ''}`;
  return `“${link.text}” in ${fieldName} → ${target}`;
}

/** The form that adds a link: a value of a field, the text in it, and what it points to. */
function NewLink(props: {
  dictionary: Dictionary;
  fields: Fields;
  values: Record<string, string[]>;
  conceptId?: number;
  owner: string;
  onAdd: (link: DraftLink, picked: Picked | null) => void;
}) {
  const { dictionary, fields, values, conceptId, owner, onAdd } = props;
  const slots = fields.flatMap((field) =>
    (values[field.oid ?? ''] ?? [])
      .map((value, index, all) => ({
        key: `${field.oid}#${index}`,
        oid: field.oid ?? '',
        value,
        label: all.length > 1 ? `${field.name}, value ${index + 1}` : field.name,
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
  if (!slot) return <p className="hint">Give a field a value to link a part of it.</p>;

  function add() {
    setError(null);
    if (!slot) return;
    const position = positionIn(slot.value, text);
    if (text === '' || position < 0) return setError(`“${text}” does not stand in ${slot.label}.`);
    if (type === 'URL' && url.trim() === '') return setError('Give the address the link leads to.');
    if (type !== 'URL' && !picked) return setError('Find the concept or term the link leads to.');
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
      <legend>New link{owner ? ` in ${owner}` : ''}</legend>
      <div className="actions">
        <label>
          Field
          <select value={slot.key} onChange={(e) => setSlotKey(e.target.value)}>
            {slots.map((s) => (
              <option key={s.key} value={s.key}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Linked text
          <input value={text} onChange={(e) => setText(e.target.value)} onKeyDown={onEnter} />
        </label>
        <label>
          Leads to
          <select value={type} onChange={(e) => setType(e.target.value as Target)}>
            <option value="URL">an address (URL)</option>
            <option value="CONCEPT">a concept</option>
            <option value="TERM">a term</option>
          </select>
        </label>
        {type === 'URL' && (
          <label>
            Address
            <input type="url" value={url} onChange={(e) => setUrl(e.target.value)} onKeyDown={onEnter} />
          </label>
        )}
      </div>
      {type !== 'URL' && (
        <>
          <ConceptPicker dictionary={dictionary} label="Link target" exclude={conceptId} onPick={setPicked} />
          <p className="hint" role="status">
            {picked ? `Target: ${picked.name}` : 'No target chosen.'}
          </p>
        </>
      )}
      <ErrorMessage text={error} />
      <button type="button" onClick={add}>
        Add link
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
  owner?: string;
  problems?: string[];
  onChange: (links: DraftLink[]) => void;
}) {
  const { dictionary, fields, values, links, languages, conceptId, owner = '', problems, onChange } = props;
  const names = namesOf(dictionary);
  const [picked, setPicked] = useState<Record<number, string>>({});
  const labels = useConceptLabels(
    links.flatMap((l) => (l.conceptId === null ? [] : [l.conceptId])),
    languages,
  );
  const conceptName = (id: number) => picked[id] ?? labels.get(id) ?? `concept ${id}`;
  const [open, setOpen] = useState(false);
  const errorId = useId();
  return (
    <fieldset className="links-editor" aria-describedby={problems?.length ? errorId : undefined}>
      <legend>Reference links{owner ? ` of ${owner}` : ''}</legend>
      {links.length > 0 && (
        <ul>
          {links.map((link, index) => {
            const text = describe(link, names.field(link.sourceFieldOid), conceptName);
            return (
              <li key={`${link.sourceFieldOid}-${link.position}-${link.text}`}>
                <span className="value">{text}</span>{' '}
                <button
                  type="button"
                  className="danger"
                  aria-label={`Remove the link ${text}`}
                  onClick={() => onChange(links.filter((_, k) => k !== index))}
                >
                  Remove
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <Problems id={errorId} list={problems} />
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? 'Close the new link' : `Add a reference link${owner ? ` in ${owner}` : ''}`}
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
