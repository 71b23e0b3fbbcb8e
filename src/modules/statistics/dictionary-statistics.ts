/**
 * Statistics of one dictionary (docs/workflows.md, Statistics): concepts and terms, terms per language,
 * and while a workflow is enabled its entries per state (and language). Counted over the sections the
 * caller reads, for every reader of the dictionary; each figure is one set-based statement on indexed
 * columns (concepts by dictionary, terms by concept, entry states by their unique key).
 */
import type { Scope } from '../../shared/scope.js';
import { readableSectionIds } from '../access/access.service.js';
import { readableDictionary } from '../dictionary/dictionary-access.js';
import { managesDictionary } from '../feedback/feedback-access.js';
import { unreadableFeedbackIds } from '../feedback/feedback-hidden.js';
import { enabledWorkflow } from '../workflow/workflow.service.js';
import { stateOf } from '../workflow/workflow-definition.js';
import { countStates, governingOf } from '../workflow/workflow-statistics.js';
import { seenTermSql, unseenStates } from '../workflow/workflow-visibility.js';
import type { DictionaryStatistics, DictionaryStatisticsQuery } from './statistics.schema.js';

/**
 * Open and answered feedback of the dictionary, for those who manage it (feedback-access.ts), counted
 * as their feedback list shows it: without feedback on what they may not read (feedback-hidden.ts)
 * unless they sent it.
 */
async function feedbackCounts(
  scope: Scope,
  dictionaryId: number,
): Promise<Pick<DictionaryStatistics, 'feedback'>> {
  if (!(await managesDictionary(scope, dictionaryId))) return {};
  const hidden = `{${[...(await unreadableFeedbackIds(scope, [dictionaryId]))].join(',')}}`;
  const [row] = await scope.em.execute<{ open: number; answered: number }[]>(
    `select count(*) filter (where status = 'OPEN')::int as open,
            count(*) filter (where status = 'ANSWERED')::int as answered
       from feedback where dictionary_id = ? and status <> 'CLOSED'
        and (id <> all(?::int[]) or coalesce(sender_id = ? and not sender_guest, false))`,
    [dictionaryId, hidden, scope.actor.userId],
  );
  return { feedback: { open: row?.open ?? 0, answered: row?.answered ?? 0 } };
}

/** GET /system/statistics/dictionaries/{dictionaryId}: 404 for callers who cannot read the dictionary. */
export async function dictionaryStatistics(
  scope: Scope,
  input: DictionaryStatisticsQuery,
): Promise<DictionaryStatistics> {
  const dictionary = await readableDictionary(scope, input.dictionaryId);
  const sections = `{${[...(await readableSectionIds(scope, [dictionary.id]))].join(',')}}`;
  const workflow = await enabledWorkflow(scope.em, dictionary.id);
  // Workflow (workflow-visibility.ts): terms of entries the caller may not see are not counted, nor
  // concepts left with none of their terms, nor those entries' states.
  const unseen = workflow ? await unseenStates(scope, governingOf(workflow, dictionary.oid ?? null)) : [];
  const seen = workflow ? seenTermSql(governingOf(workflow, dictionary.oid ?? null), unseen) : null;
  const seenTerm = seen ? { text: ` and ${seen.text}`, params: seen.params } : { text: '', params: [] };
  const seenConcept = seen
    ? {
        text: ` and (exists (select 1 from terms t where t.concept_id = c.id and not t.deleted and ${seen.text})
               or not exists (select 1 from terms t where t.concept_id = c.id and not t.deleted))`,
        params: seen.params,
      }
    : { text: '', params: [] };
  const [concepts, languages] = await Promise.all([
    scope.em.execute<{ count: number }[]>(
      `select count(*)::int as count from concepts c
        where c.dictionary_id = ? and c.section_id = any(?::int[]) and not c.deleted${seenConcept.text}`,
      [dictionary.id, sections, ...seenConcept.params],
    ),
    scope.em.execute<{ language_code: string; count: number }[]>(
      `select t.language_code, count(*)::int as count
         from concepts c join terms t on t.concept_id = c.id and not t.deleted${seenTerm.text}
        where c.dictionary_id = ? and c.section_id = any(?::int[]) and not c.deleted
        group by 1 order by 1`,
      [...seenTerm.params, dictionary.id, sections],
    ),
  ]);
  const answer: DictionaryStatistics = {
    dictionaryId: dictionary.id,
    concepts: concepts[0]?.count ?? 0,
    terms: languages.reduce((sum, row) => sum + row.count, 0),
    languages: languages.map((row) => ({ languageCode: row.language_code, terms: row.count })),
    ...(await feedbackCounts(scope, dictionary.id)),
  };
  if (!workflow) return answer;
  const counts = await countStates(scope.em, workflow, dictionary.id, sections, unseen);
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
