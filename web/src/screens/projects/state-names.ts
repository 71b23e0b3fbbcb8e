import { trpc } from '../../api';
import { useLoaded } from '../../data';

/**
 * Workflow state keys named as the enabled workflows name them: `name(dictionaryId, key)`, or by key
 * alone (the first workflow naming it) where the dictionary is not known. One call for the page.
 */
export function useStateNames() {
  const workflows = useLoaded(
    () =>
      trpc.workflows.list
        .query({ enabled: true, size: 500, page: 0, format: 'FULL', 'include-deleted': false })
        .then((page) => page.content)
        .catch(() => []),
    'enabled workflows',
  );
  const names = new Map<string, string>();
  for (const w of workflows.data ?? []) {
    for (const state of w.definition?.states ?? []) {
      names.set(`${w.dictionaryId} ${state.key}`, state.name);
      if (!names.has(` ${state.key}`)) names.set(` ${state.key}`, state.name);
    }
  }
  return (dictionaryId: number | null, key: string) =>
    names.get(`${dictionaryId ?? ''} ${key}`) ?? names.get(` ${key}`) ?? key;
}
