import SchemaBuilder from '@pothos/core';
import DataloaderPlugin from '@pothos/plugin-dataloader';
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

export const builder = new SchemaBuilder<GraphQLTypes>({
  plugins: [DataloaderPlugin],
  defaultFieldNullability: false,
});

builder.queryType({ description: 'Reads; every field but features needs the X-Auth-Token header.' });
builder.mutationType({ description: 'Writes; need the X-Auth-Token header.' });

builder.scalarType('JSON', {
  description: 'Any JSON value (maps such as viewsMap and permission maps).',
  serialize: (value) => value,
  parseValue: (value) => value,
});

/** GraphQL leaves omitted arguments undefined and explicit nulls null; drop the undefined ones. */
export const defined = <T extends object>(value: T) =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
