import * as Progress from '@radix-ui/react-progress';
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemOf, rest, trpc } from '../api';
import {
  Check,
  CheckList,
  Choice,
  dictionaryOptions,
  ErrorMessage,
  languageOptions,
} from '../components/controls';
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
import { idList, navigate, onLinkClick, withQuery } from '../routes';
import { fileNameOf } from '../work/file-name';
import { UploadingNote } from '../work/UploadingNote';
import { type StagingTarget, useStagingTargets } from './staging/staging-targets';
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
const EXPORT_FORMATS = [
  { value: 'TBX', label: 'TBX-Basic v3 (DCA)' },
  { value: 'TBX_V2', label: 'TBX v2 (martif)' },
  { value: 'MULTITERM_XML', label: 'MultiTerm XML' },
  { value: 'CSV', label: 'CSV' },
  { value: 'XLSX', label: 'XLSX' },
  { value: 'SKOS_TURTLE', label: 'SKOS (Turtle)' },
  { value: 'SKOS_RDFXML', label: 'SKOS (RDF/XML)' },
  { value: 'SKOS_JSONLD', label: 'SKOS (JSON-LD)' },
];
/** SKOS formats by their choice: they download from GET /dictionaries/export-skos/{id} (docs/exchange.md). */
const SKOS_FORMATS: Record<string, { format: string; extension: string }> = {
  SKOS_TURTLE: { format: 'turtle', extension: 'ttl' },
  SKOS_RDFXML: { format: 'rdfxml', extension: 'rdf' },
  SKOS_JSONLD: { format: 'jsonld', extension: 'jsonld' },
};
/** A SKOS file, by its name (the server reads it again by name and content). */
const isSkos = (file: File | null) => file !== null && /\.(ttl|nt|rdf|owl|jsonld)$/i.test(file.name);
/** The download's extension by format (the server's Content-Disposition names it first). */
const EXTENSIONS: Record<string, string> = { MULTITERM_XML: 'xml', CSV: 'csv', XLSX: 'xlsx' };
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

/** Download a dictionary in the chosen format (TBX, MultiTerm XML, CSV, XLSX, SKOS) and restrictions. */
function ExportForm({ dictionaries, chosen }: { dictionaries: Dictionary[]; chosen?: Dictionary }) {
  const { t } = useTranslation('tbx');
  const [format, setFormat] = useState('TBX');
  const [synonyms, setSynonyms] = useState('JOINED');
  const [withDefinition, setWithDefinition] = useState(false);
  const spreadsheet = format === 'CSV' || format === 'XLSX';
  const [languages, setLanguages] = useState<string[]>([]);
  const [fields, setFields] = useState<string[]>([]);
  const [filterId, setFilterId] = useState('');
  const [savedQueryId, setSavedQueryId] = useState('');
  const [baseIri, setBaseIri] = useState('');
  const [download, setDownload] = useState<{ url: string; name: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const dictionary = chosen ?? dictionaries[0];
  const filters = useLoaded(
    () =>
      dictionary
        ? trpc.filters.list
            .query({
              'dictionary-id': dictionary.id,
              page: 0,
              size: 500,
              format: 'SHORT',
              'include-deleted': false,
            })
            .then((page) => page.content.map((f) => ({ value: String(f.id), label: f.name ?? String(f.id) })))
        : Promise.resolve([]),
    `filters ${dictionary?.id}`,
  );
  // The caller's saved queries that search this dictionary (all of them when they name none); guests have none.
  const savedQueries = useLoaded(() => trpc.savedQueries.list.query({}).catch(() => []), 'saved queries');
  const savedOptions = (savedQueries.data ?? [])
    .filter((saved) => {
      const named = idList(new URLSearchParams(saved.query).get('d'));
      return named.length === 0 || named.includes(dictionary?.id ?? 0);
    })
    .map((saved) => ({ value: String(saved.id), label: saved.name }));
  useEffect(
    () => () => {
      if (download) URL.revokeObjectURL(download.url);
    },
    [download],
  );
  if (!dictionary) return null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const restriction = {
      languages: languages.join(','),
      fields: fields.join(','),
      'filter-id': filterId,
      'saved-query-id': savedQueryId,
    };
    const skosFormat = SKOS_FORMATS[format];
    try {
      const response = await rest(
        skosFormat
          ? withQuery(`/dictionaries/export-skos/${dictionary!.id}`, {
              format: skosFormat.format,
              'base-iri': baseIri.trim(),
              ...restriction,
            })
          : withQuery(`/dictionaries/export-tbx/${dictionary!.id}`, {
              format,
              ...restriction,
              ...(spreadsheet ? { synonyms } : {}),
              ...(format === 'MULTITERM_XML' && withDefinition ? { 'with-files': 'true' } : {}),
            }),
      );
      const disposition = response.headers.get('content-disposition') ?? '';
      const extension = skosFormat?.extension ?? EXTENSIONS[format] ?? 'tbx';
      const name = fileNameOf(disposition, `${dictionary!.name}.${extension}`);
      setDownload({ url: URL.createObjectURL(await response.blob()), name });
    } catch (caught) {
      setError(problemOf(caught).message);
    }
  }

  return (
    <form className="stack card" onSubmit={submit} aria-labelledby="export-title">
      <h2 id="export-title">{t('export.title')}</h2>
      <Choice
        label={t('export.dictionary')}
        value={dictionary.id}
        options={dictionaryOptions(dictionaries)}
        onChange={(id) => navigate(withQuery('/tbx', { d: id }), { replace: true })}
      />
      <Choice label={t('export.format')} value={format} options={EXPORT_FORMATS} onChange={setFormat} />
      {SKOS_FORMATS[format] && (
        <label>
          {t('export.baseIri')}
          <input
            type="url"
            value={baseIri}
            aria-describedby="export-base-iri"
            onChange={(event) => setBaseIri(event.target.value)}
          />
          <span id="export-base-iri" className="hint">
            {t('export.baseIriHint')}
          </span>
        </label>
      )}
      {format === 'MULTITERM_XML' && (
        <Check label={t('export.withDefinition')} checked={withDefinition} onChange={setWithDefinition} />
      )}
      {spreadsheet && (
        <Choice
          label={t('export.synonyms')}
          value={synonyms}
          options={['JOINED', 'COLUMNS'].map((value) => ({ value, label: t(`export.synonymsAs.${value}`) }))}
          onChange={setSynonyms}
        />
      )}
      <CheckList
        legend={t('export.languages')}
        options={languageOptions(dictionary.languages ?? [])}
        chosen={languages}
        onChange={setLanguages}
      />
      <CheckList
        legend={t('export.fields')}
        options={[...(dictionary.conceptFields ?? []), ...(dictionary.termFields ?? [])].map((f) => ({
          value: f.oid ?? '',
          label: f.name,
        }))}
        chosen={fields}
        onChange={setFields}
      />
      <Choice
        label={t('export.filter')}
        value={filterId}
        options={filters.data ?? []}
        empty={t('export.noFilter')}
        onChange={setFilterId}
      />
      {savedOptions.length > 0 && (
        <Choice
          label={t('export.savedQuery')}
          value={savedQueryId}
          options={savedOptions}
          empty={t('export.allConcepts')}
          onChange={setSavedQueryId}
        />
      )}
      <div className="actions">
        <button type="submit" className="primary">
          {t('export.submit')}
        </button>
        {download && (
          <a href={download.url} download={download.name}>
            {t('export.download', { name: download.name })}
          </a>
        )}
      </div>
      <ErrorMessage text={error} />
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
