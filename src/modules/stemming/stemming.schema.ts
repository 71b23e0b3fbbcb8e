import { z } from 'zod';
import { MAX_ID } from '../../shared/ids.js';

/** Stemming: the languages PostgreSQL's Snowball covers, analysis of a text, per-dictionary settings. */
const LangCodeSchema = z
  .string()
  .trim()
  .min(2)
  .max(64)
  .describe(
    'ISO 639 in two or three letters, any case, B or T form (en, ENG, ger), read as the three-letter code (eng, deu), or a custom language of the dictionary; anything else is 400',
  );

export const StemmingLanguageSchema = z.object({
  algorithm: z.string().describe('Snowball algorithm (english, german...)'),
  langCodes: z.array(z.string()).describe('language codes stemmed with it (ISO 639-1 and 639-2)'),
});

export const StemmingLanguagesSchema = z.object({
  engine: z.literal('postgresql-snowball'),
  engineVersion: z.string().describe('the PostgreSQL server version whose Snowball stemmers are used'),
  languages: z.array(StemmingLanguageSchema),
});
export type StemmingLanguages = z.infer<typeof StemmingLanguagesSchema>;

export const AnalyzeInputSchema = z.object({
  langCode: LangCodeSchema,
  text: z.string().max(20_000),
  dictionaryId: z
    .number()
    .int()
    .min(-MAX_ID)
    .max(MAX_ID)
    .optional()
    .describe("stem under this dictionary's settings for the language (protected words, overrides)"),
});
export type AnalyzeInput = z.infer<typeof AnalyzeInputSchema>;

export const AnalyzedTokenSchema = z.object({
  surface: z.string(),
  start: z.number().int().describe('UTF-16 offset in text'),
  end: z.number().int().describe('UTF-16 offset in text, exclusive'),
  folded: z.string().describe('case and accents folded (Á = a, ß = ss)'),
  stem: z.string().describe('stem key: folded stems of the words, joined by one space'),
});

export const AnalyzeResponseSchema = z.object({
  langCode: z.string(),
  algorithm: z.string().nullable().describe('null: no stemming for this language (keys are folded words)'),
  tokens: z.array(AnalyzedTokenSchema),
});
export type AnalyzeResponse = z.infer<typeof AnalyzeResponseSchema>;

const WordSchema = z.string().trim().min(1).max(200);

export const StemmingSettingSchema = z.object({
  langCode: LangCodeSchema,
  algorithm: z
    .string()
    .trim()
    .max(64)
    .nullable()
    .describe(
      "a Snowball algorithm, 'none' (no stemming: keys are folded words), or null for the language's default",
    ),
  protectedWords: z.array(WordSchema).max(2000).describe('words kept as they are (compared folded)'),
  overrides: z
    .record(WordSchema, WordSchema)
    .describe('word -> the word it stands for, stemmed in its place (e.g. mice -> mouse); compared folded'),
  acronymCase: z
    .enum(['exact', 'fold'])
    .describe(
      'exact (default): a term in capitals (IT, AIDS) matches only text in capitals in decoration; fold: any case',
    ),
  version: z.number().int().describe('raised on every change'),
});
export type StemmingSetting = z.infer<typeof StemmingSettingSchema>;

export const StemmingSettingsInputSchema = z.object({
  id: z.number().int().min(-MAX_ID).max(MAX_ID).describe('dictionary id'),
  langCode: LangCodeSchema,
  algorithm: StemmingSettingSchema.shape.algorithm.optional(),
  protectedWords: StemmingSettingSchema.shape.protectedWords.optional(),
  overrides: StemmingSettingSchema.shape.overrides
    .refine((map) => Object.keys(map).length <= 2000, 'at most 2000 overrides')
    .optional(),
  acronymCase: StemmingSettingSchema.shape.acronymCase.optional(),
});
export type StemmingSettingsInput = z.infer<typeof StemmingSettingsInputSchema>;
