/**
 * The types a tRPC client needs, and nothing else: the entry point of the declaration package
 * (packages/trpc-types, docs/clients.md). Type-only: it adds no code to the server.
 */
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from './router.js';

export type { AppRouter };
/** Inputs of every procedure, e.g. RouterInputs['concepts']['get']. */
export type RouterInputs = inferRouterInputs<AppRouter>;
/** Outputs of every procedure, e.g. RouterOutputs['concepts']['get']. */
export type RouterOutputs = inferRouterOutputs<AppRouter>;
