import { lazy, type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { trpc } from '../../api';
import { useLoaded } from '../../data';
import type { Session } from '../../session';

const PasswordForm = lazy(() => import('./identity/PasswordPage').then((m) => ({ default: m.PasswordForm })));

/**
 * An administrator may require a user to change their password (forcePasswordChange). The server
 * signs such a user in all the same, so the web app holds every screen back until the password is
 * changed; changing it clears the flag on the server.
 */
export function PasswordGate({ session, children }: { session: Session; children: ReactNode }) {
  const { t } = useTranslation();
  const forced = useLoaded(
    () =>
      session.guest
        ? Promise.resolve(false)
        : trpc.profile.get.query().then(
            (answer) => answer.user.forcePasswordChange,
            () => false,
          ),
    session.token,
  );
  // While the answer is on its way the screen shows: most users are not held back, so they wait for nothing.
  if (!forced.data) return children;
  return (
    <Suspense fallback={<p role="status">{t('loading')}</p>}>
      <PasswordForm forced onChanged={forced.reload} />
    </Suspense>
  );
}
