import { useTranslation } from 'react-i18next';
import { trpc } from '../../../api';
import { ErrorMessage } from '../../../components/controls';
import { useLoaded } from '../../../data';
import { formatNumber } from '../../../i18n';
import type { AdminPageProps } from '../admin-page';
import { DictionaryFrame } from './DictionaryFrame';
import type { FullDictionary } from './dictionary-data';
import { ScrollRegion } from './kit';

/** /admin/dictionaries/:id/statistics: concepts, terms per language, entries per workflow state. */
export default function DictionaryStatisticsPage({ params }: AdminPageProps) {
  return (
    <DictionaryFrame id={params.id ?? ''} tab="statistics">
      {({ dictionary }) => <Counts dictionary={dictionary} />}
    </DictionaryFrame>
  );
}

function Counts({ dictionary }: { dictionary: FullDictionary }) {
  const { t } = useTranslation('structure');
  const loaded = useLoaded(
    () => trpc.statistics.dictionary.query({ dictionaryId: dictionary.id }),
    `statistics-${dictionary.id}`,
  );
  const s = loaded.data;
  const names = new Map((dictionary.languages ?? []).map((language) => [language.code, language.name]));
  if (!s) return <ErrorMessage text={loaded.error?.message} />;
  return (
    <>
      <dl className="figures">
        <div>
          <dt>{t('counts.concepts')}</dt>
          <dd>{formatNumber(s.concepts)}</dd>
        </div>
        <div>
          <dt>{t('counts.terms')}</dt>
          <dd>{formatNumber(s.terms)}</dd>
        </div>
      </dl>
      <ScrollRegion label={t('counts.byLanguage')}>
        <table className="results">
          <caption>{t('counts.byLanguage')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('counts.language')}</th>
              <th scope="col">{t('counts.terms')}</th>
            </tr>
          </thead>
          <tbody>
            {s.languages.map((row) => (
              <tr key={row.languageCode}>
                <td>{names.get(row.languageCode) ?? row.languageCode}</td>
                <td>{formatNumber(row.terms)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      {s.workflow && (
        <ScrollRegion label={t('counts.byState')}>
          <table className="results">
            <caption>{t('counts.byState')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('counts.state')}</th>
                <th scope="col">{t('counts.language')}</th>
                <th scope="col">{t('counts.entries')}</th>
              </tr>
            </thead>
            <tbody>
              {s.workflow.states.map((row) => (
                <tr key={`${row.state}-${row.languageCode ?? ''}`}>
                  <td>{row.name}</td>
                  <td>{row.languageCode ? (names.get(row.languageCode) ?? row.languageCode) : '–'}</td>
                  <td>{formatNumber(row.count)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </>
  );
}
