/**
 * Feedback on a dictionary, a concept or a term (docs/feedback.md). Any reader sends it (guests when
 * the client's guest settings have enableFeedback), throttled per sender; the dictionary's
 * administrators list, answer, close, reopen and delete it (feedback-access.ts); mail goes to both
 * sides after each change commits (feedback-mail.ts).
 */
import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, notFound } from '../../shared/errors.js';
import { pageRequest, parseSort, toPage } from '../../shared/paging.js';
import type { Scope } from '../../shared/scope.js';
import { claimAttempt, type ThrottleKey } from '../auth/login-throttle.js';
import { hashSecret } from '../auth/tokens.js';
import { conceptIdOfTerm, readableConcept } from '../concept/concept-access.js';
import { readableDictionary } from '../dictionary/dictionary-access.js';
import { recordEvent } from '../events/event-log.js';
import { User } from '../user/user.entity.js';
import { unseenTermIds } from '../workflow/workflow-visibility.js';
import { Feedback, FeedbackAnswer, type FeedbackTarget } from './feedback.entity.js';
import {
  FEEDBACK_SORTS,
  FEEDBACK_TEXT_MAX,
  type FeedbackAnswerInput,
  type FeedbackCreateInput,
  type FeedbackDto,
  type FeedbackListInput,
  type FeedbackOptions,
} from './feedback.schema.js';
import { feedbackReach, guestMaySend, isOwnFeedback, visibleFeedback } from './feedback-access.js';
import { feedbackStore } from './feedback-attachment.js';
import { conceptsWithUnseenTerms, unreadableFeedbackIds } from './feedback-hidden.js';
import { type FeedbackEvent, sendFeedbackMails } from './feedback-mail.js';

/**
 * Feedback a sender may send in a row before waits begin; each one after that waits
 * FEEDBACK_FIRST_WAIT_MS, doubling up to 15 minutes (the login throttle's rule, login-throttle.ts).
 * 9 free: the 10th goes through and starts the first wait.
 */
export const FEEDBACK_FREE = 9;
export const FEEDBACK_FIRST_WAIT_MS = 60_000;

/** What the feedback form offers the caller. */
export async function feedbackOptions(scope: Scope): Promise<FeedbackOptions> {
  return {
    allowed: await guestMaySend(scope),
    askSender: scope.actor.guest,
    maxFileSize: scope.config.FEEDBACK_MAX_FILE_SIZE,
    maxTextLength: FEEDBACK_TEXT_MAX,
    manages: (await feedbackReach(scope)).managed.size > 0,
  };
}

/** The sender's counter: the account, and for guests (one shared account) the address as well. */
function senderKey(scope: Scope, address: string): ThrottleKey {
  const parts = ['feedback-sender', String(scope.actor.clientId), String(scope.actor.userId)];
  if (scope.actor.guest) parts.push(address);
  return { hash: hashSecret(parts.join('\n')), free: FEEDBACK_FREE };
}

interface ResolvedTarget {
  target: FeedbackTarget;
  dictionaryId: number;
  conceptId: number | null;
  termId: number | null;
  /** The concept's section: its readers only receive the feedback's events. */
  sectionId: number | null;
  label: string | null;
}

const clip = (text: string) => (text.length > 255 ? `${text.slice(0, 254)}…` : text);

