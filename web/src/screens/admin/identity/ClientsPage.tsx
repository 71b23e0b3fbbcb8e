import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { trpc } from '../../../api';
import { ErrorMessage } from '../../../components/controls';
import { useLoaded } from '../../../data';
import { formatNumber } from '../../../i18n';
import { navigate, onLinkClick } from '../../../routes';
import { formProblems, SaveBar, TextField, useWrite } from '../admin-forms';

/** /admin/clients (system administrators): the installation's clients, and a new one with its administrator. */
export default function ClientsPage() {
  const { t } = useTranslation('admin');
  const clients = useLoaded(() => trpc.clients.list.query({ page: 0, size: 500, format: 'FULL' }), 'clients');
  const [form, setForm] = useState({ name: '', loginName: '', username: '', email: '', password: '' });
  const set = (key: keyof typeof form) => (value: string) => setForm({ ...form, [key]: value });
  const write = useWrite();
  const problems = formProblems(write.problem, 'new-client');

  async function create(event: FormEvent) {
    event.preventDefault();
    let id = 0;
    const ok = await write.run(async () => {
      const adminUser = form.username
        ? { username: form.username, email: form.email || undefined, password: form.password || undefined }
        : undefined;
      id = (
        await trpc.clients.create.mutate({
          format: 'ID',
          name: form.name,
          loginName: form.loginName,
          active: true,
          adminUser,
        })
      ).id;
    });
    if (ok) navigate(`/admin/clients/${id}`);
  }

  return (
    <>
      <h1>{t('clients.title')}</h1>
      <ErrorMessage text={clients.error?.message} />
      {clients.data && (
        <div className="admin-table-wrap">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">{t('fields.name')}</th>
                <th scope="col">{t('clients.loginName')}</th>
                <th scope="col">{t('fields.active')}</th>
                <th scope="col">{t('clients.users')}</th>
              </tr>
            </thead>
            <tbody>
              {clients.data.content.map((client) => (
                <tr key={client.id}>
                  <td>
                    <a href={`/admin/clients/${client.id}`} onClick={onLinkClick}>
                      {client.name}
                    </a>
                  </td>
                  <td>{client.loginName}</td>
                  <td>{client.active ? t('yes') : t('no')}</td>
                  <td>{formatNumber(client.currentUsersNumber ?? 0)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form className="admin-form" onSubmit={create} aria-labelledby="new-client-title">
        <h2 id="new-client-title">{t('clients.new')}</h2>
        <TextField
          label={t('fields.name')}
          value={form.name}
          onChange={set('name')}
          required
          path="name"
          problems={problems}
        />
        <TextField
          label={t('clients.loginName')}
          value={form.loginName}
          onChange={set('loginName')}
          required
          path="loginName"
          problems={problems}
        />
        <fieldset>
          <legend>{t('clients.adminUser')}</legend>
          <TextField
            label={t('fields.username')}
            value={form.username}
            onChange={set('username')}
            path="adminUser.username"
            problems={problems}
            autoComplete="off"
          />
          <TextField
            label={t('fields.email')}
            type="email"
            value={form.email}
            onChange={set('email')}
            path="adminUser.email"
            problems={problems}
          />
          <TextField
            label={t('password.new')}
            type="password"
            autoComplete="new-password"
            value={form.password}
            onChange={set('password')}
            path="adminUser.password"
            problems={problems}
          />
        </fieldset>
        <SaveBar label={t('create')} busy={write.busy} problems={problems} scope="new-client" />
      </form>
    </>
  );
}
