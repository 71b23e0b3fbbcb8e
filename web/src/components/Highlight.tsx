import { useTranslation } from 'react-i18next';
import { fuzzyRange, matchRanges } from './highlight-ranges';

/**
 * The text with the parts that match `query` marked. Rendered as React text nodes only: a value is never
 * parsed as HTML. With `fuzzy`, a text the query is not in gets its closest words marked as a near
 * match (a dotted mark, titled so, since the server found it a few edits away).
 */
export function Highlight({ text, query, fuzzy = false }: { text: string; query: string; fuzzy?: boolean }) {
  const { t } = useTranslation('common');
  const exact = matchRanges(text, query);
  const near = exact.length === 0 && fuzzy ? fuzzyRange(text, query) : null;
  const ranges = near ? [near] : exact;
  if (ranges.length === 0) return <>{text}</>;
  const parts: React.ReactNode[] = [];
  let at = 0;
  for (const [start, end] of ranges) {
    if (start > at) parts.push(text.slice(at, start));
    parts.push(
      near ? (
        <mark key={start} className="fuzzy" title={t('nearMatch')}>
          {text.slice(start, end)}
        </mark>
      ) : (
        <mark key={start}>{text.slice(start, end)}</mark>
      ),
    );
    at = end;
  }
  if (at < text.length) parts.push(text.slice(at));
  return <>{parts}</>;
}
