import { trpc } from '../../api';
import { useLoaded } from '../../data';

/**
 * The states of the dictionary's enabled workflow, to start accepted entries in (docs/staging.md,
 * `workflowState`); an empty list where the dictionary has no workflow (the choice is not offered then),
 * undefined while it loads.
 */
export function useWorkflowStates(
  dictionaryId: number | undefined,
): { key: string; name: string }[] | undefined {
  const workflow = useLoaded(
    () =>
      dictionaryId === undefined
        ? Promise.resolve(null)
        : trpc.workflows.list
            .query({
              'dictionary-id': dictionaryId,
              enabled: true,
              page: 0,
              size: 1,
              format: 'FULL',
              'include-deleted': false,
            })
            .then((page) => page.content[0] ?? null)
            .catch(() => null),
    `staging workflow ${dictionaryId}`,
  );
  if (workflow.loading && !workflow.data) return undefined;
  return (workflow.data?.definition?.states ?? []).map((state) => ({ key: state.key, name: state.name }));
}
