import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemOf, rest } from '../../api';
import { ErrorMessage } from '../../components/controls';
import { mayInDictionary, useDictionaryRights } from '../../components/dictionary-rights';
import type { Dictionary } from '../../data';
import { withQuery } from '../../routes';
import { fileNameOf } from '../../work/file-name';

/**
 * The project's concepts as TBX, one file per dictionary: the dictionary export restricted to the
 * project (`GET /dictionaries/export-tbx/{id}?project-id=`), offered where the caller holds
 * CONCEPT_EXPORT. The file is fetched with the session's token, then offered as a download link.
 */
export function ExportEntries({
  projectId,
  dictionaries,
}: {
  projectId: number;
  dictionaries: Dictionary[];
}) {
  const { t } = useTranslation('project');
  const rights = useDictionaryRights(dictionaries);
  const [download, setDownload] = useState<{ url: string; name: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(
    () => () => {
      if (download) URL.revokeObjectURL(download.url);
    },
    [download],
  );
  const exportable = dictionaries.filter((d) => mayInDictionary(rights?.get(d.id), 'CONCEPT_EXPORT'));
  if (exportable.length === 0) return null;

  async function fetchFile(dictionary: Dictionary) {
    setError(null);
    try {
      const response = await rest(
        withQuery(`/dictionaries/export-tbx/${dictionary.id}`, { 'project-id': projectId, format: 'TBX' }),
      );
      const name = fileNameOf(response.headers.get('content-disposition') ?? '', `${dictionary.name}.tbx`);
      setDownload({ url: URL.createObjectURL(await response.blob()), name });
    } catch (caught) {
      setError(problemOf(caught).message);
    }
  }

  return (
    <div className="actions">
      {exportable.map((d) => (
        <button key={d.id} type="button" onClick={() => void fetchFile(d)}>
          {t('export.button', { dictionary: d.name })}
        </button>
      ))}
      {download && (
        <a href={download.url} download={download.name}>
          {t('export.download', { name: download.name })}
        </a>
      )}
      <ErrorMessage text={error} />
    </div>
  );
}
