/**
 * Stemming over GraphQL: the same procedures as /api/v4/stemming and /api/v4/dictionaries/{id}/stemming
 * (docs/decoration.md).
 */
import { builder } from '../../graphql/builder.js';
import { unsizedListCost } from '../../graphql/cost.js';
import type { AnalyzeInput, AnalyzeResponse, StemmingLanguages, StemmingSetting } from './stemming.schema.js';

type Language = StemmingLanguages['languages'][number];
type Token = AnalyzeResponse['tokens'][number];

const StemmingLanguageRef = builder.objectRef<Language>('StemmingLanguage').implement({
  description: 'A Snowball stemmer of PostgreSQL and the language codes it stems.',
  fields: (t) => ({
    algorithm: t.exposeString('algorithm'),
    langCodes: t.exposeStringList('langCodes'),
  }),
});

const StemmingLanguagesRef = builder.objectRef<StemmingLanguages>('StemmingLanguages').implement({
  fields: (t) => ({
    engine: t.exposeString('engine'),
    engineVersion: t.exposeString('engineVersion'),
    languages: t.field({ type: [StemmingLanguageRef], resolve: (answer) => answer.languages }),
  }),
});

const AnalyzedTokenRef = builder.objectRef<Token>('AnalyzedToken').implement({
  description: 'A word of an analyzed text (offsets in UTF-16 units).',
  fields: (t) => ({
    surface: t.exposeString('surface'),
    start: t.exposeInt('start'),
    end: t.exposeInt('end'),
    folded: t.exposeString('folded'),
    stem: t.exposeString('stem'),
  }),
});

const AnalyzeResultRef = builder.objectRef<AnalyzeResponse>('AnalyzeResult').implement({
  fields: (t) => ({
    langCode: t.exposeString('langCode'),
    algorithm: t.exposeString('algorithm', { nullable: true }),
    tokens: t.field({ type: [AnalyzedTokenRef], resolve: (answer) => answer.tokens }),
  }),
});

const StemmingSettingRef = builder.objectRef<StemmingSetting>('StemmingSetting').implement({
  description: "A dictionary's stemming of one language.",
  fields: (t) => ({
    langCode: t.exposeString('langCode'),
    algorithm: t.exposeString('algorithm', {
      nullable: true,
      description: "'none', an algorithm, or null: the default",
    }),
    protectedWords: t.exposeStringList('protectedWords'),
    acronymCase: t.exposeString('acronymCase', {
      description: 'exact: a term in capitals matches only text in capitals; fold: any case',
    }),
    overrides: t.field({
      type: 'JSON',
      description: 'word -> the word it stands for',
      resolve: (s) => s.overrides,
    }),
    version: t.exposeInt('version'),
  }),
});

const AnalyzeInputRef = builder.inputType('AnalyzeInput', {
  fields: (t) => ({
    langCode: t.string({ required: true }),
    text: t.string({ required: true }),
    dictionaryId: t.int({ required: false }),
  }),
});

const StemmingSettingInputRef = builder.inputType('StemmingSettingInput', {
  fields: (t) => ({
    id: t.int({ required: true, description: 'dictionary id' }),
    langCode: t.string({ required: true }),
    algorithm: t.string({ required: false }),
    protectedWords: t.stringList({ required: false }),
    acronymCase: t.string({ required: false, description: 'exact (default) or fold' }),
    overrides: t.field({ type: 'JSON', required: false, description: 'word -> the word it stands for' }),
  }),
});

const StemmingRebuildRef = builder
  .objectRef<{ result?: unknown; jobTaskId?: number }>('StemmingRebuild')
  .implement({
    description: 'The terms whose key changed, or the job still rebuilding them.',
    fields: (t) => ({
      changedTerms: t.int({
        nullable: true,
        resolve: (answer) => (typeof answer.result === 'number' ? answer.result : null),
      }),
      jobTaskId: t.int({ nullable: true, resolve: (answer) => answer.jobTaskId ?? null }),
    }),
  });

builder.queryFields((t) => ({
  stemmingLanguages: t.field({
    type: StemmingLanguagesRef,
    description: 'As GET /api/v4/stemming/languages.',
    resolve: (_, __, context) => context.api.stemming.languages(),
  }),
  analyzeText: t.field({
    type: AnalyzeResultRef,
    description: 'As POST /api/v4/stemming/analyze.',
    args: { input: t.arg({ type: AnalyzeInputRef, required: true }) },
    resolve: (_, args, context) => context.api.stemming.analyze(args.input as AnalyzeInput),
  }),
  dictionaryStemming: t.field({
    type: [StemmingSettingRef],
    description: 'As GET /api/v4/dictionaries/{id}/stemming.',
    complexity: unsizedListCost,
    args: { id: t.arg.int({ required: true }) },
    resolve: (_, args, context) => context.api.stemming.settings({ id: args.id }),
  }),
}));

builder.mutationFields((t) => ({
  setDictionaryStemming: t.field({
    type: StemmingRebuildRef,
    description: 'As PUT /api/v4/dictionaries/{id}/stemming.',
    args: { input: t.arg({ type: StemmingSettingInputRef, required: true }) },
    resolve: (_, args, context) =>
      context.api.stemming.putSettings(args.input as Parameters<typeof context.api.stemming.putSettings>[0]),
  }),
  rebuildDictionaryStemming: t.field({
    type: StemmingRebuildRef,
    description:
      'As POST /api/v4/dictionaries/{id}/stemming/rebuild: every stem key of the dictionary again.',
    args: { id: t.arg.int({ required: true }) },
    resolve: (_, args, context) => context.api.stemming.rebuild({ id: args.id }),
  }),
}));
