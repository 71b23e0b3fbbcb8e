import { useTranslation } from 'react-i18next';
import type { trpc } from '../api';

export type TermCheck = Awaited<ReturnType<typeof trpc.termDecoration.check.mutate>>;

const names = (terms: { name: string }[]) => terms.map((term) => term.name).join(', ');

/**
 * What termDecoration.check found in a translation (docs/decoration.md): terms to avoid in either
 * text with their replacements, source terms whose approved translation is missing, and source terms
 * without an equivalent. All of it React text.
 */
export function TermCheckReport({ check, language }: { check: TermCheck; language: string }) {
  const { t } = useTranslation('check');
  const count = check.avoided.length + check.missingTranslations.length + check.noEquivalent.length;
  return (
    <section className="card term-check" aria-labelledby="term-check-title">
      <h2 id="term-check-title">{t('report.title')}</h2>
      {count === 0 && <p>{t('report.allApproved')}</p>}
      {check.avoided.length > 0 && (
        <>
          <h3>{t('report.avoid')}</h3>
          <ul className="avoided">
            {check.avoided.map((item) => (
              <li key={`${item.segment}-${item.start}`}>
                <span className={`term-mark term-${item.status}`}>{item.text}</span>{' '}
                <span className={`status-badge term-${item.status}`}>{t(`statusName.${item.status}`)}</span>{' '}
                {item.segment === 'source' ? t('report.inText') : t('report.inTranslation')}
                {item.replacements.length > 0 ? t('report.use', { names: names(item.replacements) }) : ''}
              </li>
            ))}
          </ul>
        </>
      )}
      {check.missingTranslations.length > 0 && (
        <>
          <h3>{t('report.missing')}</h3>
          <ul className="missing">
            {check.missingTranslations.map((item) => (
              <li key={item.start}>
                {t('report.expected', { text: item.text, names: names(item.expected), language })}
              </li>
            ))}
          </ul>
        </>
      )}
      {check.noEquivalent.length > 0 && (
        <>
          <h3>{t('report.noEquivalent', { language })}</h3>
          <ul className="no-equivalent">
            {check.noEquivalent.map((item) => (
              <li key={item.start}>{item.text}</li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
