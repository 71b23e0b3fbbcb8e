/**
 * Term check (docs/decoration.md): a source segment and its translation against the termbase. Both are
 * decorated (longest-leftmost, every match kind) and the answer is built from both
 * (term-check-phases.ts). Like decoration (issue 38), the CPU-bound part runs in the decoration worker
 * pool: the two texts are two sessions in one worker, holding one room of the pool (503 when it is
 * full); the server's thread only runs the database round trips.
 */
import { withRawJson } from '../../shared/raw-json.js';
import type { Scope } from '../../shared/scope.js';
import { languageKey } from '../stemming/language-codes.js';
import { DEFAULT_KINDS, type TermCheckInput, type TermCheckResponse } from './decoration.schema.js';
import { checkLimits, findTerms, type LookupRequest } from './decoration.service.js';
import { decorationPool } from './decoration-pool.js';

/** The answer a worker serialised: REST sends its bytes; GraphQL and tRPC parse them on first read. */
function answerOf(json: Uint8Array): TermCheckResponse {
  let parsed: TermCheckResponse | undefined;
  const read = () => {
    parsed ??= JSON.parse(new TextDecoder().decode(json)) as TermCheckResponse;
    return parsed;
  };
  const answer = {
    get avoided() {
      return read().avoided;
    },
    get missingTranslations() {
      return read().missingTranslations;
    },
    get noEquivalent() {
      return read().noEquivalent;
    },
  };
  return withRawJson(answer, json);
}

/** POST /term-check. */
export async function checkTerms(scope: Scope, input: TermCheckInput): Promise<TermCheckResponse> {
  const targetLang = languageKey(input.targetLang);
  const format = input.format ?? 'text';
  const common = {
    dictionaryIds: input.dictionaryIds,
    kinds: [...DEFAULT_KINDS],
    minScore: 0,
    overlap: 'longest' as const,
  };
  const sourceRequest: LookupRequest = {
    ...common,
    sourceLang: languageKey(input.sourceLang),
    targetLangs: [targetLang],
    segments: [{ id: 'source', text: input.source, format }],
  };
  const targetRequest: LookupRequest = {
    ...common,
    sourceLang: targetLang,
    targetLangs: [],
    segments: [{ id: 'target', text: input.target, format }],
  };
  checkLimits([input.source]);
  const source = await decorationPool().session(sourceRequest);
  try {
    const sourceFound = await findTerms(scope, sourceRequest, source);
    // The target after the source, as each text's errors (413, 400, 404) were answered before.
    checkLimits([input.target]);
    const target = source.companion(targetRequest);
    const targetFound = await findTerms(scope, targetRequest, target);
    return answerOf(await source.checkJson(sourceFound, target, targetFound, targetLang));
  } finally {
    source.close();
  }
}
