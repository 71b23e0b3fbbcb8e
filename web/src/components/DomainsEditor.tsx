import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { trpc } from '../api';
import { type Dictionary, useLoaded } from '../data';
import { Problems } from './FieldValues';

export interface DomainOption {
  oid: string;
  /** The domain's path, "Engineering › Hydraulics", so namesakes under different parents differ. */
  label: string;
}

/** The dictionary's live domains with their paths, in the server's order (none without domains). */
export function useDomains(dictionary: Dictionary | undefined) {
  const id = dictionary?.id;
  return useLoaded(async (): Promise<DomainOption[]> => {
    if (id === undefined || !dictionary?.hasDomains) return [];
    const page = await trpc.domains.list.query({
      'dictionary-id': id,
      page: 0,
      size: 1000,
      format: 'FULL',
      'include-deleted': false,
    });
    const byId = new Map(page.content.map((d) => [d.id, d]));
    const path = (domainId: number, seen = new Set<number>()): string => {
      const domain = byId.get(domainId);
      if (!domain) return '';
      const parent = domain.parentDomainId;
      if (parent === null || parent === undefined || seen.has(parent) || !byId.has(parent))
        return domain.name ?? '';
      return `${path(parent, seen.add(domainId))} › ${domain.name ?? ''}`;
    };
    return page.content.map((d) => ({ oid: d.oid ?? '', label: path(d.id) }));
  }, `domains ${id} ${dictionary?.hasDomains}`);
}

/** Checkboxes choosing the concept's domains among the dictionary's; the server's messages beside them. */
export function DomainsEditor(props: {
  dictionary: Dictionary;
  chosen: string[];
  problems?: string[];
  onChange: (chosen: string[]) => void;
}) {
  const { t } = useTranslation('concept');
  const { dictionary, chosen, problems, onChange } = props;
  const domains = useDomains(dictionary);
  const errorId = useId();
  const options = domains.data ?? [];
  // A chosen domain the list does not have (deleted since) stays visible, so it can be taken away.
  const unknown = chosen.filter((oid) => !options.some((o) => o.oid === oid));
  if (options.length === 0 && unknown.length === 0) return null;
  return (
    <fieldset className="domains" aria-describedby={problems?.length ? errorId : undefined}>
      <legend>{t('domainsEditor.legend')}</legend>
      {[...options, ...unknown.map((oid) => ({ oid, label: t('domainsEditor.unknown', { oid }) }))].map(
        (option) => (
          <label key={option.oid} className="check">
            <input
              type="checkbox"
              checked={chosen.includes(option.oid)}
              onChange={(e) =>
                onChange(
                  e.target.checked ? [...chosen, option.oid] : chosen.filter((oid) => oid !== option.oid),
                )
              }
            />
            {option.label}
          </label>
        ),
      )}
      <Problems id={errorId} list={problems} />
    </fieldset>
  );
}