/** The target, readable by the caller (404 otherwise), with the label the sender saw. */
async function resolveTarget(scope: Scope, input: FeedbackCreateInput): Promise<ResolvedTarget> {
  if (input.dictionaryId !== undefined) {
    const dictionary = await readableDictionary(scope, input.dictionaryId);
    return {
      target: 'DICTIONARY',
      dictionaryId: dictionary.id,
      conceptId: null,
      termId: null,
      sectionId: null,
      label: null,
    };
  }
  const termId = input.termId ?? null;
  const conceptId = termId !== null ? await conceptIdOfTerm(scope, { id: termId }) : input.conceptId!;
  const { concept } = await readableConcept(scope, conceptId);
  const rows = await scope.em.execute<{ id: number; name: string; language_code: string }[]>(
    // The named term first, so that a concept with many terms still has it among the rows read.
    `select id, name, language_code from terms where concept_id = ? and not deleted
      order by (id = ?) desc, id limit 50`,
    [concept.id, termId ?? 0],
  );
  // Terms in an unpublished workflow state are not shown to this caller: they do not exist for them.
  const unseen = await unseenTermIds(
    scope,
    rows.map((row) => ({
      dictionaryId: concept.dictionary.id,
      conceptId: concept.id,
      languageCode: row.language_code,
      termId: row.id,
    })),
  );
  const terms = rows.filter((row) => !unseen.has(row.id));
  if (termId !== null && !terms.some((term) => term.id === termId)) throw notFound('Term', termId);
  const label =
    termId !== null
      ? (terms.find((term) => term.id === termId)?.name ?? null)
      : terms
          .slice(0, 3)
          .map((term) => term.name)
          .join(' / ') || concept.cid;
  return {
    target: termId !== null ? 'TERM' : 'CONCEPT',
    dictionaryId: concept.dictionary.id,
    conceptId: concept.id,
    termId,
    sectionId: concept.section.id,
    label: label === null ? null : clip(label),
  };
}

/** Runs the mails of an event after the answer, on an entity manager of their own. */
function mailLater(scope: Scope, feedback: Feedback, event: FeedbackEvent): void {
  const em = scope.em.fork();
  void sendFeedbackMails(em, scope.config, scope.log, feedback, event);
}

/**
 * Sends feedback (any reader of the target; guests with enableFeedback, else 403). Counted per sender
 * before it is stored: over the limit, 429 with Retry-After.
 */
export async function createFeedback(
  scope: Scope,
  input: FeedbackCreateInput,
  address: string,
): Promise<FeedbackDto> {
  if (!(await guestMaySend(scope))) {
    throw new AppError(
      'FORBIDDEN',
      'Guests may not send feedback (enableFeedback is off in the guest settings)',
    );
  }
  const target = await resolveTarget(scope, input);
  await claimAttempt(scope.em, [senderKey(scope, address)], FEEDBACK_FIRST_WAIT_MS, 'Too much feedback');
  const { actor } = scope;
  const user = actor.guest ? null : await scope.em.findOne(User, { id: actor.userId }, { filters: false });
  const feedback = await scope.em.transactional(async (em) => {
    const row = em.create(Feedback, {
      client: actor.clientId,
      dictionary: target.dictionaryId,
      target: target.target,
      conceptId: target.conceptId,
      termId: target.termId,
      targetLabel: target.label,
      text: input.text,
      senderId: actor.guest ? null : actor.userId,
      senderGuest: actor.guest,
      senderName: actor.guest ? input.senderName || null : user?.fullName?.trim() || actor.username,
      senderEmail: actor.guest ? (input.senderEmail ?? null) : user?.email || null,
      sessionId: actor.sessionId,
    });
    await em.flush();
    await recordFeedbackEvent(em, scope, 'feedback.created', row, target.sectionId);
    return row;
  });
  mailLater(scope, feedback, { kind: 'created' });
  const [dto] = await renderFeedback(scope, [feedback]);
  return dto!;
}

