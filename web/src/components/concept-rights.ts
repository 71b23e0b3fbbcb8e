import type { Concept } from '../data';

/**
 * What the caller may do with a concept, from the permission maps the concept read carries (the same
 * rules the server applies: src/modules/concept/concept-lock.service.ts and history-undo.ts). Guests
 * never edit. The server still decides every call.
 */
export function conceptRights(concept: Concept, guest: boolean) {
  const granted: Partial<NonNullable<Concept['permissions']>> = concept.permissions ?? {};
  const terms = concept.terms ?? [];
  // Term permissions may be limited to languages: any editable language or term counts.
  const termWork =
    (concept.languageCodesEditable ?? []).length > 0 ||
    terms.some((term) => term.permissions?.TERM_UPDATE || term.permissions?.TERM_DELETE);
  const edit =
    !guest &&
    (granted.CONCEPT_UPDATE === true ||
      granted.CONCEPT_EDIT_FIELDS === true ||
      granted.CONCEPT_DELETE === true ||
      granted.TERM_CREATE === true ||
      termWork);
  return {
    /** The edit lock, and so the editor (a lock needs some permission to change the concept). */
    edit,
    /** Restoring an earlier version from the history. */
    restore: !guest && (granted.CONCEPT_UPDATE === true || granted.RESTORE_STATE === true),
  };
}
