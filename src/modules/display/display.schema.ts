import { z } from 'zod';
import { queryBoolean } from '../../shared/query.js';
import { ConceptOutputSchema } from '../concept/concept.schema.js';

// ---------------------------------------------------------------- outputs

export const DisplayFieldSchema = z.object({
  id: z
    .string()
    .describe(
      'the field oid, or a system key: DICT, SECT, DOM, TERM, CREBY, CREDATE, CHGBY, CHGDATE, TCREBY...',
    ),
  label: z.string().describe('English name of the field'),
  value: z
    .string()
    .nullable()
    .describe(
      'prepared for showing: picklist items by name, dates as yyyy-MM-dd, several values joined by MULTIVALUED_SEPARATOR; null when empty',
    ),
  valueOid: z
    .string()
    .nullable()
    .describe('oids of the dictionary, section, domains or picklist items shown, joined like value'),
  cssClass: z.string().nullable(),
  cssStyle: z.string().nullable().describe('conditional formatting; null (no workflow functions)'),
  readOnly: z.boolean().describe("true when the caller's permissions do not allow changing it"),
  hidden: z.boolean().describe("true when the caller's view leaves the field out"),
});
export type DisplayField = z.infer<typeof DisplayFieldSchema>;

export const DisplayTermSchema = z.object({
  id: z.number().int().nullable().describe('null on stubs (not stored)'),
  dictionary_id: z.number().int(),
  langCode: z.string().describe('the language code the term carries (the full code of a custom language)'),
  region: z.string().nullable(),
  script: z.string().nullable(),
  elementId: z.string().describe('a unique element id for the user interface'),
  termField: DisplayFieldSchema.describe('the term name (id TERM)'),
  metadataFields: z.array(DisplayFieldSchema).describe('TCREBY, TCREDATE, TCHGBY, TCHGDATE; empty on stubs'),
  fields: z.array(DisplayFieldSchema),
});
export type DisplayTerm = z.infer<typeof DisplayTermSchema>;

export const DisplayConceptSchema = z.object({
  id: z.number().int().nullable().describe('null on stubs (not stored)'),
  dictionary_id: z.number().int(),
  sectionId: z.number().int(),
  requestedByUserId: z.number().int(),
  classificationFields: z.array(DisplayFieldSchema).describe('DICT, SECT and DOM'),
  languageCodes: z
    .array(z.string())
    .describe(
      'by language sortIndex: the languages with terms, or every language of the dictionary (create, edit, copy)',
    ),
  termsPerLanguage: z.array(z.array(DisplayTermSchema)).describe('one group per entry of languageCodes'),
  termSelected: DisplayTermSchema.nullable().describe('the term named by term-id'),
  concept: ConceptOutputSchema.nullable().describe(
    'the concept (load-concept=true, with-comments=true, edit)',
  ),
  metadataFields: z.array(DisplayFieldSchema).describe('CREBY, CREDATE, CHGBY, CHGDATE; empty on stubs'),
  fields: z
    .array(DisplayFieldSchema)
    .describe('concept fields: those with a value when showing, all of them for create, edit and copy'),
});
export type DisplayConcept = z.infer<typeof DisplayConceptSchema>;

// ---------------------------------------------------------------- inputs

const showShape = {
  'term-id': z
    .number()
    .int()
    .optional()
    .describe('the term to select (without id: the concept of this term)'),
  'load-concept': queryBoolean().default(false).describe('include the Concept'),
  'with-comments': queryBoolean().default(false).describe('include the Concept with its comments'),
};
export const DisplayConceptInputSchema = z.object({ id: z.number().int(), ...showShape });
export const DisplayConceptByTermInputSchema = z.object({
  ...showShape,
  'term-id': z.number().int().describe('the term whose concept is shown (selected)'),
});
export type DisplayConceptInput = Omit<z.infer<typeof DisplayConceptByTermInputSchema>, 'term-id'> & {
  id?: number;
  'term-id'?: number;
};

export const DisplayEditInputSchema = z.object({
  conceptId: z.number().int(),
  'term-id': z.number().int().optional().describe('the term to select'),
});
export const DisplayCreateInputSchema = z.object({ dictionaryId: z.number().int() });
export const DisplayCopyInputSchema = z.object({ conceptId: z.number().int() });
export const DisplayAddTermInputSchema = z.object({
  conceptId: z.number().int(),
  'lang-code': z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe('language of the stub; default: the first language the caller may add terms in'),
});
export const DisplayCopyTermInputSchema = z.object({ termId: z.number().int() });
export const PrintInputSchema = z.object({ id: z.number().int() });
