import { useTranslation } from 'react-i18next';
import { namesOf } from '../../components/concept-text';
import type { Dictionary } from '../../data';
import type { StagingChange } from './staging-data';

/** A change's value as text: strings as they are, lists joined, objects as their terms or JSON. */
export function valueText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(valueText).join('\n');
  const object = value as Record<string, unknown>;
  if (typeof object.name === 'string') return object.name;
  if (typeof object.term === 'string') return object.term;
  return JSON.stringify(value);
}

const MARKS = { ADDED: '+', REMOVED: '−', CHANGED: '~' } as const;

/**
 * What accepting would change in the dictionary, one row per field-level change (docs/staging.md,
 * "Diff"). Each row says its kind in words and with a sign (+, −, ~) besides its colour, and shows the
 * value before and after, struck through where it goes.
 */
export function ChangeList({ changes, dictionary }: { changes: StagingChange[]; dictionary?: Dictionary }) {
  const { t } = useTranslation('staging');
  const names = namesOf(dictionary);
  if (changes.length === 0) return <p className="hint">{t('diff.none')}</p>;
  const what = (change: StagingChange) => {
    const field = change.fieldName ?? (change.fieldOid ? names.field(change.fieldOid) : '');
    const language = change.language ? names.language(change.language) : '';
    switch (change.subject) {
      case 'TERM':
        return t('diff.subject.TERM', { language });
      case 'TERM_FIELD':
        return t('diff.subject.TERM_FIELD', { field, term: change.term ?? '' });
      case 'LANGUAGE_FIELD':
        return t('diff.subject.LANGUAGE_FIELD', { field, language });
      case 'DOMAINS':
        return t('diff.subject.DOMAINS');
      default:
        return field || change.subject;
    }
  };
  return (
    <ul className="change-list">
      {changes.map((change, index) => {
        const before = valueText(change.before);
        const after = valueText(change.after);
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: the changes of one answer, in its order
          <li key={index} className={`change change-${change.kind.toLowerCase()}`}>
            <span className="change-kind">
              <span aria-hidden="true">{MARKS[change.kind]} </span>
              {t(`diff.kind.${change.kind}`)}
            </span>
            <span className="change-what">{what(change)}</span>
            <span className="change-values">
              {before && change.kind !== 'ADDED' && (
                <del className="value">
                  <span className="visually-hidden">{t('diff.before')} </span>
                  {before}
                </del>
              )}
              {after && change.kind !== 'REMOVED' && (
                <ins className="value">
                  <span className="visually-hidden">{t('diff.after')} </span>
                  {after}
                </ins>
              )}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
