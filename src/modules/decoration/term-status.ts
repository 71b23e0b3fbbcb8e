/**
 * The one rule deciding a term's status in decoration and term check. Today it reads the term's usage
 * status (TBX administrativeStatus, a TERM field of data category USAGE_STATUS); once workflows exist,
 * their state of the term is the second input here (design.md: "through one function that each of
 * them calls"), e.g. a rejected or retired state making the term forbidden or deprecated.
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

/**
 * A term's status from its usage status values; a term without one is admitted (usable, not the
 * recommendation). `workflowState` is the workflow's state of the term when workflows are on.
 */
export function termStatusOf(
  usageValues: readonly string[],
  workflowState: string | null = null,
): TermStatus {
  void workflowState;
  for (const [pattern, status] of RULES) {
    if (usageValues.some((value) => pattern.test(value))) return status;
  }
  return 'admitted';
}
