import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemOf, trpc } from '../../api';
import { ErrorMessage } from '../../components/controls';
import { languagesOf, loadDictionaries, useLoaded } from '../../data';
import type { Project } from './project-data';

/** A candidate typed in: a term per language of the project (those left empty are left out), a definition. */
export function AddCandidate({ project, onAdded }: { project: Project; onAdded: () => void }) {
  const { t } = useTranslation('project');
  const dictionaries = useLoaded(loadDictionaries, 'dictionaries');
  const [terms, setTerms] = useState<Record<string, string>>({});
  const [definition, setDefinition] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const heading = useId();
  const own = (dictionaries.data ?? []).filter((d) => project.dictionaryIds?.includes(d.id));
  const languages = languagesOf(own).filter(
    (l) => !project.languages?.length || project.languages.includes(l.code),
  );
  const filled = Object.entries(terms).filter(([, term]) => term.trim() !== '');

  async function add(event: React.FormEvent) {
    event.preventDefault();
    setError(null);
    setNotice(null);
    try {
      await trpc.projects.addCandidates.mutate({
        id: project.id,
        candidates: [
          {
            terms: filled.map(([languageCode, term]) => ({ languageCode, term })),
            definition: definition.trim() || null,
          },
        ],
      });
      setTerms({});
      setDefinition('');
      setNotice(t('add.added'));
      onAdded();
    } catch (caught) {
      setError(problemOf(caught).message);
    }
  }

  return (
    <details className="card add-candidate">
      <summary id={heading}>{t('add.title')}</summary>
      <form className="form-grid" aria-labelledby={heading} onSubmit={(event) => void add(event)}>
        {languages.map((l) => (
          <label key={l.code}>
            {t('add.term', { language: l.name })}
            <input
              value={terms[l.code] ?? ''}
              onChange={(e) => setTerms({ ...terms, [l.code]: e.target.value })}
            />
          </label>
        ))}
        <label>
          {t('candidates.definition')}
          <input value={definition} onChange={(e) => setDefinition(e.target.value)} />
        </label>
        <div className="actions">
          <button type="submit" disabled={filled.length === 0}>
            {t('add.submit')}
          </button>
        </div>
      </form>
      <ErrorMessage text={error} />
      {notice && <p role="status">{notice}</p>}
    </details>
  );
}
