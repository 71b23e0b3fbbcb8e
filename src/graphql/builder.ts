import SchemaBuilder from '@pothos/core';
import ComplexityPlugin, { ComplexityErrorKind } from '@pothos/plugin-complexity';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import { TRPCError } from '@trpc/server';
import type { Context } from '../trpc/context.js';
import type { AppRouter } from '../trpc/router.js';

export type ApiCaller = ReturnType<AppRouter['createCaller']>;

/**
 * GraphQL context: the same request context as REST and tRPC, plus a server-side tRPC caller, so that
 * every resolver goes through the procedures' validation and permission tiers.
 */
export interface GraphQLContext {
  request: Context;
  api: ApiCaller;
}

export interface GraphQLTypes {
  Context: GraphQLContext;
  DefaultFieldNullability: false;
  Scalars: { JSON: { Input: unknown; Output: unknown } };
}

/**
 * Limits of one operation, measured on its shape before any resolver runs. A field costs 1; the selection
 * under a list counts twice unless the field says how many items it holds (`complexity` on fields that load
 * data, such as concepts(first) or related(depth)). The structure query's five-level domain tree fits.
 */
export const QUERY_LIMITS = { depth: 12, complexity: 20_000, breadth: 1_000 } as const;

/** Which limit each error kind is about, and what the caller is told. */
const limitErrors = {
  [ComplexityErrorKind.Depth]: {
    key: 'depth',
    message: (value: number, max: number) =>
      `Query too deep: it nests ${value} levels, at most ${max} are allowed`,
  },
  [ComplexityErrorKind.Complexity]: {
    key: 'complexity',
    message: (value: number, max: number) =>
      `Query too complex: its estimated cost is ${value}, at most ${max} is allowed (ask for fewer items, a smaller depth or fewer nested lists)`,
  },
  [ComplexityErrorKind.Breadth]: {
    key: 'breadth',
    message: (value: number, max: number) =>
      `Query too broad: it selects ${value} fields, at most ${max} are allowed`,
  },
} as const;

export const builder = new SchemaBuilder<GraphQLTypes>({
  plugins: [ComplexityPlugin, DataloaderPlugin],
  defaultFieldNullability: false,
  complexity: {
    defaultComplexity: 1,
    defaultListMultiplier: 2,
    limit: QUERY_LIMITS,
    // A TRPCError, so the error mask keeps the message and answers extensions.code BAD_REQUEST.
    complexityError: (kind, result) => {
      const { key, message } = limitErrors[kind];
      return new TRPCError({ code: 'BAD_REQUEST', message: message(result[key], QUERY_LIMITS[key]) });
    },
  },
});

builder.queryType({
  description:
    'Reads; every field needs the X-Auth-Token header (from the login mutation). Limits of one operation, ' +
    `checked before anything runs: depth ${QUERY_LIMITS.depth}, breadth ${QUERY_LIMITS.breadth} fields, ` +
    `estimated cost ${QUERY_LIMITS.complexity}. A field costs 1; a field that loads objects (a page of ` +
    'concepts, related, history, a relation end) costs per object it may load, times what is selected of ' +
    'each; members of a concept already loaded (terms, fields, comments) cost what they output. A page of ' +
    '200 concepts with their terms, fields and comments fits.',
});
builder.mutationType({ description: 'Writes; all but login need the X-Auth-Token header.' });

builder.scalarType('JSON', {
  description: 'Any JSON value (maps such as viewsMap and permission maps).',
  serialize: (value) => value,
  parseValue: (value) => value,
});

/** GraphQL leaves omitted arguments undefined and explicit nulls null; drop the undefined ones. */
export const defined = <T extends object>(value: T) =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
