import SchemaBuilder from '@pothos/core';
import ComplexityPlugin from '@pothos/plugin-complexity';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import type { Context } from '../trpc/context.js';
import type { AppRouter } from '../trpc/router.js';
import { QUERY_LIMITS } from './cost.js';

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
  Scalars: { JSON: { Input: unknown; Output: unknown }; File: { Input: File; Output: never } };
}

export const builder = new SchemaBuilder<GraphQLTypes>({
  plugins: [ComplexityPlugin, DataloaderPlugin],
  defaultFieldNullability: false,
  // The estimates only: src/graphql/cost-limit.ts measures each operation against QUERY_LIMITS once,
  // before it runs, rather than the plugin in every root field's resolver.
  complexity: { defaultComplexity: 1, defaultListMultiplier: 2 },
});

builder.queryType({
  description:
    'Reads; every field needs the X-Auth-Token header (from the login mutation). Limits of one operation, ' +
    `checked before anything runs (400 BAD_REQUEST over them): depth ${QUERY_LIMITS.depth}, breadth ` +
    `${QUERY_LIMITS.breadth} fields, estimated cost ${QUERY_LIMITS.complexity}. A field costs 1; a field that ` +
    'loads objects (a page of dictionaries, users, clients, groups or concepts, a list of workflows, search ' +
    'results, related, history, a relation end) costs per object it may load (its size, first or pageSize, ' +
    'else the default page of 20), times what is selected of each, so nested lists multiply and each alias ' +
    'counts in full; members of a concept already loaded (terms, fields, comments) cost what they output. ' +
    'A page of 200 concepts with their terms, fields and comments fits.',
});
builder.mutationType({ description: 'Writes; all but login need the X-Auth-Token header.' });

builder.scalarType('JSON', {
  description: 'Any JSON value (maps such as viewsMap and permission maps).',
  serialize: (value) => value,
  parseValue: (value) => value,
});

builder.scalarType('File', {
  description:
    'An uploaded file, sent as the GraphQL multipart request specification says (multipart/form-data with ' +
    'operations, map and the file); input only.',
  serialize: () => {
    throw new Error('File is an input type only');
  },
  // Yoga's Fetch API ponyfill makes the file: a File by its methods, not by the global class.
  parseValue: (value) => {
    const file = value as Partial<File> | null;
    if (typeof file?.arrayBuffer !== 'function' || typeof file.size !== 'number') {
      throw new Error('Send the file as a multipart upload');
    }
    return value as File;
  },
});

/** GraphQL leaves omitted arguments undefined and explicit nulls null; drop the undefined ones. */
export const defined = <T extends object>(value: T) =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
