import { type Draft, newKey } from '../components/concept-draft';
import { getSession } from '../session';

/**
 * Unsaved concept edits kept in this browser (localStorage) until they are saved or discarded, so a
 * reload, a closed tab or an expired session loses nothing. One draft per user, client and concept;
 * signing in as someone else on the same browser does not show theirs.
 */
export interface StoredDraft {
  draft: Draft;
  /** The concept version the edit started from: saving sends it, so a change since then is a 409. */
  baseVersion: number;
  /** The concept's content at that version (draftOf, as JSON): a save meeting only a newer version of
   * the same content (a workflow move) is no conflict. */
  original: string;
  savedAt: number;
}

function keyOf(conceptId: number): string | null {
  const session = getSession();
  if (!session || session.guest) return null;
  return `polyterm.draft.${session.client}.${session.username.toLowerCase()}.${conceptId}`;
}

export function storeDraft(conceptId: number, draft: Draft, baseVersion: number, original: string): void {
  const key = keyOf(conceptId);
  if (!key) return;
  const stored: StoredDraft = { draft, baseVersion, original, savedAt: Date.now() };
  try {
    localStorage.setItem(key, JSON.stringify(stored));
  } catch {
    // A full or disabled storage: the leave-page guard still asks before anything is lost.
  }
}

export function storedDraft(conceptId: number): StoredDraft | null {
  const key = keyOf(conceptId);
  if (!key) return null;
  try {
    const text = localStorage.getItem(key);
    if (!text) return null;
    const stored = JSON.parse(text) as StoredDraft;
    // New terms and relations get fresh keys: the counter behind them started again with this page.
    const rekey = <T extends { key: string; id?: number }>(rows: T[]) =>
      rows.map((row) => (row.id === undefined ? { ...row, key: newKey() } : row));
    return {
      ...stored,
      draft: { ...stored.draft, terms: rekey(stored.draft.terms), relations: rekey(stored.draft.relations) },
    };
  } catch {
    return null;
  }
}

export function forgetDraft(conceptId: number): void {
  const key = keyOf(conceptId);
  if (key) localStorage.removeItem(key);
}
