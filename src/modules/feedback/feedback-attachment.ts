/**
 * The one file a feedback may carry (docs/feedback.md), kept by the storage module: sent by the session
 * that sent the feedback, soon after, and read by whoever may see the feedback. Its type is sniffed from
 * the bytes; serve.ts sends it so that no uploaded HTML or SVG can run in Polyterm's origin.
 */
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, notFound } from '../../shared/errors.js';
import type { Scope } from '../../shared/scope.js';
import type { BlobInfo, BlobStore } from '../storage/blob-store.js';
import { PgBlobStore } from '../storage/pg-blob-store.js';
import { Feedback } from './feedback.entity.js';
import { guestMaySend, managesDictionary, visibleFeedback } from './feedback-access.js';

/** How long after sending the sender may still attach the file. */
export const ATTACH_WITHIN_MS = 30 * 60_000;

/** The store feedback files go to (PostgreSQL, so a database backup holds them). */
export const feedbackStore = (em: EntityManager): BlobStore => new PgBlobStore(em);

/**
 * The feedback the caller may attach a file to now: the session that sent it, within ATTACH_WITHIN_MS,
 * while it has none. A feedback the caller did not send from this session is 404 (guests share one
 * account), unless they manage it (403).
 */
export async function attachableFeedback(scope: Scope, id: number): Promise<Feedback> {
  const feedback = await scope.em.findOne(Feedback, { id, client: scope.actor.clientId });
  if (!feedback) throw notFound('Feedback', id);
  if (feedback.sessionId !== scope.actor.sessionId || feedback.senderId !== scope.actor.userId) {
    if (await managesDictionary(scope, feedback.dictionary.id)) {
      throw new AppError('FORBIDDEN', 'Only the sender attaches a file to feedback');
    }
    throw notFound('Feedback', id);
  }
  if (!(await guestMaySend(scope))) {
    throw new AppError(
      'FORBIDDEN',
      'Guests may not send feedback (enableFeedback is off in the guest settings)',
    );
  }
  if (feedback.attachmentKey) throw new AppError('CONFLICT', 'The feedback has a file already');
  if (Date.now() - feedback.createdAt.getTime() > ATTACH_WITHIN_MS) {
    throw new AppError('CONFLICT', 'A file can be attached within 30 minutes of sending the feedback only');
  }
  return feedback;
}

/** Keeps a received blob as the feedback's file; the blob is deleted when the feedback cannot take it. */
export async function attachBlob(
  scope: Scope,
  store: BlobStore,
  id: number,
  blob: BlobInfo,
  fileName: string | undefined,
): Promise<void> {
  try {
    await scope.em.transactional(async (em) => {
      // Locked first: of two uploads racing, the second sees the first one's file (409).
      await em.findOne(
        Feedback,
        { id, client: scope.actor.clientId },
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      );
      const feedback = await attachableFeedback({ ...scope, em }, id);
      Object.assign(feedback, {
        attachmentKey: blob.key,
        attachmentName: (fileName?.trim() || 'attachment').slice(0, 255),
        attachmentType: blob.contentType,
        attachmentSize: blob.size,
        changedAt: new Date(),
      });
      await em.flush();
    });
  } catch (error) {
    await store.delete(blob.key);
    throw error;
  }
}

/** The file of a feedback the caller may see, with its stored facts; 404 when there is none. */
export async function feedbackFile(scope: Scope, store: BlobStore, id: number) {
  const feedback = await visibleFeedback(scope, id);
  const info = feedback.attachmentKey ? await store.stat(feedback.attachmentKey) : undefined;
  if (!info) throw notFound('Attachment of feedback', id);
  return { info, fileName: feedback.attachmentName ?? 'attachment' };
}
