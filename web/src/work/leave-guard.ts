import { useEffect } from 'react';
import { setLeaveCheck } from '../routes';

/**
 * Asks before unsaved changes are left behind: an in-app link to another page, Back and Forward (both
 * asked in routes.ts; the editor's entry is pushed again when the user stays), and a reload or closing
 * the tab (the browser's own beforeunload question, whose text browsers do not show).
 */
export function useLeaveGuard(active: boolean, question: string): void {
  useEffect(() => {
    if (!active) return;
    setLeaveCheck({ ask: () => window.confirm(question), here: location.pathname + location.search });
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older Chromium asks only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      setLeaveCheck(null);
      window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, [active, question]);
}
