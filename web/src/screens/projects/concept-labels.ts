import { trpc } from '../../api';
import { loadSearchSettings } from '../../data';

/**
 * Concepts named by their first term in the caller's working languages (then `extra`), in one call
 * (`concepts.labels`, at most 500 ids); concepts without a label are left out.
 */
export async function conceptLabels(ids: number[], extra: string[] = []): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const settings = await loadSearchSettings();
  const languages = [
    ...(settings?.targetLanguages ?? []),
    ...(settings?.sourceLanguage ? [settings.sourceLanguage] : []),
    ...extra,
  ];
  const answer = await trpc.concepts.labels.query({ ids: [...new Set(ids)].slice(0, 500), languages });
  return new Map(answer.flatMap((label) => (label.label === null ? [] : [[label.id, label.label] as const])));
}
