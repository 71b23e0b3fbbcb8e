/**
 * The contract of the history calls (docs/history.md): the HistoryItem object, its page, and the inputs
 * of the list and undo calls. The snapshot schema mirrors ConceptSnapshot (history.types.ts).
 */
import { z } from 'zod';
import { FormatSchema } from '../../shared/format.js';
import { pageSchema } from '../../shared/paging.js';
import { HistoryActions } from './history.entity.js';
import { HistoryChangeKinds, HistoryChangeSubjects } from './history.types.js';

const FieldValuesSchema = z.record(z.string(), z.array(z.string())).describe('field oid to values');

export const TermSnapshotSchema = z.object({
  id: z.number().int(),
  tid: z.number().int(),
  name: z.string(),
  languageCode: z.string(),
  regionCode: z.string().nullable(),
  scriptCode: z.string().nullable(),
  fieldMap: FieldValuesSchema,
});

export const RelationSnapshotSchema = z.object({
  id: z.number().int(),
  relationId: z.number().int(),
  sourceConceptId: z.number().int(),
  targetConceptId: z.number().int(),
  type: z.number().int(),
  attribute: z.number().int(),
  text: z.string().nullable(),
});

export const RefLinkSnapshotSchema = z.object({
  sourceTermId: z.number().int().nullable().describe('null: a link in a concept-level field'),
  sourceFieldOid: z.string(),
  type: z.enum(['CONCEPT', 'TERM', 'URL']),
  text: z.string(),
  dynamicText: z.string().nullable(),
  position: z.number().int(),
  url: z.string().nullable(),
  conceptId: z.number().int().nullable(),
  termId: z.number().int().nullable(),
  languageCode: z.string().nullable(),
});

export const LanguageFieldsSnapshotSchema = z.object({
  languageCode: z.string(),
  regionCode: z.string().nullable(),
  scriptCode: z.string().nullable(),
  fieldMap: FieldValuesSchema,
});

export const ConceptSnapshotSchema = z
  .object({
    cid: z.string(),
    dictionaryId: z.number().int(),
    sectionId: z.number().int(),
    deleted: z.boolean(),
    domainIds: z.array(z.number().int()),
    fieldMap: FieldValuesSchema,
    terms: z.array(TermSnapshotSchema).describe('the live terms, with their ids'),
    relations: z.array(RelationSnapshotSchema).describe('relations from and to the concept'),
    refLinks: z.array(RefLinkSnapshotSchema),
    languageFields: z
      .array(LanguageFieldsSnapshotSchema)
      .optional()
      .describe('values per language tag; absent in items recorded before concept writes took them'),
  })
  .describe('the whole concept as the change left it');

export const HistoryChangeSchema = z.object({
  kind: z.enum(HistoryChangeKinds),
  subject: z.enum(HistoryChangeSubjects),
  termId: z.number().int().optional(),
  fieldOid: z.string().optional(),
  relationId: z.number().int().optional().describe('the relation serial (relationId), not its row id'),
  language: z.string().optional().describe('LANGUAGE_FIELD: the language tag (eng, eng-GB, ...)'),
  before: z.unknown().optional().describe('the old value, where there is one'),
  after: z.unknown().optional().describe('the new value, where there is one'),
});

export const HistoryUserSchema = z.object({
  id: z.number().int().nullable().describe('null once the user is removed'),
  name: z.string().nullable().describe('login'),
  fullName: z.string().nullable(),
});

const FileTransactionsShape = {
  createdBy: z.string().nullable().describe("the file's creator (transacNote responsibility)"),
  createdAt: z.number().int().nullable().describe("the file's creation date, ms epoch"),
  changedBy: z.string().nullable().describe('who last changed it in the file'),
  changedAt: z.number().int().nullable().describe("the file's last change date, ms epoch"),
};

export const HistoryProvenanceSchema = z
  .object({
    concept: z
      .object(FileTransactionsShape)
      .nullable()
      .describe('the entry; null when the file records nothing of it'),
    terms: z
      .array(z.object({ termId: z.number().int(), ...FileTransactionsShape }))
      .describe('the terms whose transactions the file records'),
  })
  .describe(
    "who created and last changed the concept and its terms according to an imported file's transactions",
  );

export const HistoryItemSchema = z.object({
  id: z.number().int(),
  oid: z.string().nullable(),
  conceptId: z.number().int(),
  dictionaryId: z.number().int(),
  clientId: z.number().int(),
  revision: z.number().int().describe('the concept version this change produced'),
  action: z.enum(HistoryActions),
  user: HistoryUserSchema.describe('who made the change'),
  time: z.number().int().describe('ms epoch'),
  changes: z.array(HistoryChangeSchema).describe('what differs from the state before the change'),
  restoredFromId: z.number().int().nullable().describe('UNDO and RESTORE: the item whose state came back'),
  snapshot: ConceptSnapshotSchema.optional().describe('format FULL and EDIT only'),
  provenance: HistoryProvenanceSchema.nullable().describe(
    'items of a TBX import whose file names people or dates: the original creator and modifier with their dates; otherwise null',
  ),
});
export type HistoryItem = z.infer<typeof HistoryItemSchema>;

/** Format ID answers the id only; SHORT leaves the snapshot out. */
export const HistoryItemOutputSchema = HistoryItemSchema.partial().extend({ id: z.number().int() });
export type HistoryItemOutput = z.infer<typeof HistoryItemOutputSchema>;

export const HistoryPageSchema = pageSchema(HistoryItemOutputSchema);
export type HistoryPage = z.infer<typeof HistoryPageSchema>;

const pageShape = {
  size: z.number().int().min(1).optional().describe('page size (default 20, capped at MAX_PAGE_SIZE)'),
  page: z.number().int().min(0).default(0).describe('0-based page number'),
  format: FormatSchema.describe('FULL (default) and EDIT: with the snapshot; SHORT: without; ID: ids only'),
};

export const ConceptHistoryInputSchema = z.object({ conceptId: z.number().int(), ...pageShape });
export type ConceptHistoryInput = z.infer<typeof ConceptHistoryInputSchema>;

export const DictionaryHistoryInputSchema = z.object({ dictionaryId: z.number().int(), ...pageShape });
export type DictionaryHistoryInput = z.infer<typeof DictionaryHistoryInputSchema>;

export const ConceptUndoInputSchema = z.object({
  'history-item-id': z.number().int().describe('the item whose state to restore'),
  format: FormatSchema.describe('of the answered concept'),
});
export type ConceptUndoInput = z.infer<typeof ConceptUndoInputSchema>;

export const DictionaryUndoInputSchema = z.object({
  'history-item-id': z.number().int().describe('the dictionary returns to its state right after this item'),
});
export type DictionaryUndoInput = z.infer<typeof DictionaryUndoInputSchema>;
