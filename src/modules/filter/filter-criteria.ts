import { z } from 'zod';
import { parseFilterDate } from '../field/field-validation.js';
import { normalLanguageCode } from '../language/iso-codes.js';

/**
 * What a filter selects (docs/filters.md). Every member is optional; the members that are set must all
 * hold (AND). Within `fieldConditions`, `match` says whether all or any condition must hold.
 */
const FilterDateSchema = z
  .string()
  .refine((text) => parseFilterDate(text) !== null, {
    message: 'Dates are yyyy-MM-dd HH:mm:ss, yyyy-MM-dd HH:mm, yyyy-MM-dd or yyyyMMdd',
  })
  .describe('yyyy-MM-dd HH:mm:ss, yyyy-MM-dd HH:mm, yyyy-MM-dd or yyyyMMdd, in the server time zone (UTC)');

const DateRangeSchema = z
  .object({ from: FilterDateSchema.optional(), to: FilterDateSchema.optional() })
  .describe('inclusive bounds; a day without a time covers the whole day');

export const FieldOperators = [
  'EQUALS',
  'NOT_EQUALS',
  'CONTAINS',
  'STARTS_WITH',
  'EMPTY',
  'NOT_EMPTY',
  'BEFORE',
  'AFTER',
] as const;

export const FieldConditionSchema = z
  .object({
    fieldOid: z.string().min(1).max(64),
    operator: z.enum(FieldOperators),
    value: z
      .string()
      .max(16383)
      .optional()
      .describe('not used by EMPTY and NOT_EMPTY; a date for BEFORE/AFTER'),
  })
  .refine((c) => c.operator === 'EMPTY' || c.operator === 'NOT_EMPTY' || c.value !== undefined, {
    message: 'This operator needs a value',
    path: ['value'],
  })
  .refine(
    (c) =>
      !['BEFORE', 'AFTER'].includes(c.operator) ||
      (c.value !== undefined && parseFilterDate(c.value) !== null),
    {
      message:
        'BEFORE and AFTER compare dates: yyyy-MM-dd HH:mm:ss, yyyy-MM-dd HH:mm, yyyy-MM-dd or yyyyMMdd',
      path: ['value'],
    },
  );

/**
 * A language and its variants; the language is read by the one rule of language codes (en, ENG and eng
 * are eng; docs/clients.md), wherever criteria are parsed: saved filters, quick filters, criteria read
 * back from the database. Whether the dictionary has it is checked where the dictionary is known.
 */
export const LanguageSelectorSchema = z
  .string()
  .regex(/^[^;\s]+(;[^;\s]*(;[^;\s]*)?)?$/, 'language codes are <lang>[;[region];[script]]')
  .overwrite((selector) => {
    const [code = '', ...variants] = selector.split(';');
    return [normalLanguageCode(code), ...variants].join(';');
  })
  .describe(
    '<lang>[;[region];[script]], e.g. eng, eng;US, jpn;;hira; the language as ISO 639 in two or three letters (read as the three-letter code) or a custom language of the dictionary',
  );

export const FilterCriteriaSchema = z.object({
  languages: z
    .array(LanguageSelectorSchema)
    .max(200)
    .default([])
    .describe('terms in these languages (variants)'),
  sectionOids: z.array(z.string().min(1).max(64)).max(500).default([]),
  domainOids: z.array(z.string().min(1).max(64)).max(500).default([]),
  includeSubdomains: z
    .boolean()
    .default(true)
    .describe('a domain also selects the concepts of its subdomains'),
  fieldConditions: z.array(FieldConditionSchema).max(100).default([]),
  match: z.enum(['ALL', 'ANY']).default('ALL').describe('how fieldConditions combine'),
  created: DateRangeSchema.optional(),
  changed: DateRangeSchema.optional(),
  createdBy: z.array(z.number().int()).max(500).default([]).describe('user ids'),
  changedBy: z.array(z.number().int()).max(500).default([]).describe('user ids'),
  workflowStates: z
    .array(
      z
        .string()
        .trim()
        .regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, 'a workflow state key'),
    )
    .max(100)
    .default([])
    .describe(
      "entries (concepts, languages or terms, by the workflow's unit) in one of these states of the dictionary's enabled workflow; nothing matches in a dictionary without one (docs/workflows.md)",
    ),
});
export type FilterCriteria = z.infer<typeof FilterCriteriaSchema>;
