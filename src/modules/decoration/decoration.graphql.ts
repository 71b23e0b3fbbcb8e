/**
 * Term decoration and term check over GraphQL: the same procedures as POST /api/v4/term-decoration and
 * /api/v4/term-check (docs/decoration.md). Translations come as a list of (langCode, terms).
 */
import { builder } from '../../graphql/builder.js';
import type {
  DecorationInput,
  DecorationResponse,
  Match,
  MatchEntry,
  TermCheckInput,
  TermCheckResponse,
  TermRef,
} from './decoration.schema.js';

const TermRefRef = builder.objectRef<TermRef>('DecorationTermRef').implement({
  description: 'A term of a matched concept.',
  fields: (t) => ({
    termId: t.exposeInt('termId'),
    name: t.exposeString('name'),
    langCode: t.exposeString('langCode'),
    status: t.exposeString('status', { description: 'preferred, admitted, deprecated or forbidden' }),
  }),
});

const TranslationsRef = builder
  .objectRef<{ langCode: string; terms: TermRef[] }>('DecorationTranslations')
  .implement({
    fields: (t) => ({
      langCode: t.exposeString('langCode'),
      terms: t.field({ type: [TermRefRef], resolve: (group) => group.terms }),
    }),
  });

const EntryRef = builder.interfaceRef<MatchEntry>('DecorationEntry').implement({
  description: 'A concept whose term matches a text.',
  fields: (t) => ({
    conceptId: t.exposeInt('conceptId'),
    termId: t.exposeInt('termId'),
    dictionaryId: t.exposeInt('dictionaryId'),
    term: t.exposeString('term'),
    kind: t.exposeString('kind', { description: 'exact, case-folded, accent-folded, stemmed or fuzzy' }),
    score: t.exposeFloat('score'),
    status: t.exposeString('status'),
    preferred: t.field({ type: [TermRefRef], resolve: (entry) => entry.preferred }),
    translations: t.field({
      type: [TranslationsRef],
      resolve: (entry) =>
        Object.entries(entry.translations).map(([langCode, terms]) => ({ langCode, terms })),
    }),
  }),
});

const MatchEntryRef = builder.objectRef<MatchEntry>('DecorationHomonym').implement({
  description: 'Another concept whose term matches the same text.',
  interfaces: [EntryRef],
  fields: () => ({}),
});

const MatchRef = builder.objectRef<Match>('DecorationMatch').implement({
  description: 'A term found in a segment (offsets in UTF-16 units of the original segment).',
  interfaces: [EntryRef],
  fields: (t) => ({
    start: t.exposeInt('start'),
    end: t.exposeInt('end'),
    text: t.exposeString('text'),
    homonyms: t.field({ type: [MatchEntryRef], resolve: (match) => match.homonyms }),
  }),
});

type Segment = DecorationResponse['segments'][number];
const SegmentRef = builder.objectRef<Segment>('DecoratedSegment').implement({
  fields: (t) => ({
    id: t.exposeString('id'),
    matches: t.field({ type: [MatchRef], resolve: (segment) => segment.matches }),
    decorated: t.string({ nullable: true, resolve: (segment) => segment.decorated ?? null }),
  }),
});

const DecorationRef = builder.objectRef<DecorationResponse>('TermDecoration').implement({
  fields: (t) => ({
    sourceLang: t.exposeString('sourceLang'),
    dictionaryIds: t.exposeIntList('dictionaryIds'),
    segments: t.field({ type: [SegmentRef], resolve: (answer) => answer.segments }),
  }),
});

const SegmentInputRef = builder.inputType('DecorationSegmentInput', {
  fields: (t) => ({
    id: t.string({ required: false }),
    text: t.string({ required: true }),
    format: t.string({ required: false, description: 'text (default), html or xliff' }),
  }),
});

const DecorationInputRef = builder.inputType('TermDecorationInput', {
  description: 'The members of POST /api/v4/term-decoration.',
  fields: (t) => ({
    sourceLang: t.string({ required: true }),
    dictionaryIds: t.intList({ required: false }),
    targetLangs: t.stringList({ required: false }),
    segments: t.field({ type: [SegmentInputRef], required: true }),
    kinds: t.stringList({ required: false }),
    minScore: t.float({ required: false }),
    overlap: t.string({ required: false, description: 'longest (default) or all' }),
    output: t.string({ required: false, description: 'matches (default), html or xliff' }),
  }),
});

type Checked = TermCheckResponse['noEquivalent'][number];
const CheckedRef = builder.interfaceRef<Checked>('TermCheckMatch').implement({
  description: 'A term found by a term check.',
  fields: (t) => ({
    conceptId: t.exposeInt('conceptId'),
    termId: t.exposeInt('termId'),
    term: t.exposeString('term'),
    kind: t.exposeString('kind'),
    status: t.exposeString('status'),
    start: t.exposeInt('start'),
    end: t.exposeInt('end'),
    text: t.exposeString('text'),
  }),
});

const AvoidedRef = builder.objectRef<TermCheckResponse['avoided'][number]>('TermCheckAvoided').implement({
  interfaces: [CheckedRef],
  fields: (t) => ({
    segment: t.exposeString('segment', { description: 'source or target' }),
    replacements: t.field({ type: [TermRefRef], resolve: (item) => item.replacements }),
  }),
});
const MissingRef = builder
  .objectRef<TermCheckResponse['missingTranslations'][number]>('TermCheckMissing')
  .implement({
    interfaces: [CheckedRef],
    fields: (t) => ({
      expected: t.field({ type: [TermRefRef], resolve: (item) => item.expected }),
    }),
  });
const NoEquivalentRef = builder.objectRef<Checked>('TermCheckNoEquivalent').implement({
  interfaces: [CheckedRef],
  fields: () => ({}),
});

const TermCheckRef = builder.objectRef<TermCheckResponse>('TermCheck').implement({
  fields: (t) => ({
    avoided: t.field({ type: [AvoidedRef], resolve: (answer) => answer.avoided }),
    missingTranslations: t.field({ type: [MissingRef], resolve: (answer) => answer.missingTranslations }),
    noEquivalent: t.field({ type: [NoEquivalentRef], resolve: (answer) => answer.noEquivalent }),
  }),
});

const TermCheckInputRef = builder.inputType('TermCheckInput', {
  fields: (t) => ({
    sourceLang: t.string({ required: true }),
    targetLang: t.string({ required: true }),
    source: t.string({ required: true }),
    target: t.string({ required: true }),
    format: t.string({ required: false }),
    dictionaryIds: t.intList({ required: false }),
  }),
});

builder.queryFields((t) => ({
  termDecoration: t.field({
    type: DecorationRef,
    description: 'As POST /api/v4/term-decoration.',
    args: { input: t.arg({ type: DecorationInputRef, required: true }) },
    resolve: (_, args, context) => context.api.termDecoration.decorate(args.input as DecorationInput),
  }),
  termCheck: t.field({
    type: TermCheckRef,
    description: 'As POST /api/v4/term-check.',
    args: { input: t.arg({ type: TermCheckInputRef, required: true }) },
    resolve: (_, args, context) => context.api.termDecoration.check(args.input as TermCheckInput),
  }),
}));
