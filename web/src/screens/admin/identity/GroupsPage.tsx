import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { trpc } from '../../../api';
import { ErrorMessage } from '../../../components/controls';
import { useLoaded } from '../../../data';
import { navigate, onLinkClick } from '../../../routes';
import { formProblems, SaveBar, TextField, useWrite } from '../admin-forms';

/** /admin/groups: the client's groups (system groups too, read-only there) and a form adding one. */
export default function GroupsPage() {
  const { t } = useTranslation('admin');
  const groups = useLoaded(
    () =>
      trpc.groups.list.query({
        page: 0,
        size: 500,
        format: 'FULL',
        'include-all': true,
        'include-guest': true,
      }),
    'groups',
  );
  const [name, setName] = useState('');
  const write = useWrite();
  const problems = formProblems(write.problem, 'new-group');

  async function create(event: FormEvent) {
    event.preventDefault();
    let id = 0;
    if (await write.run(async () => (id = (await trpc.groups.create.mutate({ name, format: 'ID' })).id))) {
      navigate(`/admin/groups/${id}`);
    }
  }

  return (
    <>
      <h1>{t('groups.title')}</h1>
      <ErrorMessage text={groups.error?.message} />
      {groups.data && (
        <div className="admin-table-wrap">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">{t('fields.name')}</th>
                <th scope="col">{t('fields.description')}</th>
              </tr>
            </thead>
            <tbody>
              {groups.data.content.map((group) => (
                <tr key={group.id}>
                  <td>
                    <a href={`/admin/groups/${group.id}`} onClick={onLinkClick}>
                      {group.name}
                    </a>
                  </td>
                  <td>{group.description}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form className="admin-form" onSubmit={create} aria-labelledby="new-group-title">
        <h2 id="new-group-title">{t('groups.new')}</h2>
        <TextField
          label={t('fields.name')}
          value={name}
          onChange={setName}
          required
          maxLength={255}
          path="name"
          problems={problems}
        />
        <SaveBar label={t('create')} busy={write.busy} problems={problems} scope="new-group" />
      </form>
    </>
  );
}
