/**
 * BENCH_WORKFLOW=1 (bench/search.ts): the default workflow switched on for the bench dictionary, its
 * entries (LANGUAGE unit) spread over the states by a hash of concept and language: 70% approved, 10% in
 * review, 10% rejected, 10% left suggested (no row, the initial state). The admin the bench searches as
 * does not review, so it lists the approved entries only (a listed state, not the initial one: the
 * terms' state copy must be among them), and 30% fewer matches per text.
 */
import type pg from 'pg';
import type { WorkflowScope } from '../../src/modules/search/search-workflow.js';
import { defaultDefinition } from '../../src/modules/workflow/workflow-definition.js';
import type { Headers, ServerAddress } from './polyterm-api.js';

export const benchWorkflowEnabled = () => process.env.BENCH_WORKFLOW === '1';

/** Switches the workflow on, writes the entry states in one statement, answers the admin's scope. */
export async function enableBenchWorkflow(
  server: ServerAddress,
  headers: Headers,
  db: pg.Client,
  dictionaryId: number,
): Promise<WorkflowScope> {
  const answer = await fetch(`${server.url}/api/v4/workflows`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench', dictionaryId, unit: 'LANGUAGE', enabled: true }),
  });
  if (!answer.ok) throw new Error(`workflow: ${answer.status} ${await answer.text()}`);
  const workflowId = ((await answer.json()) as { id: number }).id;
  const started = performance.now();
  const written = await db.query(
    `insert into workflow_entry_states (client_id, dictionary_id, workflow_id, concept_id, language_code, term_id, state, category)
     select client_id, dictionary_id, $2, concept_id, language_code, 0, s.state, s.category
       from (select distinct client_id, dictionary_id, concept_id, language_code,
                    abs(hashtext(concept_id::text || language_code)) % 10 as bucket
               from terms where dictionary_id = $1 and not deleted) e
       join (values (0, 'approved', 'APPROVED'), (1, 'approved', 'APPROVED'), (2, 'approved', 'APPROVED'),
                    (3, 'approved', 'APPROVED'), (4, 'approved', 'APPROVED'), (5, 'approved', 'APPROVED'),
                    (6, 'approved', 'APPROVED'), (7, 'inReview', 'REVIEW'), (8, 'rejected', 'REJECTED'))
            s(bucket, state, category) on s.bucket = e.bucket`,
    [dictionaryId, workflowId],
  );
  const writtenMs = Math.round(performance.now() - started);
  // (The insert also rewrote the terms' state copies, terms.workflow_state; bench/search.ts vacuums next.)
  await db.query('analyze workflow_entry_states');
  console.log(
    `workflow: default workflow ${workflowId} on, ${written.rowCount} entry states and their terms' copies written in ${writtenMs} ms (70% approved, 10% in review, 10% rejected, 10% suggested)`,
  );
  const definition = defaultDefinition();
  const listed = definition.states.filter((state) => !state.hidden && !state.unpublished);
  return {
    governed: [
      {
        dictionaryId,
        workflowId,
        unit: 'LANGUAGE',
        initialState: definition.initialState,
        visible: listed.map((state) => state.key),
        invisible: definition.states.filter((s) => !listed.includes(s)).map((state) => state.key),
      },
    ],
    othersPass: true,
    passing: [],
  };
}
