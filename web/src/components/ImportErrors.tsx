import { useTranslation } from 'react-i18next';
import { formatNumber } from '../i18n';

export interface ImportProblem {
  line: number;
  message: string;
}

/**
 * The problems an import reported (the server keeps the first ones, with the file's line): a count
 * alone did not say which entries to fix. The messages are text, never HTML.
 */
/** `rows`: a spreadsheet's problems, whose `line` is the row (the header is row 1). */
export function ImportErrors({
  errors,
  count,
  rows,
}: {
  errors: ImportProblem[];
  count: number;
  rows?: boolean;
}) {
  const { t } = useTranslation('tbx');
  if (errors.length === 0) return null;
  return (
    <div className="table-scroll">
      <table className="results">
        <caption>
          {count > errors.length
            ? t('import.errors.firstOf', { shown: formatNumber(errors.length), count: formatNumber(count) })
            : t('import.errors.title')}
        </caption>
        <thead>
          <tr>
            <th scope="col">{rows ? t('import.errors.row') : t('import.errors.line')}</th>
            <th scope="col">{t('import.errors.message')}</th>
          </tr>
        </thead>
        <tbody>
          {errors.map((error, index) => (
            // The same line can hold several problems: the index keeps the keys apart.
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list, read once
            <tr key={index}>
              <td>{formatNumber(error.line)}</td>
              <td>{error.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
