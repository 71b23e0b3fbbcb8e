import { useEffect } from 'react';
import { trpc } from './api';
import { getSession, setSession } from './session';

/** How long before the token expires an active user's session is extended, and how often that is looked at. */
const RENEW_BEFORE_MS = 10 * 60 * 1000;
const CHECK_EVERY_MS = 60 * 1000;

/**
 * A token is valid for SESSION_TIMEOUT after sign-in unless extended. While someone works in the tab
 * (a key or a pointer since the last check), the session is extended in its last ten minutes; an idle
 * tab lets it run out, and the next call then leads back to sign-in.
 */
export function useSessionKeeper(signedIn: boolean): void {
  useEffect(() => {
    if (!signedIn) return;
    let active = false;
    const mark = () => {
      active = true;
    };
    window.addEventListener('keydown', mark);
    window.addEventListener('pointerdown', mark);
    const timer = setInterval(async () => {
      const session = getSession();
      if (!session || !active || session.expirationTime - Date.now() > RENEW_BEFORE_MS) return;
      active = false;
      try {
        const { expires } = await trpc.auth.extendSession.mutate();
        const current = getSession();
        if (current?.token === session.token) setSession({ ...current, expirationTime: expires });
      } catch {
        // A session that is gone already: the next call answers 401 and leads to sign-in.
      }
    }, CHECK_EVERY_MS);
    return () => {
      clearInterval(timer);
      window.removeEventListener('keydown', mark);
      window.removeEventListener('pointerdown', mark);
    };
  }, [signedIn]);
}
