/**
 * Comments on concepts and terms (docs/comments.md). Whoever may read a concept reads and writes its
 * comments (guests only with enableCommenting); the author or an administrator of the dictionary deletes.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, notFound } from '../../shared/errors.js';
import type { Scope } from '../../shared/scope.js';
import { isDictionaryAdmin } from '../access/access.service.js';
import type { Concept } from '../concept/concept.entity.js';
import type { CommentDto } from '../concept/concept.schema.js';
import { conceptIdOfTerm, readableConcept } from '../concept/concept-access.js';
import { recordEvent } from '../events/event-log.js';
import { GuestSettings } from '../guest/guest-settings.entity.js';
import { Comment, type CommentLevel } from './comment.entity.js';
import type { CommentCreateInput, CommentTargetInput } from './comment.schema.js';

/** Comments per entry a concept read shows unless told otherwise. */
export const DEFAULT_COMMENTS_PER_ENTRY = 50;

/** The API form of a stored comment. */
export function commentDto(row: Comment): CommentDto {
  return {
    id: row.id,
    oid: row.oid ?? null,
    text: row.text,
    authorName: row.authorName ?? null,
    userId: row.userId ?? null,
    dictionaryId: row.dictionary.id,
    fieldLevel: row.fieldLevel,
    entryId: row.entryId,
    date: row.createdAt.getTime(),
  };
}

export interface ConceptComments {
  /** Comments on the concept itself, newest first. */
  concept: CommentDto[];
  /** Comments on its terms by term id, newest first. */
  terms: Map<number, CommentDto[]>;
}

/**
 * The latest comments of many concepts in one query, for concept reads: at most `limit` per entry (the
 * concept, each term), grouped by concept id (every requested id has an entry). The caller has already
 * checked that the concepts are readable.
 */
export async function commentsOf(
  em: EntityManager,
  conceptIds: readonly number[],
  limit: number = DEFAULT_COMMENTS_PER_ENTRY,
): Promise<Map<number, ConceptComments>> {
  const ids = [...new Set(conceptIds)];
  const grouped = new Map<number, ConceptComments>(
    ids.map((id) => [id, { concept: [], terms: new Map<number, CommentDto[]>() }]),
  );
  const cap = Math.floor(limit);
  if (ids.length === 0 || !(cap > 0)) return grouped;
  // Ranked per entry in SQL, so a much-discussed concept does not load every comment it ever had.
  const rows = await em.execute<Record<string, unknown>[]>(
    `select id, oid, client_id, dictionary_id, concept_id, field_level, entry_id, text, user_id, author_name, created_at
       from (select c.*, row_number() over (partition by c.concept_id, c.field_level, c.entry_id
                                            order by c.created_at desc, c.id desc) as rank
               from comments c where c.concept_id in (?)) ranked
      where rank <= ?
      order by created_at desc, id desc`,
    [ids, cap],
  );
  for (const raw of rows) {
    const comment = em.map(Comment, raw);
    const group = grouped.get(comment.concept.id);
    if (!group) continue;
    if (comment.fieldLevel === 'CONCEPT') {
      group.concept.push(commentDto(comment));
    } else {
      const list = group.terms.get(comment.entryId) ?? [];
      list.push(commentDto(comment));
      group.terms.set(comment.entryId, list);
    }
  }
  return grouped;
}

/** The field level a request names, by `field-level` or the Comment member `fieldLevel` (400 when they differ). */
function levelOf(input: CommentTargetInput): CommentLevel {
  const [query, member] = [input['field-level'], input.fieldLevel];
  if (query && member && query !== member) {
    throw new AppError('BAD_REQUEST', `field-level ${query} and fieldLevel ${member} disagree`);
  }
  return query ?? member ?? 'CONCEPT';
}

/** The live, readable concept an entry belongs to (404 for another client, a deleted entry or an unreadable section). */
async function conceptOfEntry(scope: Scope, entryId: number, level: CommentLevel): Promise<Concept> {
  const conceptId = level === 'TERM' ? await conceptIdOfTerm(scope, { id: entryId }) : entryId;
  return (await readableConcept(scope, conceptId)).concept;
}

/** Comments on a concept or a term, newest first (readers of the concept). */
export async function listComments(scope: Scope, input: CommentTargetInput): Promise<CommentDto[]> {
  const level = levelOf(input);
  const concept = await conceptOfEntry(scope, input['entry-id'], level);
  const comments = await scope.em.find(
    Comment,
    { concept: concept.id, fieldLevel: level, entryId: input['entry-id'] },
    { orderBy: [{ createdAt: 'DESC' }, { id: 'DESC' }] },
  );
  return comments.map(commentDto);
}

async function assertMayComment(scope: Scope): Promise<void> {
  if (!scope.actor.guest) return;
  const settings = await scope.em.findOne(GuestSettings, { client: scope.actor.clientId });
  if (settings?.enableCommenting !== true) {
    throw new AppError('FORBIDDEN', 'Guests may not comment (enableCommenting is off in the guest settings)');
  }
}

/** Adds a comment to a concept or a term (readers of the concept; guests with enableCommenting). */
export async function createComment(scope: Scope, input: CommentCreateInput): Promise<CommentDto> {
  await assertMayComment(scope);
  const level = levelOf(input);
  const concept = await conceptOfEntry(scope, input['entry-id'], level);
  const comment = await scope.em.transactional(async (em) => {
    const row = em.create(Comment, {
      client: concept.client,
      dictionary: concept.dictionary,
      concept,
      fieldLevel: level,
      entryId: input['entry-id'],
      text: input.text,
      userId: scope.actor.userId,
      authorName: scope.actor.fullName?.trim() || scope.actor.username,
    });
    await em.flush();
    recordCommentEvent(em, scope, 'comment.created', row, concept);
    return row;
  });
  return commentDto(comment);
}

/**
 * Deletes a comment for good: its author or an administrator of the dictionary. Guests share one
 * account, so "the author" would be every guest: they delete nothing.
 */
export async function deleteComment(scope: Scope, id: number): Promise<void> {
  const comment = await scope.em.findOne(Comment, { id, client: scope.actor.clientId });
  if (!comment) throw notFound('Comment', id);
  // The concept decides visibility: a comment of an unreadable or deleted concept does not exist for the caller.
  const concept = await readableConcept(scope, comment.concept.id).catch((error: unknown) => {
    throw error instanceof AppError && error.code === 'NOT_FOUND' ? notFound('Comment', id) : error;
  });
  const dictionary = await concept.concept.dictionary.loadOrFail({ filters: { notDeleted: false } });
  const author = !scope.actor.guest && comment.userId === scope.actor.userId;
  if (!author && !isDictionaryAdmin(scope.actor, dictionary)) {
    throw new AppError(
      'FORBIDDEN',
      'Only the author or an administrator of the dictionary may delete a comment',
    );
  }
  recordCommentEvent(scope.em, scope, 'comment.deleted', comment, concept.concept);
  await scope.em.remove(comment).flush();
}

/** The comment's event (docs/events.md), with the flush that writes the comment. */
function recordCommentEvent(
  em: EntityManager,
  scope: Scope,
  type: 'comment.created' | 'comment.deleted',
  comment: Comment,
  concept: Concept,
): void {
  recordEvent(em, {
    clientId: scope.actor.clientId,
    type,
    actorId: scope.actor.userId,
    dictionaryId: concept.dictionary.id,
    sectionId: concept.section.id,
    conceptId: concept.id,
    termId: comment.fieldLevel === 'TERM' ? comment.entryId : null,
    data: { commentId: comment.id, fieldLevel: comment.fieldLevel, entryId: comment.entryId },
  });
}
