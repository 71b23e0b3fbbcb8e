import * as Progress from '@radix-ui/react-progress';
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemOf, rest, trpc } from '../api';
import { Choice, dictionaryOptions, ErrorMessage } from '../components/controls';
import { mayInDictionary, useDictionaryRights } from '../components/dictionary-rights';
import { ImportErrors, type ImportProblem } from '../components/ImportErrors';
import { useImportTargets } from '../components/import-targets';
import {
  type StatusChoice,
  StatusMappingChoice,
  statusMappingParam,
} from '../components/StatusMappingChoice';
import { type Dictionary, forgetCachedData, loadDictionaries, useLoaded } from '../data';
import { formatNumber } from '../i18n';
import { idList, onLinkClick, withQuery } from '../routes';
import { UploadingNote } from '../work/UploadingNote';
import { type StagingTarget, useStagingTargets } from './staging/staging-targets';
import { ExportForm } from './tbx/ExportForm';
import { type FieldTarget, MultiTermMapping, mayBeMultiTerm } from './tbx/MultiTermMapping';
import {
  isSpreadsheet,
  mappingToSend,
  type SheetMapping,
  SpreadsheetMapping,
} from './tbx/SpreadsheetMapping';

const POLL_MS = 500;
const MERGE_MODES = [
  { value: 'ENTRY_ID', label: 'Update the concept with the same entry id' },
  { value: 'TERM', label: 'Update the concept sharing a term' },
  { value: 'NONE', label: 'Always add new concepts' },
];
/** A SKOS file, by its name (the server reads it again by name and content). */
const isSkos = (file: File | null) => file !== null && /\.(ttl|nt|rdf|owl|jsonld)$/i.test(file.name);
const ACCEPTED = [
  '.tbx,.xml,.mtf,.zip,application/x-tbx,application/xml,application/zip',
  '.csv,.tsv,.txt,.xlsx,text/csv,text/tab-separated-values',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.ttl,.nt,.rdf,.owl,.jsonld,text/turtle,application/rdf+xml,application/ld+json',
].join(',');

interface ImportSummary {
  dictionaryId?: number;
  concepts?: number;
  terms?: number;
  updated?: number;
  skipped?: number;
  errorCount?: number;
  errors?: ImportProblem[];
}

type Job = {
  status: 'RUNNING' | 'DONE' | 'FAILED';
  processed: number;
  total: number | null;
  message?: string | null;
  summary?: ImportSummary;
};

