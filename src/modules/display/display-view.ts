/**
 * Which fields the caller's view shows. Views list field oids and system keys (DICT, SECT, DOM, CREBY...).
 * The views the caller's groups name for the dictionary (viewsMap) come first, united when there are
 * several; without any, the section's view; without that, every field shows. Views arrange what is shown,
 * they are no permission: hidden fields are still sent, flagged hidden.
 */
import type { Scope } from '../../shared/scope.js';
import { effectiveGroups } from '../group/group.service.js';
import { View } from '../view/view.entity.js';

const NO_TENANT = { tenant: false } as const;
/** Never hidden: a concept without its terms and their languages shows nothing. */
const ALWAYS_VISIBLE = new Set(['TERM', 'LANG']);

/** The keys the caller sees, or null when no view applies (everything shows). Two or three queries. */
export async function visibleKeys(
  scope: Scope,
  dictionaryId: number,
  sectionViewId: number | null,
): Promise<ReadonlySet<string> | null> {
  const { actor } = scope;
  const groups = await effectiveGroups(scope.em, actor.clientId, { id: actor.userId, guest: actor.guest });
  const groupViewIds = new Set(groups.flatMap((group) => group.viewsMap[String(dictionaryId)] ?? []));
  const candidates = [...groupViewIds, ...(sectionViewId === null ? [] : [sectionViewId])];
  if (candidates.length === 0) return null;
  // Deleted views and views of another dictionary are ignored (groups store viewsMap as given).
  const views = await scope.em.find(
    View,
    { id: { $in: candidates }, dictionary: dictionaryId, client: actor.clientId },
    { filters: NO_TENANT, fields: ['id', 'fields'] },
  );
  const ofGroups = views.filter((view) => groupViewIds.has(view.id));
  const chosen = ofGroups.length ? ofGroups : views.filter((view) => view.id === sectionViewId);
  return chosen.length ? new Set(chosen.flatMap((view) => view.fields)) : null;
}

/** Whether a field (by oid or system key) is left out by the view. */
export const isHidden = (visible: ReadonlySet<string> | null, key: string): boolean =>
  visible !== null && !ALWAYS_VISIBLE.has(key) && !visible.has(key);
