import { z } from 'zod';
import { FilterCriteriaSchema } from '../filter/filter-criteria.js';
import { SearchModes } from '../search-settings/search-settings.schema.js';

/** Term search request and response of the spec (docs/search.md gives every member's meaning). */
const OidSchema = z.string().trim().min(1).max(64);

export const SearchFieldSchema = z.union([
  OidSchema,
  z.object({ oid: OidSchema, level: z.enum(['CONCEPT', 'TERM']).optional() }),
]);

export const SearchOptionsSchema = z
  .object({
    normalized: z
      .boolean()
      .optional()
      .describe('fold case and accents (Á = a, ß = ss); default: the search settings (true)'),
    fuzzy: z
      .boolean()
      .optional()
      .describe('also find terms whose folded name is within `fuzziness` edits of the folded text'),
    fuzziness: z
      .number()
      .int()
      .min(1)
      .max(2)
      .optional()
      .describe('edits a fuzzy match may differ by; default: the search settings'),
    mode: z
      .enum(SearchModes)
      .optional()
      .describe('PREFIX, SUBSTRING or EXACT; default: the search settings (SUBSTRING with ALWAYS_WILDCARD)'),
    stemmed: z
      .boolean()
      .optional()
      .describe(
        "also find terms whose stem key equals the text's (same stems word for word: pump = pumps = pumping); both engines use PostgreSQL's Snowball stems (docs/decoration.md)",
      ),
    multiEnabled: z
      .boolean()
      .optional()
      .describe('also find terms whose term or concept values in `fields` hold every word of the text'),
    multiAllFields: z.boolean().optional().describe('as multiEnabled, in the values of every field'),
    fields: z
      .array(SearchFieldSchema)
      .max(200)
      .optional()
      .describe('field oids (or {oid, level}) searched by multiEnabled'),
  })
  .describe('how `name` is matched');

export const TermSearchInputSchema = z.object({
  dictionaryIds: z.array(z.number().int()).min(1).max(100),
  langCode: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .describe(
      'language searched: an ISO 639 code, three or two letters in any case (eng, en, ENG; read as the three-letter code), or the code of a custom language of the dictionaries; anything else is 400',
    ),
  regionCode: z.string().trim().max(64).nullish().describe('only this region variant'),
  scriptCode: z.string().trim().max(64).nullish().describe('only this script variant'),
  sectionOids: z
    .array(OidSchema)
    .max(500)
    .describe(
      'required (may be empty); sections searched; empty: the search settings sections, else every readable section of the dictionaries',
    ),
  domainOids: z
    .array(OidSchema)
    .max(500)
    .optional()
    .describe('concepts in one of these domains or their subdomains'),
  filterId: z.number().int().nullish().describe('a saved filter applied to the results'),
  quickFilter: FilterCriteriaSchema.partial()
    .nullish()
    .describe('a temporary filter (the criteria of a Filter) applied to the results'),
  name: z.string().max(1024).nullish().describe('the text to find; empty lists every term'),
  pageSize: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('default: the search settings, at most MAX_PAGE_SIZE'),
  termOid: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .nullish()
    .describe('list around this term (name is then ignored): the term and the terms after it'),
  bidirectional: z
    .boolean()
    .optional()
    .describe('with termOid: half a page before the term, the term, and the rest after it'),
  searchAfter: z.string().max(4096).nullish().describe('cursor from a response: the next page'),
  searchBefore: z.string().max(4096).nullish().describe('cursor from a response: the previous page'),
  reverse: z.boolean().optional().describe('sort descending (Z to A)'),
  searchOptions: SearchOptionsSchema.optional(),
  workflowStates: z
    .array(z.string().trim().min(1).max(64))
    .max(64)
    .nullish()
    .describe(
      'only entries in these workflow states (state keys of the enabled workflows; unknown keys are 400); terms of dictionaries without an enabled workflow are then left out. Hidden states stay unlisted, unpublished ones for guests and users without review rights (docs/workflows.md)',
    ),
});
export type TermSearchInput = z.infer<typeof TermSearchInputSchema>;

export const TermListEntrySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  dictionaryId: z.number().int(),
  termId: z.number().int().describe('tid: serial number in the dictionary'),
  conceptId: z.number().int(),
  conceptOid: z.string().nullable(),
  langCode: z.string(),
  regionCode: z.string().nullable(),
  scriptCode: z.string().nullable(),
  filterId: z.number().int().nullable().describe('deprecated: the filter applied, if any'),
  style: z
    .string()
    .describe("HTML style attribute: the workflow state's style (docs/workflows.md); empty without one"),
  disabled: z
    .boolean()
    .describe('read-only for the caller: no TERM_UPDATE for it, or a read-only workflow state'),
  hidden: z.boolean().describe('always false: hidden terms are not listed'),
});
export type TermListEntry = z.infer<typeof TermListEntrySchema>;

export const TermSearchResponseSchema = z.object({
  total: z.number().int().describe('terms matching in all; -1 when unknown'),
  pageSize: z.number().int(),
  searchAfter: z.string().nullable().describe('cursor of the next page; null on the last page'),
  searchBefore: z.string().nullable().describe('cursor of the previous page; null on the first page'),
  results: z.array(TermListEntrySchema),
  message: z.string().nullable().describe('a warning, e.g. a termOid that is not in the list'),
});
export type TermSearchResponse = z.infer<typeof TermSearchResponseSchema>;

export const DuplicatesInputSchema = z.object({
  term: z.string().trim().min(1).max(1024),
  'dictionary-id': z.number().int(),
  'lang-code': z.string().trim().min(2).max(64),
  'concept-id': z.number().int().optional().describe('this concept is left out'),
  'region-code': z.string().trim().max(64).optional(),
  'script-code': z.string().trim().max(64).optional(),
});

export const TermSuggestionSchema = z.object({
  term: z.string().trim().min(1).max(1024),
  langTag: z.string().trim().min(2).max(64).describe('BCP 47: eng, en, en-US, zh-Hans'),
  fields: z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional(),
});

export const TermSuggestionInputSchema = z.object({
  'dictionary-id': z.number().int().describe('the dictionary the suggestion goes into'),
  'section-oid': OidSchema.optional().describe('its section; default: the first the caller may create in'),
  conceptFields: z
    .record(z.string(), z.union([z.string(), z.array(z.string())]))
    .optional()
    .describe('keys: field oid, field name or TBX data category'),
  terms: z.array(TermSuggestionSchema).min(1).max(100),
});
export type TermSuggestionInput = z.infer<typeof TermSuggestionInputSchema>;
