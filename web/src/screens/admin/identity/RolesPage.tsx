import { useTranslation } from 'react-i18next';
import { trpc } from '../../../api';
import { ErrorMessage } from '../../../components/controls';
import { useLoaded } from '../../../data';

/**
 * /admin/roles: the roles that can be given to users of this client. Roles are fixed by the server
 * (SYSADMIN, ADMIN, USEREDITOR and one DICTIONARY_ADMIN per dictionary); they are given on a user's page.
 */
export default function RolesPage() {
  const { t } = useTranslation('admin');
  const roles = useLoaded(() => trpc.roles.list.query(), 'roles');
  return (
    <>
      <h1>{t('roles.title')}</h1>
      <p>{t('roles.text')}</p>
      <ErrorMessage text={roles.error?.message} />
      {roles.data && (
        <div className="admin-table-wrap">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">{t('fields.name')}</th>
                <th scope="col">{t('roles.systemName')}</th>
              </tr>
            </thead>
            <tbody>
              {roles.data.map((role) => (
                <tr key={role.systemname}>
                  <td>{role.name}</td>
                  <td>
                    <code>{role.systemname}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
