import { useTranslation } from 'react-i18next';
import { useLoaded } from '../../data';
import { onLinkClick } from '../../routes';
import { getSession } from '../../session';
import { loadAdminMenu } from './admin-menu';

/** The top item of one's own account: the only one a user without administration rights gets. */
const ACCOUNT = 'My account';

/**
 * The main menu's link to the administration view, for callers the menu API shows at least one page.
 * A user who may administer nothing (only their own account in the menu) sees it as "My account".
 */
export function AdminLink({ path }: { path: string }) {
  const { t } = useTranslation('adminmenu');
  const menu = useLoaded(loadAdminMenu, getSession()?.token ?? '');
  const first = menu.data?.[0];
  if (!first) return null;
  const accountOnly = menu.data?.every((section) => section.label === ACCOUNT);
  return (
    <li>
      <a href="/admin" onClick={onLinkClick} aria-current={path.startsWith('/admin') ? 'page' : undefined}>
        {accountOnly ? t('accountLink') : t('link')}
      </a>
    </li>
  );
}
