/**
 * The floor of a decoration: the same work without our server around it. The database's (and the
 * index's) part is the two statements the matcher issues per request (the text's keys; the lookup of
 * the spans' keys with the concepts' terms), built by the server's own code and run directly; the
 * CPU part is the session's phases (decoration-session.ts) run in this process, one thread, as one
 * worker runs them. A target the server misses is printed beside what these alone achieve.
 */
import { Client } from '@elastic/elasticsearch';
import type { EntityManager } from '@mikro-orm/postgresql';
import { openOrm } from '../../src/db/orm.js';
import {
  elasticsearchHitIds,
  lookUpTerms,
  type TermRow,
  termsOfHitIds,
} from '../../src/modules/decoration/candidate-lookup.js';
import { DEFAULT_KINDS } from '../../src/modules/decoration/decoration.schema.js';
import { textKeyRow } from '../../src/modules/decoration/decoration.service.js';
import type { CandidateKeys, KeyInputs, KeyRow } from '../../src/modules/decoration/decoration-phases.js';
import { DecorationSession } from '../../src/modules/decoration/decoration-session.js';
import type { SearchPlan } from '../../src/modules/search/search-plan.js';

const LANGUAGES = ['eng', 'isl'];

/** One request's work, prepared once: its key inputs and the keys its spans look up. */
interface Prepared {
  texts: string[];
  inputs: KeyInputs;
  row: KeyRow;
  keys: CandidateKeys | null;
  rows: TermRow[];
}

const sessionOf = (texts: string[]) =>
  new DecorationSession({
    sourceLang: 'eng',
    segments: texts.map((text, index) => ({ id: String(index), text, format: 'text' as const })),
    kinds: DEFAULT_KINDS,
    minScore: 0,
    overlap: 'longest',
  });

export interface Floor {
  /** The database's (or index's and database's) time for one request's two statements, in ms. */
  statements(prepared: Prepared): Promise<number>;
  /** The CPU phases of one request in this thread, in ms. */
  cpu(prepared: Prepared): number;
  prepare(texts: string[]): Promise<Prepared>;
  close(): Promise<void>;
}

/** The floor on `engine` for the admin's plan over one dictionary's English terms. */
export async function openFloor(
  databaseUrl: string,
  dictionaryId: number,
  engine: { elasticsearchUrl: string; index: string } | null,
): Promise<Floor> {
  const orm = await openOrm(databaseUrl);
  const em = () => orm.em.fork() as EntityManager;
  const [dictionary] = await em().execute<{ client_id: number }[]>(
    'select client_id from dictionaries where id = ?',
    [dictionaryId],
  );
  const sections = await em().execute<{ id: number }[]>(
    'select id from sections where dictionary_id = ? and not deleted',
    [dictionaryId],
  );
  const plan: SearchPlan = {
    clientId: dictionary!.client_id,
    dictionaryIds: [dictionaryId],
    sectionIds: sections.map((s) => s.id),
    domainIds: null,
    languageCode: 'eng',
    regionCode: null,
    scriptCode: null,
    text: null,
    restriction: null,
  };
  const client = engine ? new Client({ node: engine.elasticsearchUrl }) : null;
  const index = client && engine ? { client, index: engine.index, quick: {} } : null;
  const lookup = async (keys: CandidateKeys) =>
    index
      ? termsOfHitIds(
          em(),
          plan,
          await elasticsearchHitIds({ ...index, failover: (f) => f() }, plan, keys),
          LANGUAGES,
        )
      : lookUpTerms(em(), plan, keys, LANGUAGES);

  return {
    async prepare(texts) {
      const session = sessionOf(texts);
      const inputs = session.keyInputs('eng');
      const row = await textKeyRow(em(), plan, inputs);
      const { keys } = session.spans(row);
      return { texts, inputs, row, keys, rows: keys ? await lookup(keys) : [] };
    },
    async statements({ inputs, keys }) {
      const at = performance.now();
      await textKeyRow(em(), plan, inputs);
      if (keys) await lookup(keys);
      return performance.now() - at;
    },
    cpu({ texts, row, rows }) {
      const at = performance.now();
      const session = sessionOf(texts);
      session.keyInputs('eng');
      session.spans(row);
      const found = { sourceLang: 'eng', dictionaryIds: plan.dictionaryIds, rows };
      session.answerJson(found, { output: 'matches', overlap: 'longest', targetLangs: ['isl'] });
      return performance.now() - at;
    },
    async close() {
      await client?.close();
      await orm.close();
    },
  };
}
