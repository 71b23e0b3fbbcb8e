import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemOf, trpc } from '../api';
import { BulkTransition } from '../components/BulkTransition';
import { ErrorMessage } from '../components/controls';
import { entryStyle } from '../components/entry-style';
import { Highlight } from '../components/Highlight';
import { cellText, columnLabel, columnOptions, needsFullConcepts } from '../components/result-columns';
import { SavedQueries } from '../components/SavedQueries';
import {
  type Concept,
  type Dictionary,
  languagesOf,
  loadDictionaries,
  loadSearchSettings,
  type SearchSettings,
  type TermEntry,
  useLoaded,
} from '../data';
import { SendFeedback } from '../feedback/SendFeedback';
import { formatNumber } from '../i18n';
import { codeList, idList, navigate, onLinkClick, withQuery } from '../routes';
import { SearchForm, type SearchState } from './SearchForm';

const TYPING_PAUSE_MS = 200;

function stateOf(
  query: URLSearchParams,
  dictionaries: Dictionary[],
  settings: SearchSettings | null,
): SearchState {
  const fromUrl = idList(query.get('d'));
  const preset = settings?.defaultDictionaryIds?.filter((id) => dictionaries.some((d) => d.id === id)) ?? [];
  const dictionaryIds = fromUrl.length ? fromUrl : preset.length ? preset : dictionaries.map((d) => d.id);
  const languages = dictionaries
    .filter((d) => dictionaryIds.includes(d.id))
    .flatMap((d) => d.languages ?? []);
  const lang = query.get('lang') ?? settings?.sourceLanguage ?? languages[0]?.code ?? 'eng';
  const mode = query.get('mode');
  return {
    q: query.get('q') ?? '',
    dictionaryIds,
    lang,
    section: query.get('sec') ?? '',
    domain: query.get('dom') ?? '',
    filterId: query.get('filter') ? Number(query.get('filter')) : null,
    mode:
      mode === 'PREFIX' || mode === 'EXACT' || mode === 'SUBSTRING'
        ? mode
        : (settings?.searchMode ?? 'SUBSTRING'),
    normalized: query.has('norm') ? query.get('norm') === '1' : (settings?.normalized ?? true),
    fuzzy: query.has('fuzzy') ? query.get('fuzzy') === '1' : (settings?.fuzzy ?? false),
  };
}

function urlOf(state: SearchState) {
  return withQuery('/search', {
    q: state.q,
    d: state.dictionaryIds.join(','),
    lang: state.lang,
    sec: state.section,
    dom: state.domain,
    filter: state.filterId,
    mode: state.mode,
    norm: state.normalized ? '1' : '0',
    fuzzy: state.fuzzy ? '1' : '0',
  });
}

interface Page {
  key: string;
  rows: TermEntry[];
  total: number;
  next: string | null;
  translations: Map<number, Map<string, string[]>>;
  concepts: Map<number, Concept>;
}

/**
 * Terms of the other working languages for each listed concept, and the concepts themselves for the
 * extra columns (one request per page; FULL only when a concept field is shown).
 */
async function translationsOf(rows: TermEntry[], languages: string[], full: boolean) {
  const byConcept = new Map<number, Map<string, string[]>>();
  const conceptsById = new Map<number, Concept>();
  if (rows.length === 0) return { translations: byConcept, concepts: conceptsById };
  const concepts = await trpc.concepts.findByTermIds.query({
    'term-ids': rows.map((row) => row.id),
    format: full ? 'FULL' : 'SHORT',
    'with-comments': false,
    'include-deleted': false,
  });
  for (const concept of concepts) {
    const terms = new Map<string, string[]>();
    for (const term of concept.terms ?? []) {
      if (languages.includes(term.languageCode))
        terms.set(term.languageCode, [...(terms.get(term.languageCode) ?? []), term.name]);
    }
    byConcept.set(concept.id, terms);
    conceptsById.set(concept.id, concept);
  }
  return { translations: byConcept, concepts: conceptsById };
}

/** The concept's other terms in the language searched, so a match shows what else the concept is called. */
function Synonyms({ names }: { names: string[] }) {
  const { t } = useTranslation('search');
  if (names.length === 0) return null;
  return <div className="synonyms">{t('also', { names: names.join('; ') })}</div>;
}

