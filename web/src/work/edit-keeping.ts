import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { trpc } from '../api';
import type { Draft } from '../components/concept-draft';
import { getSession } from '../session';
import { forgetDraft, storeDraft } from './draft-store';
import { useLeaveGuard } from './leave-guard';

/**
 * What keeps a concept edit from being lost (docs/ui.md, "Edits are never lost"): every change of the
 * draft is stored in this browser until saved or discarded, leaving the page with unsaved changes asks
 * first, and the edit lock is released when the editor is left: by a link or Back (the editor unmounts),
 * or by a reload or a closed tab (a keepalive request on pagehide), so colleagues are not blocked for
 * CONCEPT_LOCK_TIMEOUT. Answers whether the draft differs from the saved concept (`original`, as JSON).
 *
 * Once the lock is lost (`lockHeld` false: another tab took the edit over), this tab neither stores its
 * draft (the stored one is now the other tab's) nor releases the lock (it is the other tab's: a client
 * administrator's release would break it).
 */
export function useEditKeeping(
  conceptId: number,
  draft: Draft | null,
  original: string | null,
  baseVersion: number,
  lockHeld = true,
): boolean {
  const { t } = useTranslation('work');
  const dirty = draft !== null && original !== null && JSON.stringify(draft) !== original;
  // Still asked with the lock lost: what was typed since lives only in this tab.
  useLeaveGuard(dirty, t('leaveQuestion'));

  useEffect(() => {
    if (draft === null || !lockHeld) return;
    if (dirty && original !== null) storeDraft(conceptId, draft, baseVersion, original);
    else forgetDraft(conceptId);
  }, [conceptId, draft, dirty, baseVersion, original, lockHeld]);

  const held = useRef(lockHeld);
  held.current = lockHeld;
  const editing = draft !== null;
  useEffect(() => {
    if (!editing) return;
    const onPageHide = () => held.current && releaseWhileUnloading(conceptId);
    window.addEventListener('pagehide', onPageHide);
    return () => {
      window.removeEventListener('pagehide', onPageHide);
      if (held.current) void trpc.concepts.releaseLock.mutate({ id: conceptId }).catch(() => undefined);
    };
  }, [editing, conceptId]);
  return dirty;
}

/** A request that outlives the page (fetch keepalive; sendBeacon cannot carry the token header). */
function releaseWhileUnloading(conceptId: number): void {
  const token = getSession()?.token;
  if (!token) return;
  void fetch(`/api/v4/concepts/${conceptId}/release-lock`, {
    method: 'PUT',
    keepalive: true,
    headers: { 'x-auth-token': token },
  }).catch(() => undefined);
}
