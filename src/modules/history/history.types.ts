/**
 * What a history item stores. The snapshot is the whole concept as a change left it (live terms only,
 * with their ids so that an undo updates them in place); changes list what differs from the previous item.
 */
export interface TermSnapshot {
  id: number;
  tid: number;
  name: string;
  languageCode: string;
  regionCode: string | null;
  scriptCode: string | null;
  fieldMap: Record<string, string[]>;
}

export interface RelationSnapshot {
  id: number;
  relationId: number;
  sourceConceptId: number;
  targetConceptId: number;
  type: number;
  attribute: number;
  text: string | null;
}

export interface RefLinkSnapshot {
  sourceTermId: number | null;
  sourceFieldOid: string;
  type: 'CONCEPT' | 'TERM' | 'URL';
  text: string;
  dynamicText: string | null;
  position: number;
  url: string | null;
  conceptId: number | null;
  termId: number | null;
  languageCode: string | null;
}

/** A concept's values in one language tag (docs/concepts.md, Language fields). */
export interface LanguageFieldsSnapshot {
  languageCode: string;
  regionCode: string | null;
  scriptCode: string | null;
  fieldMap: Record<string, string[]>;
}

export interface ConceptSnapshot {
  cid: string;
  dictionaryId: number;
  sectionId: number;
  deleted: boolean;
  domainIds: number[];
  fieldMap: Record<string, string[]>;
  terms: TermSnapshot[];
  relations: RelationSnapshot[];
  refLinks: RefLinkSnapshot[];
  /**
   * Language fields in language tag order. Absent in items written before concept writes took them
   * (and in TBX import items): unknown there, so an undo to such an item keeps the current ones.
   */
  languageFields?: LanguageFieldsSnapshot[];
}

export const HistoryChangeKinds = ['ADDED', 'CHANGED', 'REMOVED'] as const;
export const HistoryChangeSubjects = [
  'CONCEPT',
  'SECTION',
  'DOMAINS',
  'FIELD',
  'TERM',
  'TERM_FIELD',
  'RELATION',
  'REF_LINK',
  /** A language field (docs/concepts.md): `language` names the tag, `fieldOid` the field. */
  'LANGUAGE_FIELD',
  /** A workflow move (docs/workflows.md): before/after hold the states, the transition and its comment. */
  'WORKFLOW',
] as const;

/** One difference between two snapshots; `before`/`after` hold the old and new value where it has one. */
export interface HistoryChange {
  kind: (typeof HistoryChangeKinds)[number];
  subject: (typeof HistoryChangeSubjects)[number];
  termId?: number;
  fieldOid?: string;
  relationId?: number;
  /** LANGUAGE_FIELD: the language tag, e.g. `eng` or `eng-GB` (language, region, script). */
  language?: string;
  before?: unknown;
  after?: unknown;
}

/**
 * Who did what by an imported file (TBX transactions, docs/history.md): the person and date of the
 * latest creation and of the latest change the file records. Null where the file gives none.
 */
export interface FileTransactions {
  createdBy: string | null;
  /** ms epoch */
  createdAt: number | null;
  changedBy: string | null;
  /** ms epoch */
  changedAt: number | null;
}

/** On the items a TBX import writes: the file's account of the concept and of its terms. */
export interface HistoryProvenance {
  /** null: the file records nothing of the entry itself. */
  concept: FileTransactions | null;
  /** The terms whose transactions the file records, by their ids in the dictionary. */
  terms: (FileTransactions & { termId: number })[];
}
