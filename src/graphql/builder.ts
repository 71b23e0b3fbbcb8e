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

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  DefaultFieldNullability: false;
}>({
  plugins: [DataloaderPlugin],
  defaultFieldNullability: false,
});

builder.queryType({ description: 'Reads; every field but features needs the X-Auth-Token header.' });
builder.mutationType({ description: 'Writes; need the X-Auth-Token header.' });
