import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorMessage } from '../../components/controls';
import { useLoaded } from '../../data';
import { navigate, onLinkClick } from '../../routes';
import { getSession } from '../../session';
import { loadAdminMenu, menuKey, type SideMenu, sectionOf } from './admin-menu';
import { findPage } from './admin-page';
import { pages as feedbackPages } from './pages-feedback';
import { pages as identityPages } from './pages-identity';
import { pages as structurePages } from './pages-structure';
import './admin.css';

const routes = [...identityPages, ...structurePages, ...feedbackPages];

/** The catalogue key of a top item, from the server's (stable, English) label. */
function sectionKey(label: string): string {
  return `section.${label.toLowerCase().replace(/[^a-z]+/g, '_')}`;
}

function SideNav({ sections, path }: { sections: SideMenu[]; path: string }) {
  const { t } = useTranslation('adminmenu');
  const current = sectionOf(sections, path);
  return (
    <nav className="admin-nav" aria-label={t('nav')}>
      <ul className="admin-sections">
        {sections.map((section) => (
          <li key={section.label}>
            <a
              href={section.href}
              onClick={onLinkClick}
              title={section.title}
              aria-current={section === current ? 'true' : undefined}
            >
              {t(sectionKey(section.label), { defaultValue: section.label })}
            </a>
          </li>
        ))}
      </ul>
      {current && current.items.length > 1 && (
        <ul className="admin-side">
          {current.items.map((item) => (
            <li key={item.href}>
              {item.disabled ? (
                <span aria-disabled="true">{t(menuKey(item.href), { defaultValue: item.label })}</span>
              ) : (
                <a
                  href={item.href}
                  onClick={onLinkClick}
                  title={item.title}
                  aria-current={
                    // A detail page (/admin/feedback/12) keeps its list's item marked, as a location.
                    item.href === path ? 'page' : path.startsWith(`${item.href}/`) ? 'location' : undefined
                  }
                >
                  {t(menuKey(item.href), { defaultValue: item.label })}
                </a>
              )}
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}

/**
 * Every /admin/... path: the menu the server shows this caller, and the page of pages-identity.ts or
 * pages-structure.ts matching the path. /admin alone opens the first page the caller may see.
 */
export default function AdminScreen({ path, query }: { path: string; query: URLSearchParams }) {
  const { t } = useTranslation('adminmenu');
  const menu = useLoaded(loadAdminMenu, getSession()?.token ?? '');
  const sections = menu.data ?? [];
  const first = sections[0]?.href;
  const bare = path === '/admin' || path === '/admin/';

  useEffect(() => {
    if (bare && first) navigate(first, { replace: true });
  }, [bare, first]);

  const found = findPage(routes, path);
  const Page = found?.route.page;
  return (
    <div className="admin">
      <ErrorMessage text={menu.error?.message} />
      {menu.data && <SideNav sections={sections} path={path} />}
      <div className="admin-page">
        {Page && found ? (
          <Suspense fallback={<p role="status">{t('loading', { ns: 'common' })}</p>}>
            <Page path={path} params={found.params} query={query} />
          </Suspense>
        ) : (
          !bare && (
            <>
              <h1>{t('notFoundTitle')}</h1>
              <p>{t('notFoundText')}</p>
            </>
          )
        )}
        {bare && menu.data && sections.length === 0 && <p>{t('nothing')}</p>}
      </div>
    </div>
  );
}
