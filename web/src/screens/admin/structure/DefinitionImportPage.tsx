import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import './structure.css';
import { rest, trpc } from '../../../api';
import { Choice } from '../../../components/controls';
import { forgetCachedData, useLoaded } from '../../../data';
import { onLinkClick } from '../../../routes';
import {
  DefinitionSummaryList,
  FilterMapping,
  type FilterValidation,
  type Mappings,
  type Summary,
} from './DefinitionImportSteps';
import { formProblems, Problems, useWrite } from './kit';
import { useRights } from './rights';

interface Started {
  importId: string;
  hasFilters: boolean;
  success: boolean;
  errorMessage: string | null;
  summary?: Summary;
}

interface Written {
  id: number;
  isNew: boolean;
  filters?: { added: number; skipped: number };
}

/**
 * /admin/dictionaries/import: a dictionary's structure from an exported definition (XML), into a new
 * dictionary or merged into one the caller administers, and its filters when asked. The file is checked
 * whole and what it holds shown before anything is written; filters naming users, groups or fields the
 * target lacks ask for a mapping first; a second click while a step runs does nothing.
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
  const [withFilters, setWithFilters] = useState(true);
  const [mapping, setMapping] = useState<{ id: number; isNew: boolean; validation: FilterValidation } | null>(
    null,
  );
  const [written, setWritten] = useState<Written | null>(null);
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
    setMapping(null);
    const body = new FormData();
    body.set('file', file);
    void write.run(async () => {
      const response = await rest('/dictionaries/import-definition/start', { method: 'POST', body });
      setStarted((await response.json()) as Started);
    });
  };
  /** The filters' step: written when everything they name is found or mapped, else the mapping asked. */
  async function writeFilters(importId: string, target: { id: number; isNew: boolean }, mappings?: Mappings) {
    const answer = await trpc.dictionaryDefinitions.processFilter.mutate({
      'import-id': importId,
      ...mappings,
    });
    if ('missingUsers' in answer) {
      setMapping({ ...target, validation: answer });
      return;
    }
    if (!answer.success) throw new Error(answer.errorMessage ?? t('import.failed'));
    forgetCachedData();
    setStarted(null);
    setMapping(null);
    setWritten({
      ...target,
      filters: { added: answer.addedFiltersCount, skipped: answer.skippedFiltersCount },
    });
  }

  const process = () =>
    void write.run(async () => {
      if (!started) return;
      const includeFilters = started.hasFilters && withFilters;
      const result = await trpc.dictionaryDefinitions.processDictionary.mutate({
        'import-id': started.importId,
        'dictionary-id': chosen === 'new' ? 'new' : Number(chosen),
        'include-filters': includeFilters,
      });
      if (!result.success || result.dictionaryId === null) {
        throw new Error(result.errorMessage ?? t('import.failed'));
      }
      forgetCachedData();
      const target = { id: result.dictionaryId, isNew: result.dictionaryNew };
      if (includeFilters) return writeFilters(started.importId, target);
      setStarted(null);
      setWritten(target);
    });

  const mapped = (mappings: Mappings) =>
    void write.run(async () => {
      if (started && mapping) await writeFilters(started.importId, mapping, mappings);
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
      {started?.success && !mapping && (
        <fieldset className="card structure-form">
          <legend>{t('import.targetStep')}</legend>
          <p role="status">{t('import.checked')}</p>
          {started.summary && <DefinitionSummaryList summary={started.summary} />}
          {started.hasFilters && (
            <label className="check">
              <input
                type="checkbox"
                checked={withFilters}
                onChange={(event) => setWithFilters(event.target.checked)}
              />
              {t('import.withFilters', { count: started.summary?.filters.length ?? 0 })}
            </label>
          )}
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
      {mapping && (
        <>
          <FilterMapping validation={mapping.validation} busy={write.busy} onSubmit={mapped} />
          <Problems id="mapping-problems" messages={problems.general} />
        </>
      )}
      {write.busy && <p role="status">{t('working')}</p>}
      {written && (
        <p role="status">
          {t(written.isNew ? 'import.created' : 'import.merged')}{' '}
          {written.filters && `${t('import.filtersWritten', written.filters)} `}
          <a href={`/admin/dictionaries/${written.id}/languages`} onClick={onLinkClick}>
            {t('import.open')}
          </a>
        </p>
      )}
    </section>
  );
}
