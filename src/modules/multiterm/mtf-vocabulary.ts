/**
 * MultiTerm XML's own words: its system status <-> TBX processStatus (docs/exchange.md, MultiTerm XML).
 * Field names are shared with spreadsheets in tbx/field-names.ts.
 */

/** MultiTerm `system type="status"` values -> TBX processStatus, and back. */
const PROCESS_STATUS = new Map([
  ['new', 'unprocessed'],
  ['reviewed', 'provisionallyProcessed'],
  ['approved', 'finalized'],
]);

export const processStatusOf = (status: string): string | null =>
  PROCESS_STATUS.get(status.trim().toLowerCase()) ?? null;

export const systemStatusOf = (processStatus: string): string | null =>
  [...PROCESS_STATUS].find(([, tbx]) => tbx === processStatus)?.[0] ?? null;
