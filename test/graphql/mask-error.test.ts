/**
 * What GraphQL callers see of a failure, and what the log keeps: procedure errors keep their code,
 * anything unexpected is masked for the caller and logged with its cause (REST logs its 500s alike).
 */
import { TRPCError } from '@trpc/server';
import { createGraphQLError } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { maskErrorWith } from '../../src/graphql/yoga.js';

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
