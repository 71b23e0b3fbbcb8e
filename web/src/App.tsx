import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { trpc } from './api';
import { forgetCachedData } from './data';
import { TopBar } from './layout/TopBar';
import { navigate, useLocation, withQuery } from './routes';
import { PasswordGate } from './screens/admin/PasswordGate';
import { SearchScreen } from './screens/SearchScreen';
import { SignInScreen } from './screens/SignInScreen';
import { getSession, onSessionChange, sessionEnd, setSession } from './session';
import { useSessionKeeper } from './session-keeper';

// Screens past the first one load on demand, so signing in and searching fetch the least JavaScript.
const ConceptScreen = lazy(() => import('./screens/ConceptScreen'));
const NewConceptScreen = lazy(() => import('./screens/NewConceptScreen'));
const TbxScreen = lazy(() => import('./screens/TbxScreen'));
const PreferencesScreen = lazy(() => import('./screens/PreferencesScreen'));
const CheckTextScreen = lazy(() => import('./screens/CheckTextScreen'));
const InboxScreen = lazy(() => import('./screens/InboxScreen'));
const MyFeedbackScreen = lazy(() => import('./feedback/MyFeedbackScreen'));
const WorkflowsScreen = lazy(() => import('./screens/WorkflowsScreen')); // workflow-editor
const ProjectsScreen = lazy(() => import('./screens/projects/ProjectsScreen')); // projects
const StagingScreen = lazy(() => import('./screens/staging/StagingScreen')); // staging
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
  if (path === '/feedback') return <MyFeedbackScreen query={query} />;
  if (path === '/workflows') return <WorkflowsScreen query={query} />; // workflow-editor
  if (path === '/projects' || path.startsWith('/projects/'))
    return <ProjectsScreen path={path} query={query} />; // projects
  if (path === '/staging' || path.startsWith('/staging/')) return <StagingScreen path={path} query={query} />; // staging
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
      navigate(withQuery('/signin', { next: location.pathname + location.search, why: sessionEnd() }), {
        replace: true,
      });
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
      <TopBar session={session} path={path} onSignOut={() => void signOut()} />
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
