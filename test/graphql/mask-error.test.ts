/**
 * What GraphQL callers see of a failure, and what the log keeps: procedure errors keep their code,
 * anything unexpected is masked for the caller and logged with its cause (REST logs its 500s alike).
 */
import { TRPCError } from '@trpc/server';
import { createGraphQLError, createSchema, createYoga } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { maskErrorWith, yogaLogging } from '../../src/graphql/yoga.js';

function recordingLog() {
  const lines: { fields: Record<string, unknown>; message: string }[] = [];
  return {
    lines,
    log: {
      error: (fields: Record<string, unknown>, message: string) => {
        lines.push({ fields, message });
      },
    } as never,
  };
}

const fromResolver = (original: Error, path: string[]) =>
  createGraphQLError(original.message, { originalError: original, path });

describe('maskErrorWith', () => {
  it('masks an unexpected error for the caller and logs it with its path', () => {
    const { lines, log } = recordingLog();
    const cause = new Error('relation "concept_histroy" does not exist');
    const masked = maskErrorWith(log)(fromResolver(cause, ['concepts', '0', 'history']));
    expect(masked.message).toBe('Internal server error');
    expect(JSON.stringify(masked)).not.toContain('concept_histroy');
    expect(lines).toEqual([
      { fields: { err: cause, path: 'concepts.0.history' }, message: 'GraphQL resolver failed' },
    ]);
  });

  it('keeps the code of a procedure error and logs nothing', () => {
    const { lines, log } = recordingLog();
    const forbidden = new TRPCError({ code: 'FORBIDDEN', message: 'You may not view the history' });
    const shown = maskErrorWith(log)(fromResolver(forbidden, ['concept', 'history'])) as unknown as {
      message: string;
      extensions: { code: string };
      path: string[];
    };
    expect([shown.message, shown.extensions.code, shown.path]).toEqual([
      'You may not view the history',
      'FORBIDDEN',
      ['concept', 'history'],
    ]);
    expect(lines).toEqual([]);
  });
});

describe('GraphQL error logging through graphql-yoga', () => {
  /** Every log line by level, from both maskErrorWith and yoga's own logger. */
  function levelLog() {
    const lines: { level: string; message: string }[] = [];
    const at = (level: string) => (_fields: unknown, message: string) => {
      lines.push({ level, message });
    };
    return { lines, log: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } };
  }

  it('logs an unexpected failure once at error level, and an expected one not at all', async () => {
    const { lines, log } = levelLog();
    const yoga = createYoga({
      schema: createSchema({
        typeDefs: 'type Query { missing: Int, broken: Int }',
        resolvers: {
          Query: {
            missing: () => {
              throw new TRPCError({ code: 'NOT_FOUND', message: 'No such concept' });
            },
            broken: () => {
              throw new Error('connection reset');
            },
          },
        },
      }),
      maskedErrors: { maskError: maskErrorWith(log as never) },
      logging: yogaLogging(log as never),
    });
    const ask = async (query: string) => {
      const response = await yoga.fetch('http://localhost/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      });
      return (await response.json()) as { errors: { message: string; extensions: { code: string } }[] };
    };

    const missing = await ask('{ missing }');
    expect(missing.errors.map((error) => [error.message, error.extensions.code])).toEqual([
      ['No such concept', 'NOT_FOUND'],
    ]);
    expect(lines.filter((line) => line.level === 'error')).toEqual([]);

    const broken = await ask('{ broken }');
    expect(broken.errors.map((error) => error.message)).toEqual(['Internal server error']);
    expect(lines.filter((line) => line.level === 'error')).toEqual([
      { level: 'error', message: 'GraphQL resolver failed' },
    ]);
  });
});