/** The API form of feedback rows: dictionary names and answers in one query each. */
export async function renderFeedback(scope: Scope, rows: readonly Feedback[]): Promise<FeedbackDto[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const dictionaryIds = [...new Set(rows.map((row) => row.dictionary.id))];
  const others = rows.filter((row) => row.target === 'CONCEPT' && !isOwnFeedback(scope, row));
  const [names, answers, reach, unseen] = await Promise.all([
    scope.em.execute<{ id: number; name: string }[]>('select id, name from dictionaries where id in (?)', [
      dictionaryIds,
    ]),
    scope.em.find(
      FeedbackAnswer,
      { feedback: { $in: ids }, client: scope.actor.clientId },
      { orderBy: [{ createdAt: 'ASC' }, { id: 'ASC' }] },
    ),
    feedbackReach(scope),
    conceptsWithUnseenTerms(
      scope,
      others.map((row) => row.conceptId!),
    ),
  ]);
  const nameOf = new Map(names.map((row) => [row.id, row.name]));
  // A sender who no longer reads the target (moved section, unpublished term) keeps their own text and
  // the status, but not the target's name nor the answers: as in the answer mail (feedback-mail.ts).
  const ownUnmanaged = rows.filter(
    (row) => isOwnFeedback(scope, row) && !reach.managed.has(row.dictionary.id),
  );
  const lost =
    ownUnmanaged.length === 0
      ? new Set<number>()
      : await unreadableFeedbackIds(scope, [...new Set(ownUnmanaged.map((row) => row.dictionary.id))]);
  return rows.map((row) => ({
    id: row.id,
    dictionaryId: row.dictionary.id,
    dictionaryName: nameOf.get(row.dictionary.id) ?? '',
    target: row.target,
    conceptId: row.conceptId ?? null,
    termId: row.termId ?? null,
    // The sender's view of the concept named terms this caller is not shown.
    targetLabel:
      lost.has(row.id) || (others.includes(row) && unseen.has(row.conceptId!))
        ? null
        : (row.targetLabel ?? null),
    text: row.text,
    status: row.status,
    senderId: row.senderId ?? null,
    senderName: row.senderName ?? null,
    senderEmail: row.senderEmail ?? null,
    guest: row.senderGuest,
    attachment: row.attachmentKey
      ? {
          fileName: row.attachmentName ?? 'attachment',
          contentType: row.attachmentType ?? 'application/octet-stream',
          size: row.attachmentSize ?? 0,
          url: `/api/v4/feedback/${row.id}/attachment`,
        }
      : null,
    answersWithheld: lost.has(row.id),
    answers: answers
      .filter((answer) => answer.feedback.id === row.id && !lost.has(row.id))
      .map((answer) => ({
        id: answer.id,
        text: answer.text,
        authorName: answer.authorName ?? null,
        date: answer.createdAt.getTime(),
      })),
    created: row.createdAt.getTime(),
    changed: row.changedAt.getTime(),
    closed: row.closedAt?.getTime() ?? null,
    mayManage: reach.managed.has(row.dictionary.id),
  }));
}

/**
 * A page of the feedback the caller sees: the managed dictionaries' and their own (`mine`: only their
 * own), filtered by status, dictionary, target and concept; newest first unless sorted otherwise.
 */
export async function listFeedback(scope: Scope, input: FeedbackListInput) {
  const request = pageRequest(input, scope.config.MAX_PAGE_SIZE);
  const sort = input.sort
    ? parseSort(input.sort, FEEDBACK_SORTS, 'createdAt')
    : { property: 'createdAt' as const, direction: 'DESC' as const, label: 'created,DESC' };
  const { live, managed } = await feedbackReach(scope);
  const reach: FilterQuery<Feedback>[] = [];
  if (!input.mine && managed.size > 0) {
    // Feedback on what the caller cannot read (a closed section, an unpublished term) is not theirs to see.
    const hidden = await unreadableFeedbackIds(scope, [...managed]);
    reach.push({
      dictionary: { $in: [...managed] },
      ...(hidden.size > 0 ? { id: { $nin: [...hidden] } } : {}),
    });
  }
  if (!scope.actor.guest) reach.push({ senderId: scope.actor.userId, senderGuest: false });
  if (reach.length === 0) return toPage<FeedbackDto>([], 0, request, sort.label);
  const where: FilterQuery<Feedback> = {
    client: scope.actor.clientId,
    dictionary: {
      $in: input.dictionaryId === undefined ? live : live.filter((d) => d === input.dictionaryId),
    },
    $or: reach,
    ...(input.status ? { status: input.status } : {}),
    ...(input.target ? { target: input.target } : {}),
    ...(input.conceptId ? { conceptId: input.conceptId } : {}),
  };
  const [rows, total] = await scope.em.findAndCount(Feedback, where, {
    orderBy: [{ [sort.property]: sort.direction }, { id: sort.direction }] as never,
    limit: request.size,
    offset: request.offset,
  });
  return toPage(await renderFeedback(scope, rows), total, request, sort.label);
}

/** One feedback (its dictionary's administrators, its named sender; 404 for others). */
export async function getFeedback(scope: Scope, id: number): Promise<FeedbackDto> {
  const [dto] = await renderFeedback(scope, [await visibleFeedback(scope, id)]);
  return dto!;
}

