import { trpc } from '../../api';
import { useLoaded } from '../../data';

export interface StagingTarget {
  id: number;
  name: string;
  dictionaryId: number;
  dictionaryName: string;
}

/**
 * The staging areas of the given dictionaries the caller may use (the import wizard's "into a staging
 * area" targets); empty while they load or where none may be read.
 */
export function useStagingTargets(dictionaryIds: number[] | undefined): StagingTarget[] {
  const ids = dictionaryIds ?? [];
  const areas = useLoaded(
    () =>
      Promise.all(
        ids.map((dictionaryId) =>
          trpc.staging.listAreas
            .query({ dictionaryId, page: 0, size: 100 })
            .then((page) => page.content)
            .catch(() => []),
        ),
      ).then((lists) =>
        lists.flat().map((a) => ({
          id: a.id,
          name: a.name,
          dictionaryId: a.dictionaryId,
          dictionaryName: a.dictionaryName,
        })),
      ),
    `staging targets ${ids.join(',')}`,
  );
  return areas.data ?? [];
}
