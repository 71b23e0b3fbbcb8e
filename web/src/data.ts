import { useCallback, useEffect, useState } from 'react';
import { type ApiProblem, problemOf, trpc } from './api';

export type Dictionary = Awaited<ReturnType<typeof trpc.dictionaries.list.query>>['content'][number];
export type Concept = Awaited<ReturnType<typeof trpc.concepts.get.query>>;
export type Term = NonNullable<Concept['terms']>[number];
export type SearchSettings = Awaited<ReturnType<typeof trpc.searchSettings.get.query>>;
export type TermEntry = Awaited<ReturnType<typeof trpc.terms.search.query>>['results'][number];

/** A value loaded by `load` whenever `key` changes; `reload` asks again. Stale answers are dropped. */
export function useLoaded<T>(load: () => Promise<T>, key: string) {
  const [state, setState] = useState<{ data?: T; error?: ApiProblem; loading: boolean }>({ loading: true });
  const [round, setRound] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` names everything `load` depends on.
  useEffect(() => {
    let live = true;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => live && setState({ data, loading: false }),
      (error: unknown) => live && setState({ error: problemOf(error), loading: false }),
    );
    return () => {
      live = false;
    };
  }, [key, round]);
  const reload = useCallback(() => setRound((value) => value + 1), []);
  return { ...state, reload };
}

let dictionaries: Promise<Dictionary[]> | null = null;

/** The dictionaries the caller may read, with their languages, sections and fields (once per session). */
export function loadDictionaries(): Promise<Dictionary[]> {
  dictionaries ??= trpc.dictionaries.list
    .query({ page: 0, size: 500, format: 'FULL', 'include-deleted': false })
    .then((page) => page.content)
    .catch((error: unknown) => {
      dictionaries = null;
      throw error;
    });
  return dictionaries;
}

export function forgetCachedData(): void {
  dictionaries = null;
  settings = null;
}

/** Languages of the dictionaries, each code once, in the order first met. */
export function languagesOf(list: Dictionary[]): { code: string; name: string }[] {
  const seen = new Map<string, string>();
  for (const dictionary of list) {
    for (const language of dictionary.languages ?? []) {
      if (!language.deleted && !seen.has(language.code)) seen.set(language.code, language.name);
    }
  }
  return [...seen].map(([code, name]) => ({ code, name }));
}

let settings: Promise<SearchSettings | null> | null = null;

/** The caller's search settings, which also hold the working languages; null where none may be read. */
export function loadSearchSettings(): Promise<SearchSettings | null> {
  settings ??= trpc.searchSettings.get.query({}).catch(() => null);
  return settings;
}

export function rememberSearchSettings(saved: SearchSettings): void {
  settings = Promise.resolve(saved);
}