/**
 * Answers feedback (its dictionary's administrators): the answer is kept, the status becomes ANSWERED
 * (CLOSED with `close`), and the sender gets it by e-mail.
 */
export async function answerFeedback(scope: Scope, input: FeedbackAnswerInput): Promise<FeedbackDto> {
  const { actor } = scope;
  const author = actor.fullName?.trim() || actor.username;
  const feedback = await scope.em.transactional(async (em) => {
    const row = await visibleFeedback({ ...scope, em }, input.id, true);
    em.create(FeedbackAnswer, {
      feedback: row,
      client: row.client,
      text: input.text,
      authorId: actor.userId,
      authorName: author,
    });
    row.status = input.close ? 'CLOSED' : 'ANSWERED';
    row.changedAt = new Date();
    if (input.close) Object.assign(row, { closedAt: new Date(), closedById: actor.userId });
    await recordFeedbackEvent(em, scope, 'feedback.answered', row);
    await em.flush();
    return row;
  });
  mailLater(scope, feedback, { kind: 'answered', text: input.text, author, closed: input.close });
  return getFeedback(scope, feedback.id);
}

/** Closes feedback (administrators); the sender is told. Closing closed feedback changes nothing. */
export async function closeFeedback(scope: Scope, id: number): Promise<FeedbackDto> {
  const feedback = await visibleFeedback(scope, id, true);
  if (feedback.status !== 'CLOSED') {
    Object.assign(feedback, {
      status: 'CLOSED',
      closedAt: new Date(),
      closedById: scope.actor.userId,
      changedAt: new Date(),
    });
    await recordFeedbackEvent(scope.em, scope, 'feedback.updated', feedback);
    await scope.em.flush();
    mailLater(scope, feedback, { kind: 'closed' });
  }
  return getFeedback(scope, id);
}

/** Opens closed feedback again (administrators): ANSWERED when it has answers, else OPEN. */
export async function reopenFeedback(scope: Scope, id: number): Promise<FeedbackDto> {
  const feedback = await visibleFeedback(scope, id, true);
  if (feedback.status === 'CLOSED') {
    const answers = await scope.em.count(FeedbackAnswer, { feedback: feedback.id });
    Object.assign(feedback, {
      status: answers > 0 ? 'ANSWERED' : 'OPEN',
      closedAt: null,
      closedById: null,
      changedAt: new Date(),
    });
    await recordFeedbackEvent(scope.em, scope, 'feedback.updated', feedback);
    await scope.em.flush();
  }
  return getFeedback(scope, id);
}

/** Deletes feedback for good, with its answers and attachment (administrators: spam, duplicates). */
export async function deleteFeedback(scope: Scope, id: number): Promise<void> {
  const feedback = await visibleFeedback(scope, id, true);
  await scope.em.transactional(async (em) => {
    await em.nativeDelete(Feedback, { id: feedback.id });
    await recordFeedbackEvent(em, scope, 'feedback.deleted', feedback);
  });
  // After the commit: a file without its feedback is only space, a feedback without its file an error.
  if (feedback.attachmentKey) await feedbackStore(scope.em).delete(feedback.attachmentKey);
}

/**
 * Feedback's event (docs/events.md): for the dictionary's administrators only, like the feedback, and
 * of a concept's or term's feedback only for readers of the concept's section. `sectionId` when the
 * caller has it at hand; otherwise it is read in the statement.
 */
async function recordFeedbackEvent(
  em: EntityManager,
  scope: Scope,
  type: 'feedback.created' | 'feedback.answered' | 'feedback.updated' | 'feedback.deleted',
  row: Feedback,
  sectionId?: number | null,
): Promise<void> {
  const event = {
    clientId: scope.actor.clientId,
    type,
    actorId: scope.actor.userId,
    dictionaryId: row.dictionary.id,
    conceptId: row.conceptId ?? null,
    termId: row.termId ?? null,
    data: { feedbackId: row.id, target: row.target, status: row.status },
  };
  if (sectionId === undefined && row.conceptId != null) {
    const [concept] = await em.execute<{ section_id: number }[]>(
      'select section_id from concepts where id = ?',
      [row.conceptId],
    );
    sectionId = concept?.section_id ?? null;
  }
  recordEvent(em, { ...event, sectionId: sectionId ?? null });
}
