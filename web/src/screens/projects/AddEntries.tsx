import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemOf, trpc } from '../../api';
import { Choice, ErrorMessage } from '../../components/controls';
import { useLoaded } from '../../data';
import { formatNumber } from '../../i18n';

/** Adds concepts to a project: by ids typed, or every hit of one of the caller's saved searches. */
export function AddEntries({ projectId, onAdded }: { projectId: number; onAdded: () => void }) {
  const { t } = useTranslation('project');
  const saved = useLoaded(() => trpc.savedQueries.list.query({}).catch(() => []), 'saved queries');
  const [ids, setIds] = useState('');
  const [savedId, setSavedId] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  async function add(input: { conceptIds: number[] } | { savedQueryId: number }) {
    setError(null);
    setNotice(null);
    try {
      const result = await trpc.projects.addEntries.mutate({ id: projectId, ...input });
      setNotice(
        t('entries.added', {
          added: formatNumber(result.added),
          skipped: formatNumber(result.skipped),
        }),
      );
      setIds('');
      onAdded();
    } catch (caught) {
      setError(problemOf(caught).message);
    }
  }

  const typed = ids
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(Number);
  return (
    <details className="add-entries">
      <summary>{t('entries.add')}</summary>
      <div className="inline-form">
        <label>
          {t('entries.ids')}
          <input value={ids} onChange={(e) => setIds(e.target.value)} placeholder={t('entries.idsHint')} />
        </label>
        <button type="button" disabled={typed.length === 0} onClick={() => void add({ conceptIds: typed })}>
          {t('entries.addIds')}
        </button>
      </div>
      {(saved.data ?? []).length > 0 && (
        <div className="inline-form">
          <Choice
            label={t('entries.savedQuery')}
            value={savedId}
            empty={t('assignment.choose')}
            options={(saved.data ?? []).map((q) => ({ value: String(q.id), label: q.name }))}
            onChange={setSavedId}
          />
          <button
            type="button"
            disabled={!savedId}
            onClick={() => void add({ savedQueryId: Number(savedId) })}
          >
            {t('entries.addSaved')}
          </button>
        </div>
      )}
      <ErrorMessage text={error} />
      {notice && <p role="status">{notice}</p>}
    </details>
  );
}
