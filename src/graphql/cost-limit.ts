/**
 * Measures each operation against QUERY_LIMITS (src/graphql/cost.ts) once, after validation and before
 * execution: no resolver, no authentication and no statement runs for an operation over a limit, and the
 * answer is one error, HTTP 400 BAD_REQUEST. Pothos' own check ran in every root field's resolver, so a
 * document of 499 aliases answered 499 copies of the error with status 200, and only after the first
 * root fields had taken their turn on the pool.
 *
 * Not a validation rule: yoga caches validation results per document, and the cost depends on the
 * variables (`first: $n`).
 */
import { complexityFromQuery } from '@pothos/plugin-complexity';
import { type DocumentNode, getOperationAST, Kind } from 'graphql';
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import type { GraphQLContext } from './builder.js';
import { QUERY_LIMITS } from './cost.js';

export interface OperationCost {
  complexity: number;
  depth: number;
  breadth: number;
}

/** The measure of the operation a request runs, or null when execution will refuse it anyway. */
export function operationCost(args: {
  document: DocumentNode;
  operationName?: string | null;
  variableValues?: Record<string, unknown> | null;
  schema: Parameters<typeof complexityFromQuery>[1]['schema'];
  contextValue?: unknown;
}): OperationCost | null {
  const operation = getOperationAST(args.document, args.operationName);
  if (!operation) return null;
  // Only the operation that runs, with the fragments it may spread.
  const document: DocumentNode = {
    kind: Kind.DOCUMENT,
    definitions: [
      operation,
      ...args.document.definitions.filter((definition) => definition.kind === Kind.FRAGMENT_DEFINITION),
    ],
  };
  try {
    return complexityFromQuery(document, {
      schema: args.schema,
      variables: args.variableValues ?? {},
      ctx: args.contextValue ?? {},
    });
  } catch {
    // Variables that do not fit their types: execution answers that BAD_REQUEST itself.
    return null;
  }
}

/** Why an operation of this measure is refused, or null. Depth first: a deep document is also costly. */
export function overLimit(cost: OperationCost): string | null {
  if (cost.depth > QUERY_LIMITS.depth) {
    return `Query too deep: it nests ${cost.depth} levels, at most ${QUERY_LIMITS.depth} are allowed`;
  }
  if (cost.breadth > QUERY_LIMITS.breadth) {
    return `Query too broad: it selects ${cost.breadth} fields, at most ${QUERY_LIMITS.breadth} are allowed`;
  }
  if (cost.complexity > QUERY_LIMITS.complexity) {
    return (
      `Query too complex: its estimated cost is ${cost.complexity}, at most ${QUERY_LIMITS.complexity} is ` +
      'allowed (ask for fewer items, fewer aliases, a smaller depth or fewer nested lists)'
    );
  }
  return null;
}

/** Refuses an operation over a limit with HTTP 400 and one BAD_REQUEST error, before it executes. */
export const limitOperationCost: Plugin<GraphQLContext> = {
  onExecute({ args, setResultAndStopExecution }) {
    const cost = operationCost(args);
    const refusal = cost && overLimit(cost);
    if (!refusal) return;
    setResultAndStopExecution({
      errors: [createGraphQLError(refusal, { extensions: { code: 'BAD_REQUEST', http: { status: 400 } } })],
    });
  },
};
