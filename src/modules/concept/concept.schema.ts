import { z } from 'zod';
import { commonDtoShape } from '../../shared/common.schema.js';
import { FormatSchema } from '../../shared/format.js';
import { queryBoolean } from '../../shared/query.js';
import { CommentLevels } from '../comment/comment.entity.js';
import { ConceptPermissionValues, TermPermissionValues } from '../permission/permission-scheme.entity.js';
import { RefLinkTypes } from './concept.entity.js';
import { LanguageFieldsDtoSchema } from './concept-language-fields.js'; // language-fields

// ---------------------------------------------------------------- outputs

export const FieldMapSchema = z
  .record(z.string(), z.array(z.string()))
  .describe(
    'field oid to values; only non-empty fields; line breaks are CR LF; only MULTISELECT and ATTACHMENT fields hold several values',
  );

export const CommentDtoSchema = z.object({
  id: z.number().int(),
  oid: z.string().nullable(),
  text: z.string(),
  authorName: z.string().nullable().describe("the author's full name (login when none)"),
  userId: z.number().int().nullable(),
  dictionaryId: z.number().int(),
  fieldLevel: z.enum(CommentLevels).describe('CONCEPT: entryId is a concept id; TERM: a term id'),
  entryId: z.number().int(),
  date: z.number().int().describe('ms epoch'),
});
export type CommentDto = z.infer<typeof CommentDtoSchema>;

export const RefLinkDtoSchema = z.object({
  id: z.number().int(),
  oid: z.string().nullable(),
  sourceConceptId: z.number().int(),
  sourceTermId: z.number().int().nullable(),
  sourceFieldOid: z.string(),
  type: z.enum(RefLinkTypes).describe('CONCEPT (conceptId), TERM (termId) or URL (url)'),
  text: z.string().describe('the reference text as it stands in the field value'),
  dynamicText: z.string().nullable(),
  position: z.number().int().describe('start offset in the field value; a line break (CR LF) counts two'),
  url: z.string().nullable(),
  conceptId: z.number().int().nullable(),
  termId: z.number().int().nullable(),
  languageCode: z.string().nullable(),
  dictionaryId: z.number().int(),
  invalid: z.boolean().describe('true when the target concept or term is deleted'),
});
export type RefLinkDto = z.infer<typeof RefLinkDtoSchema>;

export const ConceptRelationDtoSchema = z.object({
  id: z.number().int(),
  oid: z.string().nullable(),
  dictionaryId: z.number().int(),
  sourceConceptId: z.number().int(),
  targetConceptId: z.number().int(),
  type: z.number().int().describe('GENERIC 0, PARTITIVE 1, TEMPORAL 2, SPATIAL 3, ASSOCIATIVE 4'),
  attribute: z
    .number()
    .int()
    .describe(
      'GENERIC_SUPERORDINATE 0, GENERIC_SUBORDINATE 1, PARTITIVE_SUPERORDINATE 2, PARTITIVE_SUBORDINATE 3, TEMPORAL_BEFORE 4, TEMPORAL_CONCURRENT 5, TEMPORAL_AFTER 6, SPATIAL_UP 7, SPATIAL_DOWN 8, SPATIAL_RIGHT 9, SPATIAL_LEFT 10, ASSOCIATIVE_DEFAULT 11',
    ),
  text: z.string().nullable(),
  relationId: z.number().int().describe('serial number inside the dictionary'),
});
export type ConceptRelationDto = z.infer<typeof ConceptRelationDtoSchema>;

export const TermPermissionMapSchema = z.record(z.enum(TermPermissionValues), z.boolean());
export const ConceptPermissionMapSchema = z.record(z.enum(ConceptPermissionValues), z.boolean());

export const TermDtoSchema = z.object({
  ...commonDtoShape,
  name: z.string(),
  tid: z.number().int().describe('serial number inside the dictionary'),
  conceptId: z.number().int(),
  conceptOid: z.string().nullable(),
  languageCode: z.string().describe('three-letter lowercase code'),
  regionCode: z.string().nullable(),
  scriptCode: z.string().nullable(),
  permissions: TermPermissionMapSchema,
  fieldMap: FieldMapSchema,
  refLinks: z.array(RefLinkDtoSchema),
  comments: z.array(CommentDtoSchema),
  dictionaryId: z.number().int(),
});
export type TermDto = z.infer<typeof TermDtoSchema>;

export const ConceptLockDtoSchema = z.object({
  userId: z.number().int(),
  name: z.string().nullable().describe('login of the holder'),
  fullName: z.string().nullable(),
  mine: z.boolean().describe("true when the caller's session holds the lock"),
  expirationTime: z.number().int().describe('ms epoch'),
});
export type ConceptLockDto = z.infer<typeof ConceptLockDtoSchema>;

