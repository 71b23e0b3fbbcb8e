import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { trpc } from '../api';
import {
  Check,
  CheckList,
  Choice,
  languageOptions,
  type Option,
  useMatchModes,
} from '../components/controls';
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

const listInput = (dictionaryId: number) =>
  ({ 'dictionary-id': dictionaryId, page: 0, size: 500, format: 'FULL', 'include-deleted': false }) as const;

/** The search box and its pickers; every change goes to the URL through `onChange`. */
export function SearchForm(props: {
  state: SearchState;
  dictionaries: Dictionary[];
  onChange: (next: Partial<SearchState>) => void;
}) {
  const { state, dictionaries, onChange } = props;
  const { t } = useTranslation('search');
  const matchModes = useMatchModes();
  const chosen = dictionaries.filter((d) => state.dictionaryIds.includes(d.id));
  const languages = languagesOf(chosen.length ? chosen : dictionaries);
  const sections = chosen.flatMap((d) =>
    (d.sections ?? []).map((s) => ({ value: s.oid ?? '', label: s.name })),
  );
  const [domains, setDomains] = useState<Option[]>([]);
  const [filters, setFilters] = useState<Option[]>([]);
  const first = chosen[0]?.id ?? dictionaries[0]?.id;

  // Domains and saved filters of the first chosen dictionary.
  useEffect(() => {
    if (first === undefined) return;
    const dictionary = dictionaries.find((d) => d.id === first);
    if (dictionary?.hasDomains) {
      trpc.domains.list
        .query(listInput(first))
        .then((page) => setDomains(page.content.map((d) => ({ value: d.oid ?? '', label: d.name ?? '' }))))
        .catch(() => setDomains([]));
    } else setDomains([]);
    trpc.filters.list
      .query(listInput(first))
      .then((page) => setFilters(page.content.map((f) => ({ value: String(f.id), label: f.name ?? '' }))))
      .catch(() => setFilters([]));
  }, [first, dictionaries]);

  return (
    <search className="search-form" aria-label={t('form.label')}>
      <label className="search-box">
        <span className="visually-hidden">{t('form.find')}</span>
        <input
          type="search"
          name="q"
          placeholder={t('form.placeholder')}
          value={state.q}
          onChange={(e) => onChange({ q: e.target.value })}
          // biome-ignore lint/a11y/noAutofocus: the search box is the purpose of this screen.
          autoFocus
        />
      </label>
      <div className="pickers">
        <CheckList
          legend={t('form.dictionaries')}
          options={dictionaries.map((d) => ({ value: String(d.id), label: d.name ?? '' }))}
          chosen={state.dictionaryIds.map(String)}
          onChange={(ids) => onChange({ dictionaryIds: ids.map(Number), section: '' })}
        />
        <Choice
          label={t('form.language')}
          value={state.lang}
          options={languageOptions(languages, true)}
          onChange={(lang) => onChange({ lang })}
        />
        <Choice
          label={t('form.section')}
          value={state.section}
          options={sections}
          empty={t('form.allSections')}
          onChange={(section) => onChange({ section })}
        />
        <Choice
          label={t('form.domain')}
          value={state.domain}
          options={domains}
          empty={t('form.anyDomain')}
          disabled={domains.length === 0}
          onChange={(domain) => onChange({ domain })}
        />
        <Choice
          label={t('form.filter')}
          value={state.filterId === null ? '' : String(state.filterId)}
          options={filters}
          empty={t('form.noFilter')}
          onChange={(value) => onChange({ filterId: value ? Number(value) : null })}
        />
        <Choice
          label={t('form.match')}
          value={state.mode}
          options={matchModes}
          onChange={(mode) => onChange({ mode: mode as SearchState['mode'] })}
        />
        <Check
          label={t('form.normalized')}
          checked={state.normalized}
          onChange={(normalized) => onChange({ normalized })}
        />
        <Check label={t('form.fuzzy')} checked={state.fuzzy} onChange={(fuzzy) => onChange({ fuzzy })} />
      </div>
    </search>
  );
}
