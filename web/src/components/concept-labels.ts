import { useEffect, useState } from 'react';
import { trpc } from '../api';
import { conceptLabel } from './concept-text';

/**
 * Labels of other concepts (their first term in one of `languages`), fetched once per id; an id not yet
 * answered (or unreadable) has no label, so callers show "Concept N" meanwhile.
 */
export function useConceptLabels(ids: number[], languages: string[]): Map<number, string> {
  const [labels, setLabels] = useState(new Map<number, string>());
  const key = [...new Set(ids)].sort((a, b) => a - b).join(',');
  const langs = languages.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` and `langs` name the ids and languages.
  useEffect(() => {
    let live = true;
    for (const id of key ? key.split(',').map(Number) : []) {
      trpc.concepts.get
        .query({ id, format: 'SHORT', 'with-comments': false, 'include-deleted': false })
        .then((other) => live && setLabels((map) => new Map(map).set(id, conceptLabel(other, languages))))
        .catch(() => undefined);
    }
    return () => {
      live = false;
    };
  }, [key, langs]);
  return labels;
}
