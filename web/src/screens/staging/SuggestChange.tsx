import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { trpc } from '../../api';
import type { Concept, Dictionary } from '../../data';
import { useLoaded } from '../../data';
import { SuggestForm } from './SuggestEntry';
import { contentOfConcept, type StagingArea } from './staging-data';
import './staging.css';

/**
 * "Suggest a change" on a concept (docs/staging.md): offered where the caller may use a staging area of
 * the concept's dictionary; the concept's values as the start, sent to the area's reviewers instead of
 * being saved.
 */
export default function SuggestChange({
  concept,
  dictionary,
}: {
  concept: Concept;
  dictionary?: Dictionary;
}) {
  const { t } = useTranslation('staging');
  const [open, setOpen] = useState(false);
  const dictionaryId = concept.dictionaryId ?? 0;
  const areas = useLoaded(
    () =>
      trpc.staging.listAreas
        .query({ dictionaryId, page: 0, size: 100 })
        .then((page) => page.content)
        .catch(() => [] as StagingArea[]),
    `suggest areas ${dictionaryId}`,
  );
  if (!areas.data || areas.data.length === 0) return null;
  return (
    <section className="suggest-change" aria-label={t('suggest.change')}>
      {!open ? (
        <button type="button" onClick={() => setOpen(true)}>
          {t('suggest.change')}
        </button>
      ) : (
        <div className="card stack">
          <h2>{t('suggest.change')}</h2>
          <p className="hint">{t('suggest.changeHint')}</p>
          <SuggestForm
            areas={areas.data}
            dictionary={dictionary}
            initial={contentOfConcept(concept, dictionary)}
            conceptId={concept.id}
            onSuggested={() => undefined}
            onCancel={() => setOpen(false)}
          />
        </div>
      )}
    </section>
  );
}
