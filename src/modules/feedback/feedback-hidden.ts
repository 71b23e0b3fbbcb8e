/**
 * Feedback about what an administrator may not read. Managing a dictionary's feedback (DICT_READ with
 * DICT_UPDATE) does not open its closed sections nor show entries in unpublished workflow states to
 * those who do not review: feedback on such a concept or term is left out of their list and answers
 * 404 to them, and a concept's label (its terms as the sender saw them) is withheld when the concept
 * has terms they are not shown. Senders always see their own feedback, as they wrote it.
 */
import type { Scope } from '../../shared/scope.js';
import { conceptAccessFor } from '../access/access.service.js';
import { enabledWorkflows } from '../workflow/workflow-effects.js';
import { unseenTermIds } from '../workflow/workflow-visibility.js';

/**
 * The ids of the feedback on concepts and terms of `dictionaryIds` the caller cannot read (another
 * person's; `onlyId` narrows the search to one feedback). A few statements whatever the volume: the
 * distinct (section, owner) pairs, and the targeted terms of dictionaries with unpublished states.
 */
export async function unreadableFeedbackIds(
  scope: Scope,
  dictionaryIds: readonly number[],
  onlyId?: number,
): Promise<Set<number>> {
  const hidden = new Set<number>();
  if (dictionaryIds.length === 0) return hidden;
  const { em, actor } = scope;
  const only = onlyId === undefined ? '' : ' and f.id = ?';
  const base = [actor.clientId, [...dictionaryIds], ...(onlyId === undefined ? [] : [onlyId])];
  const all = await em.execute<{ section_id: number; owner_id: number | null; gone: boolean }[]>(
    `select distinct c.section_id, c.created_by_id as owner_id, s.deleted as gone
       from feedback f join concepts c on c.id = f.concept_id join sections s on s.id = c.section_id
      where f.client_id = ? and f.dictionary_id in (?) and f.concept_id is not null${only}`,
    base,
  );
  // A deleted section reads as nothing (conceptAccessFor would answer 404 for it).
  const pairs = all.filter((pair) => !pair.gone);
  const access = await conceptAccessFor(
    scope,
    pairs.map((pair) => ({ sectionId: pair.section_id, ownerId: pair.owner_id })),
  );
  const closed = [
    ...all.filter((pair) => pair.gone),
    ...pairs.filter((_, index) => !access[index]!.readable),
  ];
  if (closed.length > 0) {
    const rows = await em.execute<{ id: number }[]>(
      `select f.id from feedback f join concepts c on c.id = f.concept_id
        where f.client_id = ? and f.dictionary_id in (?)${only}
          and (c.section_id, coalesce(c.created_by_id, 0)) in (${closed.map(() => '(?, ?)').join(', ')})`,
      [...base, ...closed.flatMap((pair) => [pair.section_id, pair.owner_id ?? 0])],
    );
    for (const row of rows) hidden.add(row.id);
  }
  // Terms in unpublished states: only dictionaries whose enabled workflow has such states cost a read.
  const workflows = await enabledWorkflows(em, dictionaryIds);
  const governed = [...workflows.values()]
    .filter((workflow) => workflow.definition.states.some((state) => state.unpublished))
    .map((workflow) => workflow.dictionaryId);
  if (governed.length > 0) {
    const terms = await em.execute<
      { id: number; dictionary_id: number; concept_id: number; term_id: number; language_code: string }[]
    >(
      `select f.id, f.dictionary_id, t.concept_id, t.id as term_id, t.language_code
         from feedback f join terms t on t.id = f.term_id
        where f.client_id = ? and f.dictionary_id in (?) and f.target = 'TERM'${only}`,
      [actor.clientId, governed, ...(onlyId === undefined ? [] : [onlyId])],
    );
    const unseen = await unseenTermIds(
      scope,
      terms.map((row) => ({
        dictionaryId: row.dictionary_id,
        conceptId: row.concept_id,
        languageCode: row.language_code,
        termId: row.term_id,
      })),
    );
    for (const row of terms) if (unseen.has(row.term_id)) hidden.add(row.id);
  }
  return hidden;
}

/**
 * The concepts among `conceptIds` (feedback targets on this page) with a term the caller is not shown:
 * their labels, which name the terms the sender saw, are withheld from the caller.
 */
export async function conceptsWithUnseenTerms(
  scope: Scope,
  conceptIds: readonly number[],
): Promise<Set<number>> {
  if (conceptIds.length === 0) return new Set();
  const terms = await scope.em.execute<
    { id: number; concept_id: number; dictionary_id: number; language_code: string }[]
  >(
    `select t.id, t.concept_id, c.dictionary_id, t.language_code
       from terms t join concepts c on c.id = t.concept_id
      where t.concept_id in (?) and t.client_id = ? and not t.deleted`,
    [[...new Set(conceptIds)], scope.actor.clientId],
  );
  const unseen = await unseenTermIds(
    scope,
    terms.map((row) => ({
      dictionaryId: row.dictionary_id,
      conceptId: row.concept_id,
      languageCode: row.language_code,
      termId: row.id,
    })),
  );
  return new Set(terms.filter((row) => unseen.has(row.id)).map((row) => row.concept_id));
}
