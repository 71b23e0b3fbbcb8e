import { z } from 'zod';
import { MAX_ID } from '../../shared/ids.js';
import { TERM_STATUSES } from './term-status.js';

/** Term decoration and term check requests and answers (docs/decoration.md). */
const LangSchema = z.string().trim().min(2).max(64);

export const MATCH_KINDS = ['exact', 'case-folded', 'accent-folded', 'stemmed', 'fuzzy'] as const;
/** The kinds a request gets when it names none: fuzzy matches only on request (pump would meet pumpkin). */
export const DEFAULT_KINDS = ['exact', 'case-folded', 'accent-folded', 'stemmed'] as const;
export type MatchKind = (typeof MATCH_KINDS)[number];

export const SegmentInputSchema = z.object({
  id: z.string().max(200).optional().describe('echoed in the answer; default: the index'),
  text: z.string().describe('plain text, HTML or XLIFF 2 inline content, as `format` says'),
  format: z.enum(['text', 'html', 'xliff']).optional().describe('default: text'),
});

export const DecorationInputSchema = z.object({
  sourceLang: LangSchema.describe(
    'language of the segments: ISO 639 in two or three letters, any case, B or T form (en, ENG, ger), read as the three-letter code (eng, deu), or a custom language of the dictionaries',
  ),
  dictionaryIds: z
    .array(z.number().int().min(-MAX_ID).max(MAX_ID))
    .max(100)
    .optional()
    .describe('default: every dictionary the caller may read'),
  targetLangs: z
    .array(LangSchema)
    .max(50)
    .optional()
    .describe(
      'translations of the matched concepts in these: ISO 639 in two or three letters, any case, B or T form (en, ENG, ger), read as the three-letter code (eng, deu), or custom languages of the dictionaries; anything else is 400',
    ),
  segments: z
    .array(SegmentInputSchema)
    .min(1)
    .describe('at most DECORATION_MAX_SEGMENTS (100) segments and 64 KB of text per call, else 413'),
  kinds: z.array(z.enum(MATCH_KINDS)).min(1).optional().describe('match kinds wanted; default: all'),
  minScore: z.number().min(0).max(1).optional().describe('leave out matches scoring less; default 0'),
  overlap: z
    .enum(['longest', 'all'])
    .optional()
    .describe('longest (default): longest-leftmost matches that do not overlap; all: every match'),
  output: z
    .enum(['matches', 'html', 'xliff'])
    .optional()
    .describe(
      'matches (default); html or xliff also answer each segment decorated (spans or <mrk type="term">)',
    ),
});
export type DecorationInput = z.infer<typeof DecorationInputSchema>;

export const TermRefSchema = z.object({
  termId: z.number().int(),
  name: z.string(),
  langCode: z.string(),
  status: z.enum(TERM_STATUSES),
});
export type TermRef = z.infer<typeof TermRefSchema>;

export const MatchEntrySchema = z.object({
  conceptId: z.number().int(),
  termId: z.number().int(),
  dictionaryId: z.number().int(),
  term: z.string().describe('the matched term as stored'),
  kind: z.enum(MATCH_KINDS),
  score: z.number().describe('1 exact, 0.95 case-folded, 0.9 accent-folded, 0.6-0.8 stemmed, 0.4-0.6 fuzzy'),
  status: z.enum(TERM_STATUSES).describe('from the usage status (docs/decoration.md)'),
  preferred: z
    .array(TermRefSchema)
    .describe("the concept's preferred terms in the source language when this one is not preferred"),
  translations: z
    .record(z.string(), z.array(TermRefSchema))
    .describe('per target language: the terms of the concept, preferred first'),
});
export type MatchEntry = z.infer<typeof MatchEntrySchema>;

export const MatchSchema = MatchEntrySchema.extend({
  start: z.number().int().describe('UTF-16 offset in the original segment'),
  end: z.number().int().describe('UTF-16 offset in the original segment, exclusive'),
  text: z.string().describe('the matched text of the segment (without markup)'),
  homonyms: z.array(MatchEntrySchema).describe('other concepts whose terms match the same text'),
});
export type Match = z.infer<typeof MatchSchema>;

export const DecoratedSegmentSchema = z.object({
  id: z.string(),
  matches: z.array(MatchSchema),
  decorated: z.string().optional().describe('with output html or xliff: the segment with its matches marked'),
});

export const DecorationResponseSchema = z.object({
  sourceLang: z.string(),
  dictionaryIds: z.array(z.number().int()),
  segments: z.array(DecoratedSegmentSchema),
});
export type DecorationResponse = z.infer<typeof DecorationResponseSchema>;

export const TermCheckInputSchema = z.object({
  sourceLang: LangSchema,
  targetLang: LangSchema,
  source: z.string().describe('the source segment'),
  target: z.string().describe('its translation'),
  format: z.enum(['text', 'html', 'xliff']).optional(),
  dictionaryIds: DecorationInputSchema.shape.dictionaryIds,
});
export type TermCheckInput = z.infer<typeof TermCheckInputSchema>;

const CheckedMatchSchema = MatchSchema.omit({ homonyms: true, translations: true });

export const TermCheckResponseSchema = z.object({
  avoided: z
    .array(
      CheckedMatchSchema.extend({
        segment: z.enum(['source', 'target']),
        replacements: z.array(TermRefSchema).describe('preferred, then admitted terms of the concept'),
      }),
    )
    .describe('forbidden and deprecated terms used'),
  missingTranslations: z
    .array(CheckedMatchSchema.extend({ expected: z.array(TermRefSchema) }))
    .describe(
      'source terms whose approved (preferred or admitted) translations are all absent from the target',
    ),
  noEquivalent: z
    .array(CheckedMatchSchema)
    .describe('source terms whose concept has no term in the target language'),
});
export type TermCheckResponse = z.infer<typeof TermCheckResponseSchema>;
