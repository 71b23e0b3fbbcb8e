import { useTranslation } from 'react-i18next';
import { useLoaded } from '../../data';
import { onLinkClick } from '../../routes';
import { getSession } from '../../session';
import { loadAdminMenu } from './admin-menu';

/** The main menu's link to the administration view, for callers the menu API shows at least one page. */
export function AdminLink({ path }: { path: string }) {
  const { t } = useTranslation('adminmenu');
  const menu = useLoaded(loadAdminMenu, getSession()?.token ?? '');
  const first = menu.data?.[0];
  if (!first) return null;
  return (
    <li>
      <a href="/admin" onClick={onLinkClick} aria-current={path.startsWith('/admin') ? 'page' : undefined}>
        {t('link')}
      </a>
    </li>
  );
}
