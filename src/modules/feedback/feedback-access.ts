/**
 * Who sees and manages which feedback. The dictionary's administrators manage it: client
 * administrators, DICTIONARY_ADMIN@<dictionary>, or a scheme granting DICT_READ with DICT_UPDATE (the
 * rule of the structure pages and the administration menu). A named sender sees their own feedback;
 * guests share one account, so a guest sees none after sending. Everyone else: 404.
 */
import { AppError, notFound } from '../../shared/errors.js';
import { isClientAdmin, type Scope } from '../../shared/scope.js';
import { dictionaryPermissions } from '../access/access.service.js';
import { GuestSettings } from '../guest/guest-settings.entity.js';
import { Feedback } from './feedback.entity.js';
import { unreadableFeedbackIds } from './feedback-hidden.js';

const cache = new WeakMap<Scope, Promise<{ live: number[]; managed: Set<number> }>>();

async function load(scope: Scope) {
  const rows = await scope.em.execute<{ id: number }[]>(
    'select id from dictionaries where client_id = ? and not deleted order by id',
    [scope.actor.clientId],
  );
  const live = rows.map((row) => row.id);
  if (scope.actor.guest || live.length === 0) return { live, managed: new Set<number>() };
  if (isClientAdmin(scope.actor)) return { live, managed: new Set(live) };
  const permissions = await dictionaryPermissions(scope, live);
  const managed = permissions
    .filter(({ permissions: p }) => p.DICT_READ && p.DICT_UPDATE)
    .map((p) => p.dictionaryId);
  return { live, managed: new Set(managed) };
}

/** The live dictionaries of the acting client, and those whose feedback the caller manages (once per request). */
export function feedbackReach(scope: Scope) {
  let reach = cache.get(scope);
  if (!reach) {
    reach = load(scope);
    cache.set(scope, reach);
  }
  return reach;
}

/** Whether the caller manages the feedback of this dictionary. */
export async function managesDictionary(scope: Scope, dictionaryId: number): Promise<boolean> {
  return (await feedbackReach(scope)).managed.has(dictionaryId);
}

export const isOwnFeedback = (scope: Scope, feedback: Pick<Feedback, 'senderId' | 'senderGuest'>) =>
  !scope.actor.guest && !feedback.senderGuest && feedback.senderId === scope.actor.userId;

/**
 * A feedback of the acting client the caller may see (its dictionary's administrators, its named
 * sender), in a live dictionary; 404 otherwise. `manage` asks for an administrator: the sender, who
 * knows the feedback exists, gets 403.
 */
export async function visibleFeedback(scope: Scope, id: number, manage = false): Promise<Feedback> {
  const feedback = await scope.em.findOne(Feedback, { id, client: scope.actor.clientId });
  if (!feedback) throw notFound('Feedback', id);
  const { live, managed } = await feedbackReach(scope);
  const dictionaryId = feedback.dictionary.id;
  if (!live.includes(dictionaryId)) throw notFound('Feedback', id);
  const own = isOwnFeedback(scope, feedback);
  if (managed.has(dictionaryId) && (own || !(await unreadableFeedbackIds(scope, [dictionaryId], id)).has(id)))
    return feedback;
  if (!own) throw notFound('Feedback', id);
  if (manage) {
    throw new AppError('FORBIDDEN', "Only the dictionary's administrators answer, close or delete feedback");
  }
  return feedback;
}

/** Guests send feedback only when the client's guest settings have enableFeedback. */
export async function guestMaySend(scope: Scope): Promise<boolean> {
  if (!scope.actor.guest) return true;
  const settings = await scope.em.findOne(GuestSettings, { client: scope.actor.clientId });
  return settings?.enableFeedback === true;
}
