/**
 * Stemming, term decoration and term check through tRPC (/trpc, typed by AppRouter) and GraphQL
 * (/graphql): the same answers as REST, and the same refusals.
 */
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '../../src/trpc/router.js';
import { type Server, startServer } from '../concepts/concept-helpers.js';
import { concept, decorate, type Termbase, termbase } from './decoration-helpers.js';

describe('decoration and stemming on tRPC and GraphQL', () => {
  let server: Server;
  let base: Termbase;
  let trpc: ReturnType<typeof createTRPCClient<AppRouter>>;
  const graphql = async (query: string, variables: Record<string, unknown>) => {
    const response = await fetch(`${server.base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-auth-token': base.tenantAdmin.token ?? '' },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as {
      data?: Record<string, unknown>;
      errors?: { message: string; extensions?: { code?: string } }[];
    };
  };

  beforeAll(async () => {
    server = await startServer();
    base = await termbase(server);
    await concept(base, [
      { name: 'fuel pump', lang: 'eng', status: 'preferredTerm-admn-sts' },
      { name: 'petrol pump', lang: 'eng', status: 'deprecatedTerm-admn-sts' },
      { name: 'Kraftstoffpumpe', lang: 'deu' },
    ]);
    trpc = createTRPCClient<AppRouter>({
      links: [
        httpLink({ url: `${server.base}/trpc`, headers: { 'x-auth-token': base.tenantAdmin.token ?? '' } }),
      ],
    });
  }, 120_000);
  afterAll(() => server?.close());

  it('tRPC answers what REST answers', async () => {
    const input = {
      sourceLang: 'eng',
      targetLangs: ['deu'],
      segments: [{ text: 'Check the petrol pumps.' }],
      output: 'xliff' as const,
    };
    expect(await trpc.termDecoration.decorate.mutate(input)).toEqual(await decorate(base.admin, input));
    const languages = await trpc.stemming.languages.query();
    expect(languages.languages.some((l) => l.algorithm === 'german')).toBe(true);
    const analyzed = await trpc.stemming.analyze.mutate({ langCode: 'eng', text: 'pumps' });
    expect(analyzed.tokens[0]).toMatchObject({ surface: 'pumps', stem: 'pump' });
    const check = await trpc.termDecoration.check.mutate({
      sourceLang: 'eng',
      targetLang: 'deu',
      source: 'the petrol pump',
      target: 'die Pumpe',
    });
    expect(check.avoided.map((a) => a.term)).toEqual(['petrol pump']);
    expect(check.missingTranslations.map((m) => m.expected[0]!.name)).toEqual(['Kraftstoffpumpe']);
    const tooMany = await trpc.termDecoration.decorate
      .mutate({ sourceLang: 'eng', segments: Array.from({ length: 101 }, () => ({ text: 'x' })) })
      .catch((error: unknown) => error);
    expect(tooMany).toBeInstanceOf(TRPCClientError);
    expect((tooMany as TRPCClientError<AppRouter>).data?.httpStatus).toBe(413);
  });

  it('GraphQL answers matches with translations and homonyms, stemming and term check', async () => {
    const answer = await graphql(
      `query ($input: TermDecorationInput!) {
        termDecoration(input: $input) {
          segments { id decorated matches { start end text term kind status
            preferred { name } translations { langCode terms { name } } homonyms { conceptId } } }
        }
        stemmingLanguages { engine languages { algorithm langCodes } }
        analyzeText(input: { langCode: "eng", text: "pumps" }) { tokens { surface stem } }
        termCheck(input: { sourceLang: "eng", targetLang: "deu", source: "the petrol pump", target: "die Pumpe" }) {
          avoided { term segment replacements { name } }
          missingTranslations { term expected { name } }
          noEquivalent { term }
        }
      }`,
      {
        input: {
          sourceLang: 'eng',
          targetLangs: ['deu'],
          segments: [{ text: 'the petrol pump' }],
          output: 'html',
        },
      },
    );
    expect(answer.errors).toBeUndefined();
    const data = answer.data as {
      termDecoration: { segments: { decorated: string; matches: Record<string, unknown>[] }[] };
      stemmingLanguages: { engine: string };
      analyzeText: { tokens: { stem: string }[] };
      termCheck: { avoided: { term: string; replacements: { name: string }[] }[] };
    };
    expect(data.termDecoration.segments[0]!.matches).toEqual([
      {
        start: 4,
        end: 15,
        text: 'petrol pump',
        term: 'petrol pump',
        kind: 'exact',
        status: 'deprecated',
        preferred: [{ name: 'fuel pump' }],
        translations: [{ langCode: 'deu', terms: [{ name: 'Kraftstoffpumpe' }] }],
        homonyms: [],
      },
    ]);
    expect(data.termDecoration.segments[0]!.decorated).toContain('polyterm-deprecated');
    expect(data.stemmingLanguages.engine).toBe('postgresql-snowball');
    expect(data.analyzeText.tokens[0]!.stem).toBe('pump');
    expect(data.termCheck.avoided[0]).toEqual({
      term: 'petrol pump',
      segment: 'source',
      replacements: [{ name: 'fuel pump' }],
    });

    const tooMany = await graphql(
      'query ($input: TermDecorationInput!) { termDecoration(input: $input) { sourceLang } }',
      {
        input: { sourceLang: 'eng', segments: Array.from({ length: 101 }, () => ({ text: 'x' })) },
      },
    );
    expect(tooMany.errors?.[0]?.extensions?.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('GraphQL sets stemming settings as REST does', async () => {
    const answer = await graphql(
      `mutation ($input: StemmingSettingInput!) { setDictionaryStemming(input: $input) { changedTerms jobTaskId } }`,
      { input: { id: base.dictionary.id, langCode: 'eng', overrides: { pumps: 'pumpkin' } } },
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data).toEqual({ setDictionaryStemming: { changedTerms: 0, jobTaskId: null } });
    const read = await graphql('query ($id: Int!) { dictionaryStemming(id: $id) { langCode overrides } }', {
      id: base.dictionary.id,
    });
    expect(read.data).toEqual({ dictionaryStemming: [{ langCode: 'eng', overrides: { pumps: 'pumpkin' } }] });
    const rebuilt = await graphql(
      'mutation ($id: Int!) { rebuildDictionaryStemming(id: $id) { changedTerms } }',
      {
        id: base.dictionary.id,
      },
    );
    expect(rebuilt).toEqual({ data: { rebuildDictionaryStemming: { changedTerms: 0 } } });
  });
});