export const ConceptDtoSchema = z.object({
  ...commonDtoShape,
  cid: z.string().describe('serial number inside the dictionary'),
  sectionOid: z.string().nullable(),
  sectionId: z.number().int(),
  domainList: z.array(z.string()).describe('domain oids'),
  terms: z.array(TermDtoSchema),
  conceptRelations: z.array(ConceptRelationDtoSchema).describe('relations from and to this concept'),
  languageCodesEditable: z.array(z.string()),
  permissions: ConceptPermissionMapSchema,
  fieldMap: FieldMapSchema,
  languageFields: z.array(LanguageFieldsDtoSchema).describe('values per language'), // language-fields
  refLinks: z.array(RefLinkDtoSchema).describe('links in concept-level fields'),
  comments: z.array(CommentDtoSchema).describe('with-comments=true: the latest comments on the concept'),
  dictionaryId: z.number().int(),
  lock: ConceptLockDtoSchema.nullable().describe('the live edit lock, if any'),
});
export type ConceptDto = z.infer<typeof ConceptDtoSchema>;
export const CONCEPT_SHORT_KEYS = ['cid', 'dictionaryId', 'sectionOid', 'terms', 'version'] as const;

export const ConceptOutputSchema = ConceptDtoSchema.partial().extend({ id: z.number().int() });
export type ConceptOutput = z.infer<typeof ConceptOutputSchema>;

// ---------------------------------------------------------------- inputs

/** Values may be sent as one string or as an array; blank values are dropped. */
const FieldMapInputSchema = z
  .record(z.string(), z.union([z.string(), z.array(z.string())]).nullable())
  .transform((map) =>
    Object.fromEntries(
      Object.entries(map).map(([oid, values]) => [oid, values === null ? [] : [values].flat()]),
    ),
  )
  .describe('field oid to values (a single string is taken as one value)');

export const RefLinkInputSchema = z.object({
  id: z.number().int().optional().describe('ignored: links are rewritten with their field'),
  sourceFieldOid: z.string().min(1),
  type: z.enum(RefLinkTypes),
  text: z.string().min(1),
  dynamicText: z.string().nullable().optional(),
  position: z.number().int().min(0),
  url: z.string().max(2048).nullable().optional(),
  conceptId: z.number().int().nullable().optional(),
  termId: z.number().int().nullable().optional(),
  languageCode: z.string().nullable().optional(),
});
export type RefLinkInput = z.infer<typeof RefLinkInputSchema>;

export const TermInputSchema = z.object({
  id: z.number().int().optional().describe('an existing term of the concept; absent for a new term'),
  name: z.string().max(1024).describe('required; surrounding spaces are trimmed'),
  languageCode: z.string().min(1).max(64),
  regionCode: z.string().max(64).nullable().optional(),
  scriptCode: z.string().max(64).nullable().optional(),
  fieldMap: FieldMapInputSchema.optional(),
  refLinks: z.array(RefLinkInputSchema).optional(),
});
export type TermInput = z.infer<typeof TermInputSchema>;

export const RelationInputSchema = z.object({
  id: z.number().int().optional().describe('an existing relation of the concept; absent for a new one'),
  sourceConceptId: z.number().int().optional().describe('default: this concept'),
  targetConceptId: z.number().int(),
  type: z.number().int().min(0).max(4),
  attribute: z.number().int().min(0).max(11),
  text: z.string().max(16383).nullable().optional(),
});
export type RelationInput = z.infer<typeof RelationInputSchema>;

export const LanguageFieldsInputSchema = z.object({
  languageCode: z.string().min(1).max(64).describe('a language of the dictionary'),
  regionCode: z.string().max(64).nullable().optional(),
  scriptCode: z.string().max(64).nullable().optional(),
  fieldMap: FieldMapInputSchema.describe('TERM-level field oid to values (null or [] removes a field)'),
});
export type LanguageFieldsInput = z.infer<typeof LanguageFieldsInputSchema>;

const conceptBodyShape = {
  format: FormatSchema,
  'with-comments': queryBoolean().default(false),
  dictionaryId: z.number().int().optional().describe('required on create'),
  sectionOid: z.string().min(1).optional().describe('required on create'),
  domainList: z.array(z.string()).nullable().optional(),
  fieldMap: FieldMapInputSchema.nullable().optional(),
  terms: z.array(TermInputSchema).nullable().optional(),
  conceptRelations: z.array(RelationInputSchema).nullable().optional(),
  refLinks: z.array(RefLinkInputSchema).nullable().optional(),
  languageFields: z
    .array(LanguageFieldsInputSchema)
    .nullable()
    .optional()
    .describe(
      'values per language tag (docs/concepts.md, Language fields); missing or null: kept as they are; PUT: the array replaces them all, PATCH: sent fields of sent tags replace those fields only',
    ),
};
export const ConceptCreateInputSchema = z.object(conceptBodyShape);
export type ConceptCreateInput = z.infer<typeof ConceptCreateInputSchema>;

export const ConceptUpdateInputSchema = z.object({
  ...conceptBodyShape,
  id: z.number().int(),
  version: z.number().int().optional().describe('required; a missing or stale version answers 409'),
});
export type ConceptUpdateInput = z.infer<typeof ConceptUpdateInputSchema>;

export const ConceptReadOptionsSchema = z.object({
  format: FormatSchema,
  'with-comments': queryBoolean().default(false),
  'include-deleted': queryBoolean().default(false),
});
export type ConceptReadOptions = z.infer<typeof ConceptReadOptionsSchema>;
