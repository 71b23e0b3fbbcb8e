/**
 * The cost estimate of a GraphQL operation (docs/clients.md, "GraphQL: paging and limits"), measured on its
 * shape and variables before anything runs. A field costs 1, and what is selected under a field is counted
 * once per item the field may hold: a page or list counts its page size (its `size`, `first` or `pageSize`
 * argument, or the default page), so nested lists multiply and every alias of a list field counts in full.
 * 16 documents of 499 aliases of `dictionaries { totalElements }` were each within the 1,000-field limit,
 * yet ran 499 page loads of 20 dictionaries apiece and took the database pool (issue 37); each now costs
 * 60 and the document 29,940, over QUERY_LIMITS.complexity (20,000).
 */
import type { GraphQLContext } from './builder.js';

/** Limits of one operation (the SDL's Query description repeats them). */
export const QUERY_LIMITS = { depth: 12, complexity: 20_000, breadth: 1_000 } as const;

/** Loading an object from the database costs more than reading a member of one already in memory. */
export const LOAD_COST = 2;

/** The page a list call answers when no size is given (src/shared/paging.ts). */
export const DEFAULT_PAGE_ITEMS = 20;

/** What a list without any size argument (workflows, roles, an inbox) is counted as holding. */
export const UNSIZED_LIST_ITEMS = 20;

/** The items a page may hold: the size asked for, or the default, at most what the server answers. */
export function pageItems(
  size: number | null | undefined,
  context: GraphQLContext,
  fallback = DEFAULT_PAGE_ITEMS,
) {
  const cap = context.request?.config.MAX_PAGE_SIZE ?? Number.POSITIVE_INFINITY;
  return Math.min(Math.max(size ?? fallback, 1), cap);
}

/** A field that loads `items` objects: LOAD_COST each, and what is selected of each, once per item. */
export const loading = (items: number) => ({ field: LOAD_COST * items, multiplier: items });

/** Complexity of a root field answering a Page (dictionaries, users, clients, groups) by its `size`. */
export const pageCost = (args: { size?: number | null }, context: GraphQLContext) =>
  loading(pageItems(args.size, context));

/** Complexity of a root field answering a list without a size argument. */
export const unsizedListCost = () => loading(UNSIZED_LIST_ITEMS);

/**
 * A list member of an object already in memory (a dictionary's languages, fields, sections and domain
 * tree; a concept's terms): each item counts its own selection once, as src/modules/concept/graphql/
 * complexity.ts has it. The lists that load (pages, related, history) are what multiply.
 */
export const IN_MEMORY_LIST_COST = { field: 1, multiplier: 1 };

/** A page's content: the page's own field already counts each item. */
export const PAGE_CONTENT_COST = { field: 1, multiplier: 1 };
