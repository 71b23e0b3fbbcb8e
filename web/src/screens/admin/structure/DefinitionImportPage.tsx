import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import './structure.css';
import { rest, trpc } from '../../../api';
import { Choice } from '../../../components/controls';
import { forgetCachedData, useLoaded } from '../../../data';
import { onLinkClick } from '../../../routes';
import { formProblems, Problems, useWrite } from './kit';
import { useRights } from './rights';

interface Started {
  importId: string;
  hasFilters: boolean;
  success: boolean;
  errorMessage: string | null;
}

/**
 * /admin/dictionaries/import: a dictionary's structure from an exported definition (XML), into a new
 * dictionary or merged into one the caller administers. The file is checked whole before anything is
 * written; a second click while a step runs does nothing.
 */
export default function DefinitionImportPage() {
  const { t } = useTranslation('structure');
  const rights = useRights();
  const dictionaries = useLoaded(
    () =>
      trpc.dictionaries.list
        .query({ page: 0, size: 500, format: 'SHORT', 'include-deleted': false })
        .then((page) => page.content),
    'import-targets',
  );
  const [file, setFile] = useState<File | null>(null);
  const [started, setStarted] = useState<Started | null>(null);
  const [target, setTarget] = useState('new');
  const [written, setWritten] = useState<{ id: number; isNew: boolean } | null>(null);
  const write = useWrite();
  const problems = formProblems(write.problem, 'definition');
  const targets = [
    ...(rights?.admin ? [{ value: 'new', label: t('import.newDictionary') }] : []),
    ...(dictionaries.data ?? [])
      .filter((d) => rights?.administers(d))
      .map((d) => ({ value: String(d.id), label: t('import.mergeInto', { name: d.name }) })),
  ];
  // Non-administrators cannot create a dictionary: their first choice is a dictionary they administer.
  const chosen = targets.some((option) => option.value === target) ? target : (targets[0]?.value ?? '');

  const start = (event: React.FormEvent) => {
    event.preventDefault();
    if (!file) return;
    setStarted(null);
    setWritten(null);
    const body = new FormData();
    body.set('file', file);
    void write.run(async () => {
      const response = await rest('/dictionaries/import-definition/start', { method: 'POST', body });
      setStarted((await response.json()) as Started);
    });
  };
  const process = () =>
    void write.run(async () => {
      if (!started) return;
      const result = await trpc.dictionaryDefinitions.processDictionary.mutate({
        'import-id': started.importId,
        'dictionary-id': chosen === 'new' ? 'new' : Number(chosen),
        'include-filters': false,
      });
      if (!result.success || result.dictionaryId === null) {
        throw new Error(result.errorMessage ?? t('import.failed'));
      }
      forgetCachedData();
      setStarted(null);
      setWritten({ id: result.dictionaryId, isNew: result.dictionaryNew });
    });

  return (
    <section className="structure-page" aria-labelledby="import-title">
      <h1 id="import-title">{t('import.title')}</h1>
      <p>{t('import.intro')}</p>
      <form className="card structure-form" onSubmit={start} aria-label={t('import.fileStep')}>
        <label>
          {t('import.file')}
          <input
            type="file"
            accept=".xml,application/xml,text/xml"
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            aria-describedby={!started && problems.general.length ? 'definition-problems' : undefined}
          />
        </label>
        <div className="actions">
          <button type="submit" className="primary" disabled={!file || write.busy}>
            {t('import.check')}
          </button>
        </div>
        {!started && <Problems id="definition-problems" messages={problems.general} />}
      </form>
      {started && !started.success && (
        <Problems id="definition-refused" messages={[started.errorMessage ?? t('import.failed')]} />
      )}
      {started?.success && (
        <fieldset className="card structure-form">
          <legend>{t('import.targetStep')}</legend>
          <p role="status">{t('import.checked')}</p>
          {started.hasFilters && <p className="hint">{t('import.filtersLeft')}</p>}
          <Choice
            label={t('import.target')}
            value={chosen}
            onChange={setTarget}
            options={targets}
            describedBy={problems.general.length ? 'process-problems' : undefined}
          />
          <div className="actions">
            <button type="button" className="primary" disabled={write.busy || !chosen} onClick={process}>
              {t('import.write')}
            </button>
          </div>
          <Problems id="process-problems" messages={problems.general} />
        </fieldset>
      )}
      {write.busy && <p role="status">{t('working')}</p>}
      {written && (
        <p role="status">
          {t(written.isNew ? 'import.created' : 'import.merged')}{' '}
          <a href={`/admin/dictionaries/${written.id}/languages`} onClick={onLinkClick}>
            {t('import.open')}
          </a>
        </p>
      )}
    </section>
  );
}
