/** The export half of the exchange screen (/tbx): format, restrictions and selection, then the download. */
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemOf, rest, trpc } from '../../api';
import {
  Check,
  CheckList,
  Choice,
  dictionaryOptions,
  ErrorMessage,
  languageOptions,
} from '../../components/controls';
import { type Dictionary, useLoaded } from '../../data';
import { idList, navigate, withQuery } from '../../routes';
import { fileNameOf } from '../../work/file-name';

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
/** The download's extension by format (the server's Content-Disposition names it first). */
const EXTENSIONS: Record<string, string> = { MULTITERM_XML: 'xml', CSV: 'csv', XLSX: 'xlsx' };

/** Download a dictionary in the chosen format (TBX, MultiTerm XML, CSV, XLSX, SKOS) and restrictions. */
export function ExportForm({ dictionaries, chosen }: { dictionaries: Dictionary[]; chosen?: Dictionary }) {
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
