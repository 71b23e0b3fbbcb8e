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

/** The enabled workflow of each of some dictionaries, asked for by dictionary (one each at most). */
function loadDictionaryWorkflows(dictionaryIds: readonly number[]): Promise<Workflow[]> {
  return Promise.all(
    dictionaryIds.map((id) =>
      trpc.workflows.list
        .query({
          'dictionary-id': id,
          enabled: true,
          size: 10,
          page: 0,
          format: 'FULL',
          'include-deleted': false,
        })
        .then((page) => page.content),
    ),
  ).then((lists) => lists.flat());
}

/**
 * The transitions of the enabled workflows of some dictionaries, by key (the first name met): asked for
 * by dictionary, so that no page of the client's other workflows (500 at most) hides them. `loaded`
 * false while they are asked for or when asking failed (`error`): an empty `names` then says nothing.
 */
export function useTransitionNames(dictionaryIds: readonly number[]) {
  const ids = [...new Set(dictionaryIds)].sort((a, b) => a - b);
  const workflows = useLoaded(() => loadDictionaryWorkflows(ids), `workflows of ${ids.join(',')}`);
  const names = new Map<string, string>();
  for (const w of workflows.data ?? []) {
    for (const transition of w.definition?.transitions ?? []) {
      if (!names.has(transition.key)) names.set(transition.key, transition.name);
    }
  }
  return { names, loaded: !workflows.loading && !workflows.error, error: workflows.error };
}
