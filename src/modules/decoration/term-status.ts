/**
 * The one rule deciding a term's status in decoration and term check: the category of its workflow
 * state where a workflow governs the term (rejected: forbidden, retired: deprecated), else, and for the
 * other categories, its usage status (TBX administrativeStatus, a TERM field of data category
 * USAGE_STATUS). Hidden and unpublished states never get here: those terms are not matched at all.
 */

export const TERM_STATUSES = ['preferred', 'admitted', 'deprecated', 'forbidden'] as const;
export type TermStatus = (typeof TERM_STATUSES)[number];

/** Words of usage status values (picklist names, TBX values such as deprecatedTerm-admn-sts). */
const RULES: [RegExp, TermStatus][] = [
  [/forbid|prohibit|not ?recommended|rejected|do ?not ?use/i, 'forbidden'],
  [/deprecat|supersed|obsolete|outdated/i, 'deprecated'],
  [/prefer|standardi[sz]ed|legal|regulated/i, 'preferred'],
  [/admit|accept|allowed/i, 'admitted'],
];

/** The order in which statuses recommend a term (replacements and translations come in it). */
export const statusRank = (status: TermStatus): number => TERM_STATUSES.indexOf(status);

/** What a workflow state's category says of a term's use, where it says anything. */
const BY_WORKFLOW_CATEGORY: Partial<Record<string, TermStatus>> = {
  REJECTED: 'forbidden',
  RETIRED: 'deprecated',
};

/**
 * A term's status from its workflow state's category and its usage status values; a term without
 * either is admitted (usable, not the recommendation).
 */
export function termStatusOf(
  usageValues: readonly string[],
  workflowCategory: string | null = null,
): TermStatus {
  const byWorkflow = workflowCategory ? BY_WORKFLOW_CATEGORY[workflowCategory] : undefined;
  if (byWorkflow) return byWorkflow;
  for (const [pattern, status] of RULES) {
    if (usageValues.some((value) => pattern.test(value))) return status;
  }
  return 'admitted';
}
