/**
 * One decoration's CPU-bound state between its database round trips: its segments, spans and keys.
 * It lives in a worker thread (decoration.worker.ts), for POST /term-decoration and for each of term
 * check's two texts, so both give the same answers.
 */
import type { TermRow } from './candidate-lookup.js';
import {
  answerSegments,
  type CandidateKeys,
  type KeyInputs,
  type KeyRow,
  keyInputsOf,
  type Lookup,
  type MatchOptions,
  matchSegments,
  type PreparedSegment,
  prepareSegments,
  type SegmentSpans,
  type ShapeOptions,
  spansOfSegments,
  type TextKeys,
  termsByConcept,
  textKeysOf,
} from './decoration-phases.js';
import type { SegmentFormat } from './inline-markup.js';

export interface SessionRequest extends MatchOptions {
  sourceLang: string;
  segments: { id: string; text: string; format: SegmentFormat }[];
}

/** What the database found: the visible terms (none when nothing could match). */
export interface Found {
  sourceLang: string;
  dictionaryIds: number[];
  rows: TermRow[];
}

export class DecorationSession {
  private readonly segments: PreparedSegment[];
  private language = '';
  private inputs: KeyInputs = { pieces: [], words: [], firstChars: [] };
  private keys: TextKeys | null = null;
  private perSegment: SegmentSpans[] | null = null;

  constructor(private readonly request: SessionRequest) {
    this.segments = prepareSegments(request.segments, request.sourceLang);
  }

  hasWords(): boolean {
    return this.segments.some((s) => s.tokens.length > 0);
  }

  keyInputs(language: string): KeyInputs {
    this.language = language;
    this.inputs = keyInputsOf(this.segments, language);
    return this.inputs;
  }

  /** The keys to look up; none when no term can start in the text (maxWords 0). */
  spans(row: KeyRow): { maxWords: number; keys: CandidateKeys | null } {
    this.keys = textKeysOf(row, this.inputs, this.language);
    if (this.keys.maxWords === 0) return { maxWords: 0, keys: null };
    const spans = spansOfSegments(this.segments, this.keys, this.request.kinds.includes('fuzzy'));
    this.perSegment = spans.perSegment;
    return { maxWords: this.keys.maxWords, keys: spans.keys };
  }

  lookup(found: Found): Lookup {
    const segments =
      this.keys && this.perSegment && found.rows.length
        ? matchSegments(this.perSegment, found.rows, this.keys, this.request)
        : this.segments.map((segment) => ({ segment, spans: [] }));
    return {
      sourceLang: found.sourceLang,
      dictionaryIds: found.dictionaryIds,
      segments,
      byConcept: termsByConcept(found.rows),
    };
  }

  /** The answer as UTF-8 JSON: serialised here, not on the server's event loop. */
  answerJson(found: Found, shape: ShapeOptions): Uint8Array {
    const { sourceLang, dictionaryIds } = found;
    const segments = answerSegments(this.lookup(found), shape);
    return new TextEncoder().encode(JSON.stringify({ sourceLang, dictionaryIds, segments }));
  }
}

/** A session seen from the server's thread: each phase a message to a worker. */
export interface AsyncSession {
  hasWords(): Promise<boolean>;
  keyInputs(language: string): Promise<KeyInputs>;
  spans(row: KeyRow): Promise<{ maxWords: number; keys: CandidateKeys | null }>;
}
