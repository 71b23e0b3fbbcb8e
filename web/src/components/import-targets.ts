import { trpc } from '../api';
import { type Dictionary, useLoaded } from '../data';
import { useRights } from '../screens/admin/structure/rights';

/** A dictionary the caller may import into, and the first section where they may (sent as section-oid). */
export interface ImportTarget {
  dictionary: Dictionary;
  sectionOid: string;
}

/**
 * Where the caller may import, so that the form offers nothing the server would refuse after the
 * upload: a new dictionary for client administrators only, and the dictionaries with a section where
 * the caller holds CONCEPT_IMPORT. Undefined while the rights load. The server still decides.
 */
export function useImportTargets(
  dictionaries: Dictionary[],
): { newDictionary: boolean; existing: ImportTarget[] } | undefined {
  const rights = useRights();
  const ids = dictionaries.map((dictionary) => dictionary.id);
  const permissions = useLoaded(
    () =>
      ids.length ? trpc.access.dictionaryPermissions.query({ dictionary_id: ids }) : Promise.resolve([]),
    `import rights ${ids.join(',')}`,
  );
  if (!rights || !permissions.data) return undefined;
  const byDictionary = new Map(permissions.data.map((entry) => [entry.dictionaryId, entry]));
  const existing = dictionaries.flatMap((dictionary): ImportTarget[] => {
    const allowed = byDictionary.get(dictionary.id)?.sectionOidPermissions ?? {};
    const section = (dictionary.sections ?? []).find((s) => allowed[s.oid ?? '']?.CONCEPT_IMPORT);
    return section?.oid ? [{ dictionary, sectionOid: section.oid }] : [];
  });
  return { newDictionary: rights.admin, existing };
}
