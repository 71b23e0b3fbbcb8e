import { trpc } from '../../api';
import { useLoaded } from '../../data';

type Workflow = Awaited<ReturnType<typeof trpc.workflows.list.query>>['content'][number];

/** The enabled workflows the caller may see (none where the caller may not list them; undefined: loading). */
export function useEnabledWorkflows(): Workflow[] | undefined {
  const workflows = useLoaded(
    () =>
      trpc.workflows.list
        .query({ enabled: true, size: 500, page: 0, format: 'FULL', 'include-deleted': false })
        .then((page) => page.content)
        .catch(() => []),
    'enabled workflows',
  );
  return workflows.data;
}

/**
 * Workflow state keys named as the enabled workflows name them: `name(dictionaryId, key)`, or by key
 * alone (the first workflow naming it) where the dictionary is not known. One call for the page.
 */
export function useStateNames() {
  const workflows = useEnabledWorkflows();
  const names = new Map<string, string>();
  for (const w of workflows ?? []) {
    for (const state of w.definition?.states ?? []) {
      names.set(`${w.dictionaryId} ${state.key}`, state.name);
      if (!names.has(` ${state.key}`)) names.set(` ${state.key}`, state.name);
    }
  }
  return (dictionaryId: number | null, key: string) =>
    names.get(`${dictionaryId ?? ''} ${key}`) ?? names.get(` ${key}`) ?? key;
}

/**
 * The transitions of the enabled workflows of some dictionaries, by key (the first name met); `loaded`
 * false while the workflows are asked for.
 */
export function useTransitionNames(dictionaryIds: readonly number[]) {
  const workflows = useEnabledWorkflows();
  const names = new Map<string, string>();
  for (const w of workflows ?? []) {
    if (!dictionaryIds.includes(w.dictionaryId ?? -1)) continue;
    for (const transition of w.definition?.transitions ?? []) {
      if (!names.has(transition.key)) names.set(transition.key, transition.name);
    }
  }
  return { names, loaded: workflows !== undefined };
}
