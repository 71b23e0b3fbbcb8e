import { useEffect, useState } from 'react';
import { trpc } from '../api';
import { type Dictionary, languagesOf } from '../data';

export interface SearchState {
  q: string;
  dictionaryIds: number[];
  lang: string;
  section: string;
  domain: string;
  filterId: number | null;
  mode: 'PREFIX' | 'SUBSTRING' | 'EXACT';
  normalized: boolean;
  fuzzy: boolean;
}

interface Option {
  value: string;
  label: string;
}

/** The search box and its pickers; every change goes to the URL through `onChange`. */
export function SearchForm(props: {
  state: SearchState;
  dictionaries: Dictionary[];
  onChange: (next: Partial<SearchState>) => void;
}) {
  const { state, dictionaries, onChange } = props;
  const chosen = dictionaries.filter((d) => state.dictionaryIds.includes(d.id));
  const languages = languagesOf(chosen.length ? chosen : dictionaries);
  const sections = chosen.flatMap((d) =>
    (d.sections ?? []).map((s) => ({ value: s.oid ?? '', label: s.name })),
  );
  const [domains, setDomains] = useState<Option[]>([]);
  const [filters, setFilters] = useState<Option[]>([]);
  const first = chosen[0]?.id ?? dictionaries[0]?.id;

  useEffect(() => {
    if (first === undefined) return;
    const dictionary = dictionaries.find((d) => d.id === first);
    if (dictionary?.hasDomains) {
      trpc.domains.list
        .query({ 'dictionary-id': first, page: 0, size: 500, format: 'FULL', 'include-deleted': false })
        .then((page) => setDomains(page.content.map((d) => ({ value: d.oid ?? '', label: d.name ?? '' }))))
        .catch(() => setDomains([]));
    } else setDomains([]);
    trpc.filters.list
      .query({ 'dictionary-id': first, page: 0, size: 500, format: 'FULL', 'include-deleted': false })
      .then((page) => setFilters(page.content.map((f) => ({ value: String(f.id), label: f.name ?? '' }))))
      .catch(() => setFilters([]));
  }, [first, dictionaries]);

  const toggleDictionary = (id: number, on: boolean) =>
    onChange({
      dictionaryIds: on ? [...state.dictionaryIds, id] : state.dictionaryIds.filter((x) => x !== id),
      section: '',
    });

  return (
    <search className="search-form" aria-label="Term search">
      <label className="search-box">
        <span className="visually-hidden">Find terms</span>
        <input
          type="search"
          name="q"
          placeholder="Find terms…"
          value={state.q}
          onChange={(e) => onChange({ q: e.target.value })}
          // biome-ignore lint/a11y/noAutofocus: the search box is the purpose of this screen.
          autoFocus
        />
      </label>
      <div className="pickers">
        <fieldset>
          <legend>Dictionaries</legend>
          {dictionaries.map((d) => (
            <label key={d.id} className="check">
              <input
                type="checkbox"
                checked={state.dictionaryIds.includes(d.id)}
                onChange={(e) => toggleDictionary(d.id, e.target.checked)}
              />
              {d.name}
            </label>
          ))}
        </fieldset>
        <label>
          Language
          <select value={state.lang} onChange={(e) => onChange({ lang: e.target.value })}>
            {languages.map((l) => (
              <option key={l.code} value={l.code}>
                {l.name} ({l.code})
              </option>
            ))}
          </select>
        </label>
        <label>
          Section
          <select value={state.section} onChange={(e) => onChange({ section: e.target.value })}>
            <option value="">All sections</option>
            {sections.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Domain
          <select
            value={state.domain}
            onChange={(e) => onChange({ domain: e.target.value })}
            disabled={domains.length === 0}
          >
            <option value="">Any domain</option>
            {domains.map((d) => (
              <option key={d.value} value={d.value}>
                {d.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Filter
          <select
            value={state.filterId === null ? '' : String(state.filterId)}
            onChange={(e) => onChange({ filterId: e.target.value ? Number(e.target.value) : null })}
          >
            <option value="">No filter</option>
            {filters.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Match
          <select
            value={state.mode}
            onChange={(e) => onChange({ mode: e.target.value as SearchState['mode'] })}
          >
            <option value="PREFIX">Starts with</option>
            <option value="SUBSTRING">Contains</option>
            <option value="EXACT">Exactly</option>
          </select>
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={state.normalized}
            onChange={(e) => onChange({ normalized: e.target.checked })}
          />
          Ignore case and accents
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={state.fuzzy}
            onChange={(e) => onChange({ fuzzy: e.target.checked })}
          />
          Fuzzy
        </label>
      </div>
    </search>
  );
}