function ResultRow({
  row,
  query,
  fuzzy,
  columns,
  extra,
  langs,
  translations,
  concept,
  dictionaries,
  selection,
}: {
  row: TermEntry;
  query: string;
  fuzzy: boolean;
  columns: string[];
  extra: string[];
  langs: string;
  translations?: Map<string, string[]>;
  concept?: Concept;
  dictionaries: Dictionary[];
  selection: Selection | null;
}) {
  const { t } = useTranslation('search');
  if (row.hidden) return null;
  const href = withQuery(`/concepts/${row.conceptId}`, { langs });
  return (
    <tr className={row.disabled ? 'disabled' : undefined}>
      {selection && (
        <td className="select-cell">
          <input
            type="checkbox"
            aria-label={t('select', { name: row.name })}
            checked={selection.ids.has(row.conceptId)}
            onChange={(e) => selection.toggle(row.conceptId, e.target.checked)}
          />
        </td>
      )}
      {/* The style is the matched term's workflow state, which is its language's, not the other columns'. */}
      <th scope="row" style={entryStyle(row.style)}>
        <a href={href} onClick={onLinkClick}>
          <Highlight text={row.name} query={query} fuzzy={fuzzy} />
        </a>
        {row.disabled && <span className="badge">{t('readOnly')}</span>}
        <Synonyms names={(translations?.get(row.langCode) ?? []).filter((name) => name !== row.name)} />
      </th>
      {columns.map((code) => (
        <td key={code}>{(translations?.get(code) ?? []).join('; ')}</td>
      ))}
      {extra.map((column) => (
        <td key={column}>{cellText(column, row, concept, dictionaries)}</td>
      ))}
    </tr>
  );
}

/** Concepts chosen in the results for a bulk transition (issue 28). */
interface Selection {
  ids: Set<number>;
  toggle(conceptId: number, on: boolean): void;
}

export function SearchScreen({ query }: { query: URLSearchParams }) {
  const { t } = useTranslation('search');
  const loaded = useLoaded(() => Promise.all([loadDictionaries(), loadSearchSettings()]), 'search');
  if (loaded.error) return <p role="alert">{loaded.error.message}</p>;
  if (!loaded.data) return <p role="status">{t('common:loading')}</p>;
  const [dictionaries, settings] = loaded.data;
  if (dictionaries.length === 0) return <p>{t('noDictionary')}</p>;
  return <Search query={query} dictionaries={dictionaries} settings={settings} />;
}

