/**
 * Who is told of feedback by e-mail, and what each may be told (docs/feedback.md "E-mail"). A mail is
 * read outside Polyterm, so it must hold no more than its recipient would see on the page it links to:
 * each recipient is checked as themselves, with the rules of the list and the page (feedback-access.ts,
 * feedback-hidden.ts), never as the person whose change sent the mail.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import { AppError } from '../../shared/errors.js';
import type { Actor, Scope } from '../../shared/scope.js';
import { readableConcept } from '../concept/concept-access.js';
import { readableDictionary } from '../dictionary/dictionary-access.js';
import { actorOfUser, scopeOfActor } from '../events/event-visibility.js';
import { GuestSettings } from '../guest/guest-settings.entity.js';
import { dictionaryRoleKey } from '../role/role.service.js';
import type { Feedback } from './feedback.entity.js';
import { isOwnFeedback, visibleFeedback } from './feedback-access.js';
import { conceptsWithUnseenTerms, unreadableFeedbackIds } from './feedback-hidden.js';

/** One administrator's mail: the address, and the target's label as they may read it (null: withheld). */
export interface AdministratorMail {
  to: string;
  label: string | null;
}

interface Candidate {
  id: number;
  email: string;
}

/**
 * The candidates in the order they are asked: the dictionary's e-mail recipient (emailRecipientId);
 * its DICTIONARY_ADMIN users; the client's administrators. Active accounts with an address only.
 */
async function candidateTiers(em: EntityManager, feedback: Feedback): Promise<Candidate[][]> {
  const [dictionary] = await em.execute<
    { id: number; oid: string | null; email_recipient_id: number | null }[]
  >('select id, oid, email_recipient_id from dictionaries where id = ?', [feedback.dictionary.id]);
  if (!dictionary) return [];
  const live = `client_id = ? and not deleted and active and email is not null and email <> ''`;
  const clientId = feedback.client.id;
  const tiers: Candidate[][] = [];
  if (dictionary.email_recipient_id !== null) {
    tiers.push(
      await em.execute<Candidate[]>(`select id, email from users where ${live} and id = ?`, [
        clientId,
        dictionary.email_recipient_id,
      ]),
    );
  }
  for (const role of [`DICTIONARY_ADMIN@${dictionaryRoleKey(dictionary)}`, 'ADMIN']) {
    tiers.push(
      await em.execute<Candidate[]>(
        `select distinct on (email) id, email from users where ${live} and ? = any(roles)
          order by email, id limit 50`,
        [clientId, role],
      ),
    );
  }
  return tiers;
}

const notFoundOnly = (error: unknown): false => {
  if (error instanceof AppError && error.code === 'NOT_FOUND') return false;
  throw error;
};

/** The scope of a user acting in the feedback's client, or null when they may no longer sign in there. */
async function scopeOf(
  em: EntityManager,
  config: Config,
  log: FastifyBaseLogger,
  userId: number,
  clientId: number,
  guest = false,
): Promise<Scope | null> {
  const actor = await actorOfUser(em, userId, clientId);
  if (!actor) return null;
  const acting: Actor = guest ? { ...actor, roles: [], guest: true } : actor;
  return scopeOfActor(em, acting, config, log);
}

/**
 * The administrators who hear of new feedback, each with what they may read of it: the first tier of
 * candidates (candidateTiers) with anyone who may open the feedback (the page the mail links to), and
 * of that tier only those. Someone who may not open it (a closed section, a term in an unpublished
 * state they do not review, a dictionary they do not manage) is not mailed at all: a mail saying that
 * something they may not read exists would tell them of it and give them nothing to act on. When no
 * candidate of a tier may open it, the next tier is asked, so feedback on a closed section reaches an
 * administrator who reads it rather than no one. A concept's label is withheld from those not shown
 * all of its terms, as on the page.
 */
export async function administratorMails(
  em: EntityManager,
  config: Config,
  log: FastifyBaseLogger,
  feedback: Feedback,
): Promise<AdministratorMail[]> {
  for (const tier of await candidateTiers(em, feedback)) {
    const mails: AdministratorMail[] = [];
    for (const candidate of tier) {
      const scope = await scopeOf(em, config, log, candidate.id, feedback.client.id);
      if (!scope) continue;
      const opens = await visibleFeedback(scope, feedback.id).then(() => true, notFoundOnly);
      if (!opens) continue;
      const conceptId = feedback.target === 'CONCEPT' ? (feedback.conceptId ?? null) : null;
      const withheld =
        conceptId !== null &&
        !isOwnFeedback(scope, feedback) &&
        (await conceptsWithUnseenTerms(scope, [conceptId])).has(conceptId);
      mails.push({ to: candidate.email, label: withheld ? null : (feedback.targetLabel ?? null) });
    }
    if (mails.length > 0) return mails;
  }
  return [];
}

/**
 * Whether the sender still reads the feedback's target: the dictionary, the concept (its section, not
 * deleted) and the term (not in an unpublished state they do not review). A named sender acts as
 * themselves; a guest as the client's guest account while guest access is on. A sender who lost access
 * since sending still hears that the feedback was answered or closed, without the target or the answer
 * (feedback-mail.ts).
 */
export async function senderReadsTarget(
  em: EntityManager,
  config: Config,
  log: FastifyBaseLogger,
  feedback: Feedback,
): Promise<boolean> {
  const clientId = feedback.client.id;
  let scope: Scope | null = null;
  if (feedback.senderId != null && !feedback.senderGuest) {
    scope = await scopeOf(em, config, log, feedback.senderId, clientId);
  } else if (feedback.senderGuest) {
    const settings = await em.findOne(GuestSettings, { client: clientId });
    if (settings?.enabled && settings.user) {
      scope = await scopeOf(em, config, log, settings.user.id, clientId, true);
    }
  }
  if (!scope) return false;
  try {
    await readableDictionary(scope, feedback.dictionary.id);
    if (feedback.conceptId != null) await readableConcept(scope, feedback.conceptId);
  } catch (error) {
    return notFoundOnly(error);
  }
  if (feedback.target === 'DICTIONARY') return true;
  return !(await unreadableFeedbackIds(scope, [feedback.dictionary.id], feedback.id)).has(feedback.id);
}
