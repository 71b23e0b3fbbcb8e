import { z } from 'zod';

export const SearchModes = ['PREFIX', 'SUBSTRING', 'EXACT'] as const;

/**
 * A language of a dictionary: ISO 639 code, optionally with region and script (eng, eng-US, jpn-Hira); the
 * language is read by the one rule of language codes (search-settings-languages.ts).
 */
const LanguageCodeSchema = z
  .string()
  .trim()
  .max(32)
  .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a language code such as eng or eng-US')
  .describe(
    'language, optionally -region and -script (eng-US): ISO 639 in two or three letters, any case, B or T form (en, ENG, ger), read as the three-letter code (eng, deu), or a custom language of the client; anything else is 400',
  );

/** Every attribute a user may set; docs/search-settings.md explains each. */
export const searchSettingsShape = {
  defaultDictionaryIds: z
    .array(z.number().int().positive())
    .max(100)
    .describe('dictionaries preselected for search; empty: every readable dictionary'),
  sourceLanguage: LanguageCodeSchema.nullable().describe('language searched in; null: any'),
  targetLanguages: z.array(LanguageCodeSchema).max(100).describe('languages shown as translations'),
  searchMode: z
    .enum(SearchModes)
    .describe('PREFIX: terms starting with the text, SUBSTRING: containing it, EXACT: equal to it'),
  normalized: z.boolean().describe('ignore case and accents'),
  fuzzy: z.boolean().describe('also find terms within `fuzziness` edits of the text'),
  fuzziness: z.number().int().min(0).max(2).describe('edits a fuzzy match may differ by (0 to 2)'),
  pageSize: z.number().int().min(1).describe('results per page, 1 to MAX_PAGE_SIZE'),
  multiAllFields: z.boolean().describe('search the text in every field, not only in term names'),
  sectionOids: z
    .array(z.string().trim().min(1).max(64))
    .max(500)
    .describe('sections searched; empty: every readable section'),
  // result-columns: the web app's result table columns beyond the working languages (docs/ui.md).
  resultColumns: z
    .array(
      z
        .string()
        .trim()
        .regex(
          /^(dictionary|section|variant|concept|field:[^\s,<>"]{1,64})$/,
          'a column is dictionary, section, variant, concept or field:<field oid>',
        ),
    )
    .max(50)
    .describe(
      'result columns of the web app beyond the languages: dictionary, section, variant, concept, field:<oid>',
    ),
};
export type SettingName = keyof typeof searchSettingsShape;
export const SETTING_NAMES = Object.keys(searchSettingsShape) as SettingName[];

export const SearchSettingValuesSchema = z.object(searchSettingsShape);
export type SearchSettingValues = z.infer<typeof SearchSettingValuesSchema>;

export const SearchSettingsSchema = z.object({
  userId: z.number().int(),
  userOid: z.string().nullable().describe('oid of the user, for old clients; null for new users'),
  clientId: z.number().int(),
  version: z.number().int().describe('send it back with PUT'),
  ...searchSettingsShape,
});
export type SearchSettingsDto = z.infer<typeof SearchSettingsSchema>;

const userIdParam = z
  .number()
  .int()
  .optional()
  .describe("whose settings; default: the caller's (another user's: administrators only)");

export const SearchSettingsQuerySchema = z.object({ 'user-id': userIdParam });

const optionalShape = Object.fromEntries(
  Object.entries(searchSettingsShape).map(([name, schema]) => [name, schema.nullable().optional()]),
) as { [K in SettingName]: z.ZodOptional<z.ZodNullable<(typeof searchSettingsShape)[K]>> };

export const SearchSettingsUpdateInputSchema = z.object({
  'user-id': userIdParam,
  userId: z.number().int().optional().describe('as read; used when user-id is absent'),
  version: z.number().int().optional().describe('required; a missing or stale version answers 409'),
  ...optionalShape,
});
export type SearchSettingsUpdateInput = z.infer<typeof SearchSettingsUpdateInputSchema>;

export const SingleSettingInputSchema = z.object({
  'user-id': userIdParam,
  setting: z
    .string()
    .max(64)
    .describe(`one of ${SETTING_NAMES.join(', ')}`),
  values: z.array(z.string().max(256)).max(500).describe('the JSON array body'),
});
export type SingleSettingInput = z.infer<typeof SingleSettingInputSchema>;