function Search({
  query,
  dictionaries,
  settings,
}: {
  query: URLSearchParams;
  dictionaries: Dictionary[];
  settings: SearchSettings | null;
}) {
  const { t } = useTranslation('search');
  const state = stateOf(query, dictionaries, settings);
  const key = urlOf(state);
  const columns = codeList(query.get('cols')).length
    ? codeList(query.get('cols'))
    : (settings?.targetLanguages ?? []).filter((code) => code !== state.lang);
  // Columns beyond the languages: from the URL (a shared link) or the user's preferences.
  const extra = query.has('xcols') ? codeList(query.get('xcols')) : (settings?.resultColumns ?? []);
  const full = needsFullConcepts(extra);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [page, setPage] = useState<Page | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const more = useRef<HTMLButtonElement>(null);
  const latest = useRef(key);
  latest.current = key;

  const fetchPage = async (after: string | null) => {
    const response = await trpc.terms.search.query({
      dictionaryIds: state.dictionaryIds,
      langCode: state.lang,
      sectionOids: state.section ? [state.section] : [],
      ...(state.domain ? { domainOids: [state.domain] } : {}),
      filterId: state.filterId,
      name: state.q,
      searchAfter: after,
      searchOptions: { mode: state.mode, normalized: state.normalized, fuzzy: state.fuzzy },
    });
    // The searched language too: its other terms are the synonyms shown under each match.
    const { translations, concepts } = await translationsOf(
      response.results,
      [state.lang, ...columns],
      full,
    ).catch(() => ({ translations: new Map(), concepts: new Map() }));
    // bench/web.ts reads the time from the last answer of the server to the rows on screen.
    performance.mark('polyterm:results-received');
    return { response, translations, concepts };
  };

  /** The concepts of every term matching the search, page after page (for a bulk transition). */
  const allConceptIds = async (): Promise<number[]> => {
    const ids = new Set<number>();
    let after: string | null = null;
    do {
      const response: Awaited<ReturnType<typeof trpc.terms.search.query>> = await trpc.terms.search.query({
        dictionaryIds: state.dictionaryIds,
        langCode: state.lang,
        sectionOids: state.section ? [state.section] : [],
        ...(state.domain ? { domainOids: [state.domain] } : {}),
        filterId: state.filterId,
        name: state.q,
        searchAfter: after,
        searchOptions: { mode: state.mode, normalized: state.normalized, fuzzy: state.fuzzy },
      });
      for (const row of response.results) ids.add(row.conceptId);
      after = response.results.length ? response.searchAfter : null;
    } while (after);
    return [...ids];
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` is the whole search; a new one starts over.
  useEffect(() => {
    if (state.dictionaryIds.length === 0) {
      setPage(null);
      return;
    }
    setLoading(true);
    const timer = setTimeout(() => {
      fetchPage(null).then(
        ({ response, translations, concepts }) => {
          if (latest.current !== key) return;
          setError(null);
          setSelected(new Set());
          setPage({
            key,
            rows: response.results,
            total: response.total,
            next: response.searchAfter,
            translations,
            concepts,
          });
          setLoading(false);
        },
        (caught: unknown) => {
          if (latest.current !== key) return;
          setError(problemOf(caught).message);
          setLoading(false);
        },
      );
    }, TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [key, columns.join(','), extra.join(',')]);

  const loadMore = async () => {
    if (!page?.next || loading) return;
    setLoading(true);
    try {
      const { response, translations, concepts } = await fetchPage(page.next);
      if (latest.current !== page.key) return;
      setPage({
        ...page,
        rows: [...page.rows, ...response.results],
        next: response.searchAfter,
        translations: new Map([...page.translations, ...translations]),
        concepts: new Map([...page.concepts, ...concepts]),
      });
    } catch (caught) {
      setError(problemOf(caught).message);
    } finally {
      setLoading(false);
    }
  };

  // The next page loads when the "More results" button scrolls into view (and on a click or Enter).
  useEffect(() => {
    const button = more.current;
    if (!button) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) void loadMore();
    });
    observer.observe(button);
    return () => observer.disconnect();
  });

  useLayoutEffect(() => {
    if (!page) return;
    performance.mark('polyterm:results-rendered');
    performance.measure('polyterm:render', 'polyterm:results-received', 'polyterm:results-rendered');
  }, [page]);

  const change = (next: Partial<SearchState>) =>
    navigate(urlOf({ ...state, ...next }), { replace: 'q' in next });
  // A column of the search language (a shared link's cols) would show that language twice.
  const langs = [...new Set([state.lang, ...columns])].join(',');
  const names = new Map(languagesOf(dictionaries).map((l) => [l.code, l.name]));
  const languageName = (code: string) => names.get(code) ?? code;
  const current = page?.key === key ? page : null;
  const options = columnOptions(dictionaries);
  // Bulk transitions work in one dictionary: shown when the search is in exactly one.
  const bulkDictionary = state.dictionaryIds.length === 1 ? state.dictionaryIds[0]! : null;
  const [bulkReady, setBulkReady] = useState(false);
  const selection: Selection | null =
    bulkReady && bulkDictionary !== null
      ? {
          ids: selected,
          toggle: (conceptId, on) =>
            setSelected((previous) => {
              const next = new Set(previous);
              if (on) next.add(conceptId);
              else next.delete(conceptId);
              return next;
            }),
        }
      : null;
  const currentQuery = `${urlOf(state).split('?')[1] ?? ''}${query.has('cols') ? `&cols=${query.get('cols')}` : ''}${query.has('xcols') ? `&xcols=${query.get('xcols')}` : ''}`;

  return (
    <div className="search-screen">
      <h1 className="visually-hidden">{t('title')}</h1>
      <SearchForm state={state} dictionaries={dictionaries} onChange={change} />
      {settings && <SavedQueries current={currentQuery} />}
      {bulkDictionary !== null && (
        <SendFeedback
          subject={{
            dictionary: {
              id: bulkDictionary,
              name: dictionaries.find((d) => d.id === bulkDictionary)?.name ?? '',
            },
          }}
        />
      )}
      {settings && bulkDictionary !== null && (
        <BulkTransition
          dictionaryId={bulkDictionary}
          dictionaryOid={dictionaries.find((d) => d.id === bulkDictionary)?.oid}
          selected={[...selected]}
          allMatching={allConceptIds}
          onReady={setBulkReady}
          onDone={() => setSelected(new Set())}
        />
      )}
      <p role="status" className="result-count">
        {loading && !current
          ? t('searching')
          : current
            ? current.total < 0
              ? t('manyTerms')
              : t('terms', { count: current.total, formatted: formatNumber(current.total) })
            : ''}
      </p>
      <ErrorMessage text={error} />
      {current && current.rows.length > 0 && (
        <div className="table-scroll">
          <table className="results">
            <caption className="visually-hidden">{t('caption')}</caption>
            <thead>
              <tr>
                {selection && (
                  <th scope="col">
                    <span className="visually-hidden">{t('selected')}</span>
                  </th>
                )}
                <th scope="col">{languageName(state.lang)}</th>
                {columns.map((code) => (
                  <th key={code} scope="col">
                    {languageName(code)}
                  </th>
                ))}
                {extra.map((column) => (
                  <th key={column} scope="col">
                    {columnLabel(column, options)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {current.rows.map((row) => (
                <ResultRow
                  key={row.id}
                  row={row}
                  query={state.q}
                  fuzzy={state.fuzzy}
                  columns={columns}
                  extra={extra}
                  langs={langs}
                  translations={current.translations.get(row.conceptId)}
                  concept={current.concepts.get(row.conceptId)}
                  dictionaries={dictionaries}
                  selection={selection}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {current?.next && (
        <button type="button" ref={more} className="more" onClick={() => void loadMore()} disabled={loading}>
          {t('more')}
        </button>
      )}
    </div>
  );
}
