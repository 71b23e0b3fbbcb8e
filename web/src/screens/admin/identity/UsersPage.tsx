import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { trpc } from '../../../api';
import { ErrorMessage } from '../../../components/controls';
import { useLoaded } from '../../../data';
import { formatNumber } from '../../../i18n';
import { navigate, onLinkClick, withQuery } from '../../../routes';
import type { AdminPageProps } from '../admin-page';

/** /admin/users?login=: the client's users (guests never listed), found by the start of the username. */
export default function UsersPage({ query }: AdminPageProps) {
  const { t } = useTranslation('admin');
  const login = query.get('login') ?? '';
  const [typed, setTyped] = useState(login);
  const users = useLoaded(
    () => trpc.users.list.query({ page: 0, size: 200, format: 'SHORT', login: login || undefined }),
    login,
  );
  return (
    <>
      <h1>{t('users.title')}</h1>
      <div className="admin-toolbar">
        <form
          aria-label={t('users.find')}
          className="admin-toolbar"
          onSubmit={(event) => {
            event.preventDefault();
            navigate(withQuery('/admin/users', { login: typed.trim() }));
          }}
        >
          <label>
            {t('users.find')}
            <input type="search" value={typed} onChange={(event) => setTyped(event.target.value)} />
          </label>
          <button type="submit">{t('find')}</button>
        </form>
        <a className="button" href="/admin/users/new" onClick={onLinkClick}>
          {t('users.new')}
        </a>
      </div>
      <ErrorMessage text={users.error?.message} />
      {users.data && (
        <>
          <p role="status">
            {t('users.count', {
              count: users.data.totalElements,
              formatted: formatNumber(users.data.totalElements),
            })}
          </p>
          <div className="admin-table-wrap">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">{t('fields.username')}</th>
                  <th scope="col">{t('fields.fullName')}</th>
                  <th scope="col">{t('fields.active')}</th>
                </tr>
              </thead>
              <tbody>
                {users.data.content.map((user) => (
                  <tr key={user.id}>
                    <td>
                      <a href={`/admin/users/${user.id}`} onClick={onLinkClick}>
                        {user.username}
                      </a>
                    </td>
                    <td>{user.fullName}</td>
                    <td>{user.active ? t('yes') : t('no')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </>
  );
}
