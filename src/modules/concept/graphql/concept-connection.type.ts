/**
 * concepts(dictionaryId): a connection over the readable concepts of a dictionary, ordered by id, paged
 * by cursor (keyset: the next page starts after the last id, so inserts never shift it). What it loads
 * follows what is selected: totalCount costs a count only when asked for, and nodes asking for nothing
 * but id load no concept at all.
 */
import { TRPCError } from '@trpc/server';
import type { GraphQLResolveInfo } from 'graphql';
import { builder, type GraphQLContext } from '../../../graphql/builder.js';
import type { ConceptDto } from '../concept.schema.js';
import { CONCEPT_PAGE_MAX, conceptPageIds } from '../concept-list.js';
import { LOAD_COST } from './complexity.js';
import { conceptLoader } from './concept-loader.js';
import { ConceptRef } from './refs.js';
import { domainCall } from './request-state.js';

const DEFAULT_PAGE = 50;

interface ConceptPage {
  ids: number[];
  hasNextPage: boolean;
  count: () => Promise<number>;
}

/** True when the field's selection asks for the id only (fragments count as asking for more). */
export function selectsOnlyId(info: GraphQLResolveInfo): boolean {
  return info.fieldNodes.every((node) =>
    (node.selectionSet?.selections ?? []).every(
      (selection) =>
        selection.kind === 'Field' &&
        (selection.name.value === 'id' || selection.name.value === '__typename'),
    ),
  );
}

/** The readable concepts of ids, in order; with an id-only selection just their ids, loading nothing. */
export async function conceptsOf(
  context: GraphQLContext,
  info: GraphQLResolveInfo,
  ids: readonly number[],
): Promise<ConceptDto[]> {
  // The page's ids were read under the same access rules as a single read: nothing to render for `id`.
  if (selectsOnlyId(info)) return ids.map((id) => ({ id }) as ConceptDto);
  const loaded = await conceptLoader(context).loadMany(ids);
  const failure = loaded.find((entry) => entry instanceof Error);
  if (failure) throw failure;
  return loaded.filter((entry): entry is ConceptDto => entry !== null && !(entry instanceof Error));
}

const cursorOf = (id: number) => Buffer.from(`concept:${id}`).toString('base64url');
function idOfCursor(cursor: string): number {
  const match = /^concept:(\d{1,10})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match)
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'after is not a cursor of this connection' });
  return Number(match[1]);
}

const PageInfoRef = builder
  .objectRef<{ hasNextPage: boolean; endCursor: string | null }>('PageInfo')
  .implement({
    description: 'Where a page of a connection ends.',
    fields: (t) => ({
      hasNextPage: t.exposeBoolean('hasNextPage'),
      endCursor: t.exposeString('endCursor', {
        nullable: true,
        description: 'pass as `after` for the next page; null on an empty page',
      }),
    }),
  });

const ConceptConnectionRef = builder.objectRef<ConceptPage>('ConceptConnection').implement({
  description: 'One page of concepts, with what it takes to ask for the next one.',
  fields: (t) => ({
    totalCount: t.int({
      description: 'readable concepts over all pages (one count, run only when selected)',
      complexity: LOAD_COST,
      resolve: (page) => page.count(),
    }),
    nodes: t.field({
      type: [ConceptRef],
      description: 'the concepts of this page, ordered by id',
      // The page size is the connection's multiplier already.
      complexity: { field: 1, multiplier: 1 },
      resolve: (page, _, context, info) => conceptsOf(context, info, page.ids),
    }),
    pageInfo: t.field({
      type: PageInfoRef,
      resolve: (page) => ({
        hasNextPage: page.hasNextPage,
        endCursor: page.ids.length ? cursorOf(page.ids[page.ids.length - 1]!) : null,
      }),
    }),
  }),
});

builder.queryFields((t) => ({
  concepts: t.field({
    type: ConceptConnectionRef,
    description:
      `The live concepts of a dictionary (or one of its sections) the caller may read, ordered by id, ` +
      `${DEFAULT_PAGE} a page by default and at most ${CONCEPT_PAGE_MAX}; the next page starts \`after\` ` +
      `the previous page's pageInfo.endCursor. Cost: each concept of the page counts what is selected of it.`,
    args: {
      dictionaryId: t.arg.int({ required: true }),
      sectionOid: t.arg.string({ required: false }),
      first: t.arg.int({ defaultValue: DEFAULT_PAGE, description: `1 to ${CONCEPT_PAGE_MAX}` }),
      after: t.arg.string({ required: false, description: 'pageInfo.endCursor of the previous page' }),
    },
    complexity: (args) => ({
      field: LOAD_COST,
      multiplier: Math.min(Math.max(args.first ?? DEFAULT_PAGE, 1), CONCEPT_PAGE_MAX),
    }),
    resolve: async (_, args, context) => {
      const first = args.first ?? DEFAULT_PAGE;
      const afterId = args.after ? idOfCursor(args.after) : undefined;
      const page = await domainCall(context, (scope) =>
        conceptPageIds(scope, {
          dictionaryId: args.dictionaryId,
          sectionOid: args.sectionOid,
          first,
          offset: 0,
          ...(afterId === undefined ? {} : { afterId }),
          limit: first + 1,
        }),
      );
      return { ids: page.ids.slice(0, first), hasNextPage: page.ids.length > first, count: page.count };
    },
  }),
}));
