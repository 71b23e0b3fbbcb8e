/**
 * The history side of TBX provenance (issue 37): an import's history item keeps who created and last
 * changed the concept and its terms according to the file, with the file's dates, so that the history
 * shows the original people beside the importing user (docs/history.md, Provenance).
 */
import type { FileTransactions, HistoryProvenance } from '../history/history.types.js';
import type { PlannedConcept } from './tbx-import-plan.js';
import type { Provenance } from './tbx-mapping.js';

function transactionsOf(dated: {
  createdAt: Date | null;
  changedAt: Date | null;
  provenance: Provenance | null;
}): FileTransactions | null {
  const found: FileTransactions = {
    createdBy: dated.provenance?.createdBy ?? null,
    createdAt: dated.createdAt?.getTime() ?? null,
    changedBy: dated.provenance?.changedBy ?? null,
    changedAt: dated.changedAt?.getTime() ?? null,
  };
  return Object.values(found).some((value) => value !== null) ? found : null;
}

/** What the file says of a planned concept and its written terms; null when it names no one and no date. */
export function historyProvenance(planned: PlannedConcept): HistoryProvenance | null {
  const concept = transactionsOf(planned);
  const terms = planned.terms.flatMap((term) => {
    const found = term.writtenId === undefined ? null : transactionsOf(term);
    return found ? [{ termId: term.writtenId!, ...found }] : [];
  });
  return concept || terms.length > 0 ? { concept, terms } : null;
}
