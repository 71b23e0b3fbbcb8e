import { useTranslation } from 'react-i18next';
import type { Concept } from '../data';
import { onLinkClick, withQuery } from '../routes';
import { useConceptLabels } from './concept-labels';

type Link = NonNullable<Concept['refLinks']>[number];

/** Only these schemes become anchors (the server accepts no other); anything else stays text. */
const SAFE_URL = /^(https?|mailto|ftp):/i;

/**
 * An entry's reference links in the concept view: the linked text, in which field, and where it leads:
 * an address as an external link, a concept or a term as a link to its concept's page. Texts are React
 * text; an invalid link (its target deleted) is marked so.
 */
export function RefLinkList(props: {
  links: Link[];
  fieldName: (oid: string) => string;
  languages: string[];
}) {
  const { t } = useTranslation('concept');
  const { links, fieldName, languages } = props;
  const labels = useConceptLabels(
    links.flatMap((l) => (l.conceptId === null ? [] : [l.conceptId])),
    languages,
  );
  if (links.length === 0) return null;
  return (
    <ul className="ref-links" aria-label={t('refLinks.label')}>
      {links.map((link) => {
        const where = t('refLinks.where', { text: link.text, field: fieldName(link.sourceFieldOid) });
        let target: React.ReactNode = link.url ?? '';
        if (link.type === 'URL' && link.url && SAFE_URL.test(link.url)) {
          target = (
            <a href={link.url} rel="noopener noreferrer" target="_blank">
              {link.url}
            </a>
          );
        } else if (link.type !== 'URL' && link.conceptId !== null) {
          target = (
            <a
              href={withQuery(`/concepts/${link.conceptId}`, { langs: languages.join(',') })}
              onClick={onLinkClick}
            >
              {labels.get(link.conceptId) ?? t('conceptN', { id: link.conceptId })}
            </a>
          );
        }
        return (
          <li key={link.id} className="value">
            {where} → {target}
            {link.invalid && <span className="hint"> {t('refLinks.invalid')}</span>}
          </li>
        );
      })}
    </ul>
  );
}
