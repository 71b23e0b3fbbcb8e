import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { trpc } from './api';
import { forgetCachedData } from './data';
import { navigate, onLinkClick, useLocation, withQuery } from './routes';
import { SearchScreen } from './screens/SearchScreen';
import { PasswordGate } from './screens/admin/PasswordGate';
import { SignInScreen } from './screens/SignInScreen';
import { getSession, onSessionChange, setSession } from './session';
import { AdminLink } from './screens/admin/AdminLink';
import { useSessionKeeper } from './session-keeper';

// Screens past the first one load on demand, so signing in and searching fetch the least JavaScript.
const ConceptScreen = lazy(() => import('./screens/ConceptScreen'));
const NewConceptScreen = lazy(() => import('./screens/NewConceptScreen'));
const TbxScreen = lazy(() => import('./screens/TbxScreen'));
const PreferencesScreen = lazy(() => import('./screens/PreferencesScreen'));
const CheckTextScreen = lazy(() => import('./screens/CheckTextScreen'));
const InboxScreen = lazy(() => import('./screens/InboxScreen'));
const WorkflowsScreen = lazy(() => import('./screens/WorkflowsScreen')); // workflow-editor
const AdminScreen = lazy(() => import('./screens/admin/AdminScreen')); // administration

function useSession() {
  return useSyncExternalStore(onSessionChange, getSession);
}

async function signOut() {
  try {
    await trpc.auth.logout.mutate();
  } finally {
    forgetCachedData();
    setSession(null);
    navigate('/signin');
  }
}

function Screen({ path, query }: { path: string; query: URLSearchParams }) {
  const concept = /^\/concepts\/(\d+)$/.exec(path);
  if (concept) return <ConceptScreen id={Number(concept[1])} query={query} />;
  if (path === '/concepts/new') return <NewConceptScreen query={query} />;
  if (path === '/tbx') return <TbxScreen query={query} />;
  if (path === '/preferences') return <PreferencesScreen />;
  if (path === '/check') return <CheckTextScreen query={query} />;
  if (path === '/inbox') return <InboxScreen query={query} />;
  if (path === '/workflows') return <WorkflowsScreen query={query} />; // workflow-editor
  if (path === '/admin' || path.startsWith('/admin/')) return <AdminScreen path={path} query={query} />;
  return <SearchScreen query={query} />;
}

export function App() {
  const { t } = useTranslation();
  const session = useSession();
  const { path, query } = useLocation();
  const signingIn = path === '/signin';
  useSessionKeeper(session !== null);

  useEffect(() => {
    // Read from location, not from the render: a repeated effect must not send /signin to itself.
    if (!session && location.pathname !== '/signin') {
      navigate(withQuery('/signin', { next: location.pathname + location.search }), { replace: true });
    }
  }, [session]);

  if (!session || signingIn) {
    return (
      <main id="main" className="signin-page">
        <SignInScreen next={query.get('next')} />
      </main>
    );
  }
  return (
    <>
      <a className="skip-link" href="#main">
        {t('skipToContent')}
      </a>
      <header className="top-bar">
        <a className="brand" href="/search" onClick={onLinkClick}>
          Polyterm
        </a>
        <nav aria-label="Main">
          <ul>
            <li>
              <a
                href="/search"
                onClick={onLinkClick}
                aria-current={path === '/search' || path === '/' ? 'page' : undefined}
              >
                Search
              </a>
            </li>
            {!session.guest && (
              <li>
                <a
                  href="/concepts/new"
                  onClick={onLinkClick}
                  aria-current={path === '/concepts/new' ? 'page' : undefined}
                >
                  New concept
                </a>
              </li>
            )}
            {!session.guest && (
              <li>
                <a href="/tbx" onClick={onLinkClick} aria-current={path === '/tbx' ? 'page' : undefined}>
                  Import and export
                </a>
              </li>
            )}
            {!session.guest && (
              <li>
                <a href="/inbox" onClick={onLinkClick} aria-current={path === '/inbox' ? 'page' : undefined}>
                  Tasks
                </a>
              </li>
            )}
            {!session.guest && ( // workflow-editor
              <li>
                <a
                  href="/workflows"
                  onClick={onLinkClick}
                  aria-current={path === '/workflows' ? 'page' : undefined}
                >
                  Workflows
                </a>
              </li>
            )}
            <li>
              <a href="/check" onClick={onLinkClick} aria-current={path === '/check' ? 'page' : undefined}>
                Check text
              </a>
            </li>
            <AdminLink path={path} />
            <li>
              <a
                href="/preferences"
                onClick={onLinkClick}
                aria-current={path === '/preferences' ? 'page' : undefined}
              >
                Preferences
              </a>
            </li>
          </ul>
        </nav>
        <span className="who">
          {session.guest ? t('guest') : session.username}
          {session.client ? ` @ ${session.client}` : ''}
        </span>
        <button type="button" onClick={() => void signOut()}>
          {t('signOut')}
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <Suspense fallback={<p role="status">{t('loading')}</p>}>
          <PasswordGate session={session}>
            <Screen path={path} query={query} />
          </PasswordGate>
        </Suspense>
      </main>
    </>
  );
}
