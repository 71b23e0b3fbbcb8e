import { Suspense, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMayCreateConcepts } from '../components/dictionary-rights';
import { onLinkClick } from '../routes';
import { AdminLink } from '../screens/admin/AdminLink';
import type { Session } from '../session';

/** A link of the main menu: its address, its label's key in the `common` catalogue, who sees it. */
interface MenuLink {
  href: string;
  label: string;
  /** Guests use the app read-only: the editing screens are not offered to them. */
  signedInOnly?: boolean;
  /** Shown only to callers who may create concepts somewhere (the server still decides). */
  creates?: boolean;
  /** Paths besides `href` on which this link is the current page. */
  alsoCurrentOn?: string[];
  /** Paths under `href` count as this page (a prefix match). */
  section?: boolean;
}

export const MENU_LINKS: MenuLink[] = [
  { href: '/search', label: 'menu.search', alsoCurrentOn: ['/'] },
  { href: '/concepts/new', label: 'menu.newConcept', signedInOnly: true, creates: true },
  { href: '/tbx', label: 'menu.tbx', signedInOnly: true },
  { href: '/inbox', label: 'menu.tasks', signedInOnly: true },
  { href: '/feedback', label: 'menu.feedback', signedInOnly: true },
  { href: '/projects', label: 'menu.projects', signedInOnly: true, section: true }, // projects
  { href: '/staging', label: 'menu.staging', signedInOnly: true, section: true }, // staging
  { href: '/workflows', label: 'menu.workflows', signedInOnly: true }, // workflow-editor
  { href: '/check', label: 'menu.check' },
  { href: '/preferences', label: 'menu.preferences' },
];

function isCurrent(link: MenuLink, path: string): boolean {
  if (path === link.href || link.alsoCurrentOn?.includes(path)) return true;
  return link.section === true && path.startsWith(`${link.href}/`);
}

/**
 * The application's top bar. From 48rem up the menu sits in one row beside the brand; below that
 * (phones) a Menu button opens it as a column under the bar, so no link and not Sign out leaves the
 * screen and all stay on the bar's dark background (readable contrast). The menu closes when a page
 * is chosen.
 */
export function TopBar(props: { session: Session; path: string; onSignOut: () => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const { session, path } = props;
  const mayCreate = useMayCreateConcepts() === true;
  // A new page closes the menu on phones (the link was chosen, or Back was pressed).
  // biome-ignore lint/correctness/useExhaustiveDependencies: closing is what a change of path means
  useEffect(() => setOpen(false), [path]);

  return (
    <header className="top-bar">
      <a className="brand" href="/search" onClick={onLinkClick}>
        Polyterm
      </a>
      <button
        type="button"
        className="menu-toggle"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen(!open)}
      >
        {t('menu.toggle')}
      </button>
      <div id={menuId} className={open ? 'top-bar-menu open' : 'top-bar-menu'}>
        <nav aria-label={t('menu.label')}>
          <ul>
            {MENU_LINKS.filter(
              (link) => !(link.signedInOnly && session.guest) && !(link.creates && !mayCreate),
            ).map((link) => (
              <li key={link.href}>
                <a
                  href={link.href}
                  onClick={onLinkClick}
                  aria-current={isCurrent(link, path) ? 'page' : undefined}
                >
                  {t(link.label)}
                </a>
              </li>
            ))}
            {/* Its catalogue loads on its own: the rest of the bar does not wait for it. */}
            <Suspense fallback={null}>
              <AdminLink path={path} />
            </Suspense>
          </ul>
        </nav>
        <span className="who">
          {session.guest ? t('guest') : session.username}
          {session.client ? ` @ ${session.client}` : ''}
        </span>
        <button type="button" className="sign-out" onClick={props.onSignOut}>
          {t('signOut')}
        </button>
      </div>
    </header>
  );
}
