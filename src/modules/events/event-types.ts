/** The event types and the shape events are read in (docs/events.md). */

/** Every event type; concept.* and term.* come from the history trigger. */
export const EventTypes = [
  'concept.created',
  'concept.updated',
  'concept.deleted',
  'concept.restored',
  'concept.undone',
  'term.created',
  'term.updated',
  'term.deleted',
  'term.restored',
  'comment.created',
  'comment.deleted',
  'workflow.transitioned',
  'workflow.voted',
  'project.created',
  'project.updated',
  'project.deleted',
  'project.entries.changed',
  'assignment.created',
  'assignment.updated',
  'assignment.deleted',
  'assignment.completed',
  'candidate.added',
  'candidate.commented',
  'candidate.decided',
  'attachment.added',
  'feedback.created',
  'feedback.answered',
  'feedback.updated',
  'feedback.deleted',
  'dictionary.created',
  'dictionary.updated',
  'dictionary.deleted',
  'dictionary.structure.changed',
  'import.finished',
  'export.finished',
] as const;
export type EventType = (typeof EventTypes)[number];

/** Types only the dictionary's administrators receive (feedback names its senders). */
export const ADMIN_EVENT_TYPES: ReadonlySet<EventType> = new Set([
  'feedback.created',
  'feedback.answered',
  'feedback.updated',
  'feedback.deleted',
]);

/**
 * Types of uploads not yet on a concept: for the dictionary's administrators and the uploader only
 * (the concept change that uses the file is what the concept's readers receive).
 */
export const UPLOAD_EVENT_TYPES: ReadonlySet<EventType> = new Set(['attachment.added']);

/** An event as the feed, SSE, subscriptions and webhooks show it. */
export interface EventRecord {
  sequence: number;
  type: EventType;
  clientId: number;
  dictionaryId: number | null;
  sectionId: number | null;
  conceptId: number | null;
  termId: number | null;
  actorId: number | null;
  occurredAt: string;
  data: Record<string, unknown>;
}