/** Upload, then follow the job (GET /jobs/{id}) until it is done; the bar shows processed of total. */
/** `onImported`: the screen's list of dictionaries is read again (an import may have created one). */
function ImportForm(props: { dictionaries: Dictionary[]; onImported: () => void; initialTarget?: string }) {
  const { dictionaries, onImported } = props;
  const { t } = useTranslation('tbx');
  const [target, setTarget] = useState<string>(props.initialTarget ?? 'new');
  const [name, setName] = useState('');
  const [merge, setMerge] = useState('ENTRY_ID');
  const [statuses, setStatuses] = useState<StatusChoice>({});
  const [job, setJob] = useState<Job | null>(null);
  const [jobId, setJobId] = useState<number | null>(null);
  const sending = useRef(false);
  const [sendingShown, setSendingShown] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The staging area the last import went into (its result says "staged", with a link to review).
  const [stagedIn, setStagedIn] = useState<StagingTarget | null>(null);
  // A spreadsheet goes through the mapping step (tbx/SpreadsheetMapping.tsx); TBX and MultiTerm do not.
  const [file, setFile] = useState<File | null>(null);
  const [mapping, setMapping] = useState<SheetMapping | null>(null);
  const onMapping = useCallback((next: SheetMapping | null) => setMapping(next), []);
  const sheet = isSpreadsheet(file) ? file : null;
  const skos = isSkos(file);
  // An XML file may be MultiTerm's: its mapping step (tbx/MultiTermMapping.tsx) tells, with its .xdt.
  const multiterm = !skos && mayBeMultiTerm(file) ? file : null;
  const [definition, setDefinition] = useState<File | null>(null);
  const [fieldMapping, setFieldMapping] = useState<FieldTarget[] | null>(null);
  const onFieldMapping = useCallback((next: FieldTarget[] | null) => setFieldMapping(next), []);
  const targets = useImportTargets(dictionaries);
  // Staging areas of the dictionaries the caller may import into: the entries wait there for review.
  const areas = useStagingTargets(targets?.existing.map((entry) => entry.dictionary.id));
  const targetOptions = targets
    ? [
        ...(targets.newDictionary ? [{ value: 'new', label: t('import.newDictionary') }] : []),
        ...dictionaryOptions(targets.existing.map((entry) => entry.dictionary)),
        ...areas.map((area) => ({
          value: `area:${area.id}`,
          label: t('import.intoArea', { area: area.name, dictionary: area.dictionaryName }),
        })),
      ]
    : [];
  // The choice may name what the caller may not import into (the default is a new dictionary).
  const into = targetOptions.some((option) => option.value === target) ? target : targetOptions[0]?.value;
  const area = areas.find((a) => `area:${a.id}` === into);
  const existing = targets?.existing.find(
    (entry) => String(entry.dictionary.id) === into || entry.dictionary.id === area?.dictionaryId,
  );
  const section = existing?.sectionOid;
  const languages = into === 'new' ? undefined : existing?.dictionary.languages;

  useEffect(() => {
    if (jobId === null) return;
    const timer = setInterval(async () => {
      try {
        const task = await trpc.jobs.get.query({ id: jobId });
        setJob({
          status: task.status,
          processed: task.processed,
          total: task.total,
          message: task.message,
          summary: task.result as ImportSummary,
        });
        if (task.status !== 'RUNNING') {
          setJobId(null);
          forgetCachedData();
          onImported();
        }
      } catch (caught) {
        setError(problemOf(caught).message);
        setJobId(null);
      }
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [jobId, onImported]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // A second click while the file is on its way would import it twice.
    if (sending.current) return;
    sending.current = true;
    setSendingShown(true);
    setError(null);
    setJob(null);
    setStagedIn(area ?? null);
    const form = new FormData(event.currentTarget);
    const body = new FormData();
    body.set('file', form.get('file') as Blob);
    if (sheet && mapping) body.set('mapping', JSON.stringify(mappingToSend(mapping, languages)));
    if (multiterm && fieldMapping) {
      body.set('field-mapping', JSON.stringify(fieldMapping));
      if (definition) body.set('definition', definition);
    }
    const params = {
      ...(into === 'new'
        ? { name }
        : {
            'dictionary-id': existing?.dictionary.id,
            'section-oid': section,
            merge,
            'staging-area-id': area?.id,
          }),
      // Administrative statuses are a TBX matter; a spreadsheet's statuses come as its cells say, SKOS
      // labels' as their kind.
      ...(sheet || skos ? {} : { 'status-mapping': statusMappingParam(statuses) }),
    };
    const path = sheet
      ? '/dictionaries/import-spreadsheet'
      : skos
        ? '/dictionaries/import-skos'
        : '/dictionaries/import-tbx';
    try {
      const response = await rest(withQuery(path, params), { method: 'POST', body });
      const answer = (await response.json()) as { jobTaskId?: number; result?: ImportSummary };
      if (answer.jobTaskId !== undefined && response.status === 202) {
        setJob({ status: 'RUNNING', processed: 0, total: null });
        setJobId(answer.jobTaskId);
      } else {
        setJob({ status: 'DONE', processed: 1, total: 1, summary: answer.result });
        forgetCachedData();
        onImported();
      }
    } catch (caught) {
      setError(problemOf(caught).message);
    } finally {
      sending.current = false;
      setSendingShown(false);
    }
  }

  const percent = job
    ? job.status === 'DONE'
      ? 100
      : job.total
        ? Math.round((100 * job.processed) / job.total)
        : 0
    : 0;
  if (!targets || !into) {
    return (
      <section className="stack card" aria-labelledby="import-title">
        <h2 id="import-title">{t('import.title')}</h2>
        <p role="status">{targets ? t('import.notAllowed') : t('common:loading')}</p>
      </section>
    );
  }
  return (
    <form className="stack card" onSubmit={submit} aria-labelledby="import-title">
      <h2 id="import-title">{t('import.title')}</h2>
      <label>
        {t('import.file')}
        <input
          type="file"
          name="file"
          accept={ACCEPTED}
          required
          aria-describedby="import-kinds"
          onChange={(event) => setFile(event.target.files?.[0] ?? null)}
        />
      </label>
      <p id="import-kinds" className="hint">
        {t('import.kinds')}
      </p>
      <Choice label={t('import.into')} value={into} options={targetOptions} onChange={setTarget} />
      {into === 'new' ? (
        <label>
          {t('import.name')}
          <input value={name} onChange={(e) => setName(e.target.value)} required />
        </label>
      ) : (
        <Choice
          label={t('import.existing')}
          value={merge}
          options={MERGE_MODES.map((mode) => ({ ...mode, label: t(`import.merge.${mode.value}`) }))}
          onChange={setMerge}
        />
      )}
      {sheet && (
        // Another file starts afresh: how the last one was read says nothing of it.
        <SpreadsheetMapping
          key={`${sheet.name} ${sheet.size} ${sheet.lastModified}`}
          file={sheet}
          languages={languages}
          onChange={onMapping}
        />
      )}
      {multiterm && !/\.zip$/i.test(multiterm.name) && (
        <label>
          {t('multiterm.definition')}
          <input
            type="file"
            accept=".xdt"
            aria-describedby="multiterm-definition-hint"
            onChange={(event) => setDefinition(event.target.files?.[0] ?? null)}
          />
          <span id="multiterm-definition-hint" className="hint">
            {t('multiterm.definitionHint')}
          </span>
        </label>
      )}
      {multiterm && (
        <MultiTermMapping
          key={`${multiterm.name} ${multiterm.size} ${multiterm.lastModified}`}
          file={multiterm}
          definition={definition}
          onChange={onFieldMapping}
        />
      )}
      {!sheet && !skos && <StatusMappingChoice value={statuses} onChange={setStatuses} />}
      <div className="actions">
        {sendingShown && <UploadingNote />}
        <button
          type="submit"
          className="primary"
          disabled={jobId !== null || sendingShown || (sheet !== null && mapping === null)}
        >
          {t('import.submit')}
        </button>
      </div>
      <ErrorMessage text={error} />
      {job && (
        <div className="stack">
          <Progress.Root className="progress" value={percent} aria-label={t('import.progress')}>
            <Progress.Indicator
              className="progress-indicator"
              style={{ transform: `translateX(-${100 - percent}%)` }}
            />
          </Progress.Root>
          <p role="status">
            {job.status === 'RUNNING' &&
              (job.total
                ? t('import.runningOf', {
                    processed: formatNumber(job.processed),
                    total: formatNumber(job.total),
                  })
                : t('import.running', { processed: formatNumber(job.processed) }))}
            {job.status === 'FAILED' && t('import.failed', { reason: job.message ?? t('import.noReason') })}
            {job.status === 'DONE' &&
              stagedIn &&
              t('import.staged', {
                entries: formatNumber(job.summary?.concepts ?? 0),
                existing: formatNumber(job.summary?.updated ?? 0),
                area: stagedIn.name,
                errors: formatNumber(job.summary?.errorCount ?? 0),
              })}
            {job.status === 'DONE' &&
              !stagedIn &&
              t('import.done', {
                concepts: formatNumber(job.summary?.concepts ?? 0),
                terms: formatNumber(job.summary?.terms ?? 0),
                updated: formatNumber(job.summary?.updated ?? 0),
                skipped: formatNumber(job.summary?.skipped ?? 0),
                errors: formatNumber(job.summary?.errorCount ?? 0),
              })}
          </p>
          {job.status === 'DONE' && stagedIn && (
            <a href={`/staging/${stagedIn.id}`} onClick={onLinkClick}>
              {t('import.reviewStaged', { area: stagedIn.name })}
            </a>
          )}
          {job.status === 'DONE' && !stagedIn && job.summary?.dictionaryId !== undefined && (
            <a href={withQuery('/search', { d: job.summary.dictionaryId })} onClick={onLinkClick}>
              {t('import.searchImported')}
            </a>
          )}
          {job.status === 'DONE' && (
            <ImportErrors
              errors={job.summary?.errors ?? []}
              count={job.summary?.errorCount ?? 0}
              rows={sheet !== null}
            />
          )}
        </div>
      )}
    </form>
  );
}

export default function TbxScreen({ query }: { query: URLSearchParams }) {
  const { t } = useTranslation('tbx');
  // Read afresh on every visit: dictionaries created, renamed or deleted since (administration, another
  // user) would otherwise be missing from the lists until the next sign-in.
  const dictionaries = useLoaded(
    () => {
      forgetCachedData();
      return loadDictionaries();
    },
    `tbx ${query.get('reload') ?? ''}`,
  );
  const rights = useDictionaryRights(dictionaries.data ?? []);
  if (dictionaries.error) return <p role="alert">{dictionaries.error.message}</p>;
  if (!dictionaries.data || !rights) return <p role="status">{t('common:loading')}</p>;
  // Export offers the dictionaries where the caller holds CONCEPT_EXPORT (the server still decides).
  const exportable = dictionaries.data.filter((d) => mayInDictionary(rights.get(d.id), 'CONCEPT_EXPORT'));
  const chosen = exportable.find((d) => d.id === idList(query.get('d'))[0]);
  return (
    <div className="stack">
      <h1>{t('title')}</h1>
      <ImportForm
        dictionaries={dictionaries.data}
        onImported={dictionaries.reload}
        // /tbx?area=<id>: "Import into this area" from a staging area's page
        initialTarget={query.get('area') ? `area:${query.get('area')}` : undefined}
      />
      {exportable.length > 0 ? (
        <ExportForm key={chosen?.id ?? 0} dictionaries={exportable} chosen={chosen} />
      ) : (
        <p className="hint">{t('export.none')}</p>
      )}
    </div>
  );
}
