import type { TFunction } from 'i18next';
import type { trpc } from '../../../api';

export type FeedbackItem = Awaited<ReturnType<typeof trpc.feedback.get.query>>;
export const STATUSES = ['OPEN', 'ANSWERED', 'CLOSED'] as const;
export const TARGETS = ['DICTIONARY', 'CONCEPT', 'TERM'] as const;

/** What the feedback is about, in the interface language ("The term “valve”"). */
export function aboutOf(t: TFunction, item: FeedbackItem): string {
  if (item.target === 'DICTIONARY')
    return t('aboutDictionary', { ns: 'feedback', name: item.dictionaryName });
  const key = item.target === 'TERM' ? 'aboutTerm' : 'aboutConcept';
  return t(key, { ns: 'feedback', label: `“${item.targetLabel ?? item.conceptId ?? ''}”` });
}

/** Who sent it: the name given, else "a guest" or "someone". */
export function senderOf(t: TFunction, item: FeedbackItem): string {
  return item.senderName ?? t(item.guest ? 'admin.guest' : 'admin.unknownSender', { ns: 'feedback' });
}
