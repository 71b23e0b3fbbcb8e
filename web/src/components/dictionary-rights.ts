import { trpc } from '../api';
import { type Dictionary, loadDictionaries, useLoaded } from '../data';
import { getSession } from '../session';

/** The caller's permissions in one dictionary and per section (`GET /access/dictionary-permissions`). */
export type DictionaryRights = Awaited<ReturnType<typeof trpc.access.dictionaryPermissions.query>>[number];

let cached: { key: string; rights: Promise<DictionaryRights[]> } | null = null;

/** Asked once per session and list of dictionaries: the top bar and the screens share the answer. */
function loadRights(ids: number[]): Promise<DictionaryRights[]> {
  const key = `${getSession()?.token ?? ''} ${ids.join(',')}`;
  if (cached?.key !== key) {
    const rights = ids.length
      ? trpc.access.dictionaryPermissions.query({ dictionary_id: ids }).catch((error: unknown) => {
          cached = null;
          throw error;
        })
      : Promise.resolve([]);
    cached = { key, rights };
  }
  return cached.rights;
}

/**
 * The caller's permissions in each of the dictionaries, by dictionary id; undefined while they load (and
 * when they cannot be read: then nothing is offered that needs them). Screens use it to offer only what
 * the server would allow; the server still decides.
 */
export function useDictionaryRights(dictionaries: Dictionary[]): Map<number, DictionaryRights> | undefined {
  const ids = dictionaries.map((dictionary) => dictionary.id).sort((a, b) => a - b);
  const loaded = useLoaded(() => loadRights(ids), `dictionary rights ${ids.join(',')}`);
  if (!loaded.data) return undefined;
  return new Map(loaded.data.map((entry) => [entry.dictionaryId, entry]));
}

/** Whether the caller holds `permission` in at least one section of the dictionary (or on it). */
export const mayInDictionary = (
  rights: DictionaryRights | undefined,
  permission: keyof DictionaryRights['permissions'],
): boolean => rights?.permissions[permission] === true;

/** The sections of the dictionary where the caller holds `permission`. */
export function sectionsWhere(
  dictionary: Dictionary,
  rights: DictionaryRights | undefined,
  permission: string,
): NonNullable<Dictionary['sections']> {
  return (dictionary.sections ?? []).filter(
    (section) => rights?.sectionOidPermissions[section.oid ?? '']?.[permission] === true,
  );
}

/**
 * Whether the caller may create concepts in some dictionary (CONCEPT_CREATE in a section of one), for
 * the menu's New concept; undefined while it loads.
 */
export function useMayCreateConcepts(): boolean | undefined {
  const dictionaries = useLoaded(loadDictionaries, 'dictionaries');
  const rights = useDictionaryRights(dictionaries.data ?? []);
  if (!dictionaries.data || !rights) return undefined;
  return [...rights.values()].some((entry) => mayInDictionary(entry, 'CONCEPT_CREATE'));
}
