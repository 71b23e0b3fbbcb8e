/** A tenant with a dictionary, its people and a workflow, for the workflow suites (docs/workflows.md). */
import { expect } from 'vitest';
import { dictionaryAdminRole } from '../../src/modules/role/role.service.js';
import type { TestApp } from '../helpers/app.js';
import type { RestClient } from '../helpers/rest.js';
import { createDictionary, groupWith, loggedInUser, newTenant } from '../helpers/structure.js';

export interface EntryBody {
  conceptId: number;
  languageCode: string | null;
  termId: number | null;
  state: string;
  category: string;
  style: string;
  readOnly: boolean;
  unpublished: boolean;
  version: number;
  assigneeId: number | null;
  votes: { transition: string; userId: number }[];
  transitions: { key: string; missingFields: string[] }[];
}

export interface ConceptWorkflowBody {
  workflowId: number | null;
  unit: string | null;
  entries: EntryBody[];
}

/** A tenant: client administrator, dictionary administrator, reviewer (in a group), author, and a field. */
export async function workflowWorld(
  t: TestApp,
  sysadmin: RestClient,
  options: { scheme?: (admin: RestClient) => Promise<number>; termField?: boolean } = {},
) {
  const { admin, tenant } = await newTenant(t, sysadmin);
  const dictionary = await createDictionary(admin, {
    ...(options.scheme ? { permissionSchemeId: await options.scheme(admin) } : {}),
    languages: [{ code: 'eng' }, { code: 'deu' }],
    conceptFields: [{ name: 'Definition', fieldType: 'MULTILINE' }],
    ...(options.termField ? { termFields: [{ name: 'Usage note', fieldType: 'MULTILINE' }] } : {}),
  });
  const definitionOid = dictionary.conceptFields[0]!.oid!;
  const dictAdmin = await loggedInUser(t, tenant, { roles: [dictionaryAdminRole(dictionary)] });
  const reviewer = await loggedInUser(t, tenant);
  const author = await loggedInUser(t, tenant);
  const reviewers = await groupWith(admin, [reviewer.id]);
  const sectionOid = dictionary.sections[0]!.oid!;

  /** POST /concepts by the client administrator with an English and a German term. */
  async function concept(fieldMap: Record<string, string> = {}) {
    const created = await admin.post<{
      id: number;
      version: number;
      terms: { id: number; languageCode: string }[];
    }>('/concepts', {
      dictionaryId: dictionary.id,
      sectionOid,
      fieldMap,
      terms: [
        { name: `term ${Math.random().toString(36).slice(2, 8)}`, languageCode: 'eng' },
        { name: `Begriff ${Math.random().toString(36).slice(2, 8)}`, languageCode: 'deu' },
      ],
    });
    expect(created.status, created.text).toBe(201);
    return created.body;
  }

  return { admin, tenant, dictionary, definitionOid, dictAdmin, reviewer, author, reviewers, concept };
}

export async function states(caller: RestClient, conceptId: number) {
  const response = await caller.get<ConceptWorkflowBody>(`/workflows/concepts/${conceptId}`);
  expect(response.status, response.text).toBe(200);
  return response.body;
}

export const entryOf = (body: ConceptWorkflowBody, languageCode: string) =>
  body.entries.find((entry) => entry.languageCode === languageCode)!;

export const fire = (caller: RestClient, body: Record<string, unknown>) =>
  caller.post<{ fired: boolean; entry: EntryBody; code?: string; message?: string }>(
    '/workflows/transitions',
    body,
  );

/** A state of a definition; `more` carries its TBX process status, style and flags. */
export const state = (key: string, name: string, category: string, more: Record<string, unknown> = {}) => ({
  key,
  name,
  category,
  ...more,
});

/** A transition; `more` carries its groups, votes, required fields and comment, and actions. */
export const transition = (
  key: string,
  name: string,
  from: string[],
  to: string,
  roles: string[],
  more: Record<string, unknown> = {},
) => ({ key, name, from, to, roles, ...more });

/** Draft (initial) and Approved ("ok"), with the given transitions: the bulk suites' definition. */
export const draftAndApproved = (...transitions: ReturnType<typeof transition>[]) => ({
  states: [state('draft', 'Draft', 'DRAFT'), state('ok', 'Approved', 'APPROVED')],
  transitions,
  initialState: 'draft',
});

/** New (initial) and Check, with the given transitions: the definition of the assigning and mailing tests. */
export const newAndCheck = (...transitions: ReturnType<typeof transition>[]) => ({
  states: [state('new', 'New', 'DRAFT'), state('check', 'Check', 'REVIEW')],
  transitions,
  initialState: 'new',
});

/**
 * Creates the enabled workflow `name` of the world's dictionary (201) and answers it: the server's
 * default definition (LANGUAGE unit) unless `definition` and `unit` say otherwise; created by the
 * dictionary administrator unless `by` names someone else.
 */
export async function enableWorkflow<Body = { id: number; version: number }>(
  w: { dictAdmin: { rest: RestClient }; dictionary: { id: number } },
  name: string,
  options: { unit?: 'LANGUAGE' | 'CONCEPT' | 'TERM'; definition?: unknown; by?: RestClient } = {},
): Promise<Body> {
  const { by = w.dictAdmin.rest, ...rest } = options;
  const created = await by.post<Body>('/workflows', {
    name,
    dictionaryId: w.dictionary.id,
    enabled: true,
    ...rest,
  });
  expect(created.status, created.text).toBe(201);
  return created.body;
}

/** A job's last answer once it no longer runs (a large or slow TBX import answers 202 with a job). */
async function finishedJob(base: string, token: string, id: number) {
  for (const deadline = Date.now() + 120_000; Date.now() < deadline; ) {
    const response = await fetch(`${base}/api/v4/jobs/${id}`, { headers: { 'x-auth-token': token } });
    const body = (await response.json()) as { status: string; result: unknown; message: string | null };
    if (body.status !== 'RUNNING') return body;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`job ${id} still running`);
}

/**
 * POST /dictionaries/import-tbx into an existing dictionary of the server at `base`, merging by entry
 * id; the import's summary, answered at once (200) or by its job (202, expected to end DONE).
 */
export async function importTbxInto<Summary>(
  base: string,
  token: string,
  dictionaryId: number,
  content: string,
): Promise<Summary> {
  const form = new FormData();
  form.append('file', new Blob([content]), 'in.tbx');
  const response = await fetch(
    `${base}/api/v4/dictionaries/import-tbx?dictionary-id=${dictionaryId}&merge=ENTRY_ID`,
    { method: 'POST', headers: { 'x-auth-token': token }, body: form },
  );
  const body = (await response.json()) as { result?: Summary; jobTaskId?: number; message?: string };
  if (response.status === 202) {
    const done = await finishedJob(base, token, body.jobTaskId!);
    expect(done.status, done.message ?? '').toBe('DONE');
    return done.result as Summary;
  }
  expect(response.status, body.message).toBe(200);
  return body.result!;
}
