import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemOf, trpc } from '../../api';
import { ErrorMessage } from '../../components/controls';
import { formatNumber } from '../../i18n';

/** The file's format by its name: TBX (also .xml), CSV, XLSX (sent as base64). */
function formatOf(name: string): 'TBX' | 'CSV' | 'XLSX' {
  const lower = name.toLowerCase();
  if (lower.endsWith('.csv')) return 'CSV';
  if (lower.endsWith('.xlsx')) return 'XLSX';
  return 'TBX';
}

async function contentOf(file: File, format: 'TBX' | 'CSV' | 'XLSX'): Promise<string> {
  if (format !== 'XLSX') return file.text();
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Candidates from a file: a TBX file (every entry a candidate) or a spreadsheet with its proposed mapping. */
export function ImportCandidates({ projectId, onImported }: { projectId: number; onImported: () => void }) {
  const { t } = useTranslation('project');
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [problems, setProblems] = useState<{ line: number; message: string }[]>([]);
  const inputId = useId();

  async function upload(event: React.FormEvent) {
    event.preventDefault();
    if (!file) return;
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const format = formatOf(file.name);
      const result = await trpc.projects.importCandidates.mutate({
        id: projectId,
        format,
        content: await contentOf(file, format),
        fileName: file.name,
      });
      setNotice(t('import.added', { count: result.added, formatted: formatNumber(result.added) }));
      setProblems(result.errors.slice(0, 20));
      onImported();
    } catch (caught) {
      setError(problemOf(caught).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="card inline-form import-candidates" onSubmit={(event) => void upload(event)}>
      <label htmlFor={inputId}>{t('import.file')}</label>
      <input
        id={inputId}
        type="file"
        accept=".tbx,.xml,.csv,.xlsx"
        onChange={(e) => setFile(e.target.files?.[0] ?? null)}
      />
      <button type="submit" className="primary" disabled={!file || busy}>
        {t('import.submit')}
      </button>
      <ErrorMessage text={error} />
      {notice && <p role="status">{notice}</p>}
      {problems.length > 0 && (
        <ul className="import-problems">
          {problems.map((p) => (
            <li key={`${p.line} ${p.message}`}>
              {t('import.problem', { line: p.line, message: p.message })}
            </li>
          ))}
        </ul>
      )}
    </form>
  );
}
