/**
 * Term search over GraphQL: the same procedure as POST /api/v4/terms/search, with each entry's concept
 * reachable through the concepts' per-request loader (one batch for the whole page).
 */
import { builder } from '../../graphql/builder.js';
import { loading, PAGE_CONTENT_COST, pageItems } from '../../graphql/cost.js';
import { ConceptRef, loadConcept } from '../concept/concept.graphql.js';
import { SearchModes } from '../search-settings/search-settings.schema.js';
import type { TermListEntry, TermSearchInput, TermSearchResponse } from './search.schema.js';

const SearchModeEnum = builder.enumType('SearchMode', { values: SearchModes });

const SearchOptionsInput = builder.inputType('SearchOptionsInput', {
  description: 'How `name` is matched (docs/search.md); absent members come from the search settings.',
  fields: (t) => ({
    normalized: t.boolean({ required: false, description: 'fold case and accents' }),
    fuzzy: t.boolean({ required: false, description: 'also names within `fuzziness` edits' }),
    fuzziness: t.int({ required: false, description: '1 or 2' }),
    mode: t.field({ type: SearchModeEnum, required: false }),
    stemmed: t.boolean({ required: false, description: "also terms whose stem key is the text's" }),
    multiEnabled: t.boolean({ required: false, description: 'also search the values of `fields`' }),
    multiAllFields: t.boolean({ required: false, description: 'also search the values of every field' }),
    fields: t.stringList({ required: false, description: 'field oids for multiEnabled' }),
  }),
});

const TermSearchInputRef = builder.inputType('TermSearchInput', {
  description: 'The members of POST /api/v4/terms/search.',
  fields: (t) => ({
    dictionaryIds: t.intList({ required: true }),
    langCode: t.string({ required: true }),
    regionCode: t.string({ required: false }),
    scriptCode: t.string({ required: false }),
    sectionOids: t.stringList({
      required: true,
      description: 'required, may be empty: then the search settings sections, else every readable section',
    }),
    domainOids: t.stringList({ required: false }),
    filterId: t.int({ required: false }),
    quickFilter: t.field({ type: 'JSON', required: false, description: 'criteria of a temporary filter' }),
    name: t.string({ required: false }),
    pageSize: t.int({ required: false }),
    termOid: t.string({ required: false }),
    bidirectional: t.boolean({ required: false }),
    searchAfter: t.string({ required: false }),
    searchBefore: t.string({ required: false }),
    reverse: t.boolean({ required: false }),
    searchOptions: t.field({ type: SearchOptionsInput, required: false }),
    workflowStates: t.stringList({
      required: false,
      description:
        'only entries in these workflow states (keys of the enabled workflows; unknown keys are an error); dictionaries without an enabled workflow are then left out',
    }),
  }),
});

const TermListEntryRef = builder.objectRef<TermListEntry>('TermListEntry').implement({
  description: 'A term found by search.',
  fields: (t) => ({
    id: t.exposeInt('id'),
    name: t.exposeString('name'),
    dictionaryId: t.exposeInt('dictionaryId'),
    termId: t.exposeInt('termId', { description: 'tid: serial number in the dictionary' }),
    conceptId: t.exposeInt('conceptId'),
    conceptOid: t.exposeString('conceptOid', { nullable: true }),
    langCode: t.exposeString('langCode'),
    regionCode: t.exposeString('regionCode', { nullable: true }),
    scriptCode: t.exposeString('scriptCode', { nullable: true }),
    filterId: t.exposeInt('filterId', {
      nullable: true,
      description: 'deprecated: the filter applied, if any',
    }),
    style: t.exposeString('style', {
      description: "HTML style attribute: the workflow state's style (docs/workflows.md); empty without one",
    }),
    disabled: t.exposeBoolean('disabled', {
      description: 'read-only for the caller: no TERM_UPDATE for it, or a read-only workflow state',
    }),
    hidden: t.exposeBoolean('hidden', { description: 'always false: hidden terms are not listed' }),
    concept: t.field({
      type: ConceptRef,
      nullable: true,
      complexity: 2,
      description: 'The whole concept (all languages); loaded for the page in one batch.',
      resolve: (entry, _, context) => loadConcept(context, entry.conceptId),
    }),
  }),
});

const TermSearchResultRef = builder.objectRef<TermSearchResponse>('TermSearchResult').implement({
  fields: (t) => ({
    total: t.exposeInt('total', { description: 'matches in all; -1 when unknown' }),
    pageSize: t.exposeInt('pageSize'),
    searchAfter: t.exposeString('searchAfter', { nullable: true, description: 'cursor of the next page' }),
    searchBefore: t.exposeString('searchBefore', {
      nullable: true,
      description: 'cursor of the previous page',
    }),
    message: t.exposeString('message', { nullable: true }),
    results: t.field({
      type: [TermListEntryRef],
      // searchTerms counts each result already.
      complexity: PAGE_CONTENT_COST,
      resolve: (response) => response.results,
    }),
  }),
});

builder.queryFields((t) => ({
  searchTerms: t.field({
    type: TermSearchResultRef,
    description: 'Term search, as POST /api/v4/terms/search.',
    // A page of results (the search settings' page size when none is given, 20 by default).
    complexity: (args, context) => loading(pageItems(args.input.pageSize, context)),
    args: { input: t.arg({ type: TermSearchInputRef, required: true }) },
    resolve: (_, args, context) => context.api.terms.search(args.input as TermSearchInput),
  }),
}));
