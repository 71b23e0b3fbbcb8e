/**
 * Statistics of one dictionary (docs/workflows.md, Statistics): concepts and terms, terms per language,
 * and while a workflow is enabled its entries per state (and language). Counted over the sections the
 * caller reads, for every reader of the dictionary; each figure is one set-based statement on indexed
 * columns (concepts by dictionary, terms by concept, entry states by their unique key).
 */
import type { Scope } from '../../shared/scope.js';
import { readableSectionIds } from '../access/access.service.js';
import { readableDictionary } from '../dictionary/dictionary-access.js';
import { enabledWorkflow } from '../workflow/workflow.service.js';
import { stateOf } from '../workflow/workflow-definition.js';
import { countStates } from '../workflow/workflow-statistics.js';
import type { DictionaryStatistics, DictionaryStatisticsQuery } from './statistics.schema.js';

/** GET /system/statistics/dictionaries/{dictionaryId}: 404 for callers who cannot read the dictionary. */
export async function dictionaryStatistics(
  scope: Scope,
  input: DictionaryStatisticsQuery,
): Promise<DictionaryStatistics> {
  const dictionary = await readableDictionary(scope, input.dictionaryId);
  const sections = `{${[...(await readableSectionIds(scope, [dictionary.id]))].join(',')}}`;
  const [concepts, languages, workflow] = await Promise.all([
    scope.em.execute<{ count: number }[]>(
      'select count(*)::int as count from concepts c where c.dictionary_id = ? and c.section_id = any(?::int[]) and not c.deleted',
      [dictionary.id, sections],
    ),
    scope.em.execute<{ language_code: string; count: number }[]>(
      `select t.language_code, count(*)::int as count
         from concepts c join terms t on t.concept_id = c.id and not t.deleted
        where c.dictionary_id = ? and c.section_id = any(?::int[]) and not c.deleted
        group by 1 order by 1`,
      [dictionary.id, sections],
    ),
    enabledWorkflow(scope.em, dictionary.id),
  ]);
  const answer: DictionaryStatistics = {
    dictionaryId: dictionary.id,
    concepts: concepts[0]?.count ?? 0,
    terms: languages.reduce((sum, row) => sum + row.count, 0),
    languages: languages.map((row) => ({ languageCode: row.language_code, terms: row.count })),
  };
  if (!workflow) return answer;
  const counts = await countStates(scope.em, workflow, dictionary.id, sections);
  return {
    ...answer,
    workflow: {
      workflowId: workflow.id,
      unit: workflow.unit,
      states: counts.map((row) => {
        const state = stateOf(workflow.definition, row.state);
        return {
          state: row.state,
          name: state.name,
          category: state.category,
          languageCode: row.languageCode,
          count: row.count,
        };
      }),
    },
  };
}
