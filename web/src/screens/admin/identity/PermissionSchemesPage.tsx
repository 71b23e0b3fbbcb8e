import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { trpc } from '../../../api';
import { ErrorMessage } from '../../../components/controls';
import { useLoaded } from '../../../data';
import { navigate, onLinkClick } from '../../../routes';
import { formProblems, SaveBar, TextField, useWrite } from '../admin-forms';

/** /admin/permission-schemes: the client's schemes and a form adding one (its grants on its own page). */
export default function PermissionSchemesPage() {
  const { t } = useTranslation('admin');
  const schemes = useLoaded(
    () => trpc.permissionSchemes.list.query({ page: 0, size: 500, format: 'FULL' }),
    'schemes',
  );
  const [name, setName] = useState('');
  const write = useWrite();
  const problems = formProblems(write.problem, 'new-scheme');

  async function create(event: FormEvent) {
    event.preventDefault();
    let id = 0;
    const ok = await write.run(
      async () => (id = (await trpc.permissionSchemes.create.mutate({ name, format: 'ID', grants: [] })).id),
    );
    if (ok) navigate(`/admin/permission-schemes/${id}`);
  }

  return (
    <>
      <h1>{t('schemes.title')}</h1>
      <ErrorMessage text={schemes.error?.message} />
      {schemes.data && schemes.data.content.length === 0 && <p>{t('schemes.none')}</p>}
      <ul>
        {schemes.data?.content.map((scheme) => (
          <li key={scheme.id}>
            <a href={`/admin/permission-schemes/${scheme.id}`} onClick={onLinkClick}>
              {scheme.name}
            </a>
            {scheme.description ? ` — ${scheme.description}` : ''}
          </li>
        ))}
      </ul>
      <form className="admin-form" onSubmit={create} aria-labelledby="new-scheme-title">
        <h2 id="new-scheme-title">{t('schemes.new')}</h2>
        <TextField
          label={t('fields.name')}
          value={name}
          onChange={setName}
          required
          maxLength={255}
          path="name"
          problems={problems}
        />
        <SaveBar label={t('create')} busy={write.busy} problems={problems} scope="new-scheme" />
      </form>
    </>
  );
}
