/**
 * A SKOS export under a workflow applies the TBX export's visibility (docs/workflows.md): terms of
 * unpublished states are left out (and concepts left without a term), unless a reviewer asks for them.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Server, startServer } from '../concepts/concept-helpers.js';
import type { RestClient } from '../helpers/rest.js';
import { enableWorkflow, fire, workflowWorld } from '../workflow/workflow-helpers.js';
import { conceptsOf, exportSkos, turtleQuads } from './skos-helpers.js';

let server: Server;

beforeAll(async () => {
  server = await startServer();
}, 120_000);
afterAll(async () => {
  await server?.close();
});

async function move(callers: RestClient[], conceptId: number, languageCode: string, transitions: string[]) {
  for (const [version, transition] of transitions.entries()) {
    const fired = await fire(callers[version]!, { conceptId, languageCode, transition, version });
    expect(fired.status, fired.text).toBe(200);
  }
}

const labelsOf = (text: string) =>
  [...conceptsOf(turtleQuads(text)).values()]
    .flatMap((concept) => concept.labels.map((l) => l.split('|')[2]!))
    .sort();

it('leaves out unpublished terms unless a reviewer asks for them', async () => {
  const w = await workflowWorld(server.t, server.sysadmin);
  const first = await w.concept();
  const second = await w.concept();
  const names = (concept: typeof first) =>
    (concept.terms as unknown as { name: string; languageCode: string }[]).map((term) => term.name);
  await enableWorkflow(w, 'Default');
  await move([w.author.rest, w.dictAdmin.rest], first.id, 'deu', ['submit', 'approve']);
  const approved = (first.terms as unknown as { name: string; languageCode: string }[]).find(
    (term) => term.languageCode === 'deu',
  )!.name;

  const token = w.dictAdmin.rest.token!;
  const published = await exportSkos(server, token, w.dictionary.id);
  expect(published.status, published.text).toBe(200);
  expect(labelsOf(published.text)).toEqual([approved]);
  const everything = await exportSkos(server, token, w.dictionary.id, { 'include-unpublished': 'true' });
  expect(labelsOf(everything.text)).toEqual([...names(first), ...names(second)].sort());

  const refused = await exportSkos(server, w.author.rest.token!, w.dictionary.id, {
    'include-unpublished': 'true',
  });
  expect(refused.status).toBe(403);
  expect(JSON.parse(refused.text).message).toMatch(/^include-unpublished: only users who review/);
}, 180_000);
