import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { rest } from '../../../api';
import { formProblems, Problems, useWrite } from './kit';

/** The file name of a download: RFC 5987 `filename*` (non-ASCII letters kept), else `filename`. */
function fileNameOf(disposition: string | null, fallback: string): string {
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition ?? '')?.[1];
  if (encoded) return decodeURIComponent(encoded);
  return /filename="?([^";]+)"?/i.exec(disposition ?? '')?.[1] ?? fallback;
}

/** A dictionary's structure as a definition file (XML), for the definition import of another client. */
export function ExportDefinition({ dictionaryId }: { dictionaryId: number }) {
  const { t } = useTranslation('structure');
  const [download, setDownload] = useState<{ url: string; name: string } | null>(null);
  const write = useWrite();
  useEffect(
    () => () => {
      if (download) URL.revokeObjectURL(download.url);
    },
    [download],
  );
  const prepare = () =>
    void write.run(async () => {
      const response = await rest(`/dictionaries/export-definition/${dictionaryId}`, { method: 'POST' });
      const name = fileNameOf(response.headers.get('content-disposition'), 'definition.xml');
      setDownload({ url: URL.createObjectURL(await response.blob()), name });
    });
  return (
    <div className="actions">
      <button type="button" onClick={prepare} disabled={write.busy}>
        {t('export.button')}
      </button>
      {download && (
        <a href={download.url} download={download.name}>
          {t('export.download', { name: download.name })}
        </a>
      )}
      <Problems id="export-definition-problems" messages={formProblems(write.problem, 'export').general} />
    </div>
  );
}
