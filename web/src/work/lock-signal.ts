import { useEffect, useRef } from 'react';
import { getSession } from '../session';

/**
 * Word between the tabs of one browser that an edit moved: the tab that takes over the user's own lock
 * (`PUT /concepts/{id}/take-over-lock`) says so in localStorage, whose `storage` event reaches every
 * other tab of the origin at once, so a tab still in the editor learns it before its next save or lock
 * renewal (which find out too, for a tab in another browser).
 */
function keyOf(conceptId: number): string | null {
  const session = getSession();
  if (!session || session.guest) return null;
  return `polyterm.takeOver.${session.client}.${session.username.toLowerCase()}.${conceptId}`;
}

/** Tells the user's other tabs that this one took the concept's edit over. */
export function announceTakeOver(conceptId: number): void {
  const key = keyOf(conceptId);
  if (!key) return;
  try {
    // Set and removed at once: the event carries the news, and nothing stays behind in storage.
    localStorage.setItem(key, String(Date.now()));
    localStorage.removeItem(key);
  } catch {
    // No storage: the other tab learns it at its next save or lock renewal.
  }
}

/** Calls `onTakenOver` when another tab of this user takes over the edit of the concept. */
export function useTakeOverSignal(conceptId: number, listening: boolean, onTakenOver: () => void): void {
  const handler = useRef(onTakenOver);
  handler.current = onTakenOver;
  useEffect(() => {
    if (!listening) return;
    const key = keyOf(conceptId);
    const onStorage = (event: StorageEvent) => {
      if (key && event.key === key && event.newValue !== null) handler.current();
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [conceptId, listening]);
}
