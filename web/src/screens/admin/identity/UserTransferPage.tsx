import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { trpc } from '../../../api';
import { formatNumber } from '../../../i18n';
import { CheckField, formProblems, Problems, SaveBar, useWrite } from '../admin-forms';

type Result = Awaited<ReturnType<typeof trpc.users.importXml.mutate>>;

/** /admin/users/transfer: users and groups out of this client as XML, and into it from such a file. */
export default function UserTransferPage() {
  const { t } = useTranslation('admin');
  const exporting = useWrite();
  const importing = useWrite();
  const problems = formProblems(importing.problem, 'transfer');
  const [file, setFile] = useState<File | null>(null);
  const [overwriteUser, setOverwriteUser] = useState(false);
  const [overwriteGroup, setOverwriteGroup] = useState(false);
  const [result, setResult] = useState<Result | null>(null);

  async function download() {
    await exporting.run(async () => {
      const xml = await trpc.users.exportXml.query();
      const link = document.createElement('a');
      link.href = URL.createObjectURL(new Blob([xml], { type: 'application/xml' }));
      link.download = 'users.xml';
      link.click();
      URL.revokeObjectURL(link.href);
    });
  }

  async function upload(event: FormEvent) {
    event.preventDefault();
    if (!file) return;
    setResult(null);
    await importing.run(async () => {
      const xml = await file.text();
      setResult(
        await trpc.users.importXml.mutate({
          xml,
          'overwrite-user': overwriteUser,
          'overwrite-group': overwriteGroup,
        }),
      );
    });
  }

  return (
    <>
      <h1>{t('transfer.title')}</h1>
      <section aria-labelledby="transfer-export">
        <h2 id="transfer-export">{t('transfer.export')}</h2>
        <p>{t('transfer.exportText')}</p>
        <button type="button" onClick={() => void download()} disabled={exporting.busy}>
          {t('transfer.download')}
        </button>
        <Problems
          id="transfer-export-problems"
          messages={exporting.problem ? [exporting.problem.message] : []}
        />
      </section>
      <form className="admin-form" onSubmit={upload} aria-labelledby="transfer-import">
        <h2 id="transfer-import">{t('transfer.import')}</h2>
        <label>
          {t('transfer.file')}
          <input
            type="file"
            accept=".xml,application/xml,text/xml"
            required
            onChange={(event) => setFile(event.target.files?.[0] ?? null)}
            aria-describedby={problems.describedBy('xml')}
          />
        </label>
        <Problems id={problems.id('xml')} messages={problems.at('xml')} />
        <CheckField
          label={t('transfer.overwriteUsers')}
          checked={overwriteUser}
          onChange={setOverwriteUser}
          path="overwrite-user"
          problems={problems}
        />
        <CheckField
          label={t('transfer.overwriteGroups')}
          checked={overwriteGroup}
          onChange={setOverwriteGroup}
          path="overwrite-group"
          problems={problems}
        />
        <SaveBar
          label={t('transfer.importButton')}
          busy={importing.busy}
          problems={problems}
          scope="transfer"
        />
        {result && (
          <div role="status">
            <p>
              {t('transfer.result', {
                users: formatNumber(result.userCount),
                groups: formatNumber(result.groupCount),
              })}
            </p>
            {Object.entries(result.renamedUsers).length > 0 && (
              <ul aria-label={t('transfer.renamed')}>
                {Object.entries(result.renamedUsers).map(([from, to]) => (
                  <li key={from}>{t('transfer.renamedTo', { from, to })}</li>
                ))}
              </ul>
            )}
            {result.skippedRoles.length > 0 && (
              <ul aria-label={t('transfer.skipped')}>
                {result.skippedRoles.map((skip) => (
                  <li key={`${skip.username} ${skip.role}`}>{t('transfer.skippedRole', skip)}</li>
                ))}
              </ul>
            )}
          </div>
        )}
      </form>
    </>
  );
}
