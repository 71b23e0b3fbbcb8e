/** Shared steps of the staging tests (docs/staging.md): areas, TBX into an area, entries, GraphQL and tRPC calls. */
import { expect } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import type { RestClient, RestResponse } from '../helpers/rest.js';
import { type JobBody, waitForJob } from '../helpers/structure.js';

export interface AreaBody {
  id: number;
  version: number;
  dictionaryId: number;
  name: string;
  openToReaders: boolean;
  counts: { pending: number; accepted: number; rejected: number };
  mayReview: boolean;
}

export interface EntryBody {
  id: number;
  version: number;
  stagingAreaId: number;
  status: 'PENDING' | 'ACCEPTED' | 'REJECTED';
  source: string;
  format: string | null;
  importJobId: number | null;
  fileName: string | null;
  entryId: string | null;
  targetConceptId: number | null;
  merge: string;
  label: string;
  languages: string[];
  comment: string | null;
  entry: {
    id: string | null;
    values: { category: string; value: string }[];
    languages: {
      lang: string;
      values: unknown[];
      terms: { id: string | null; term: string; values: unknown[] }[];
    }[];
  };
  createdBy: { id: number; name: string } | null;
  decision: {
    decision: string;
    reason: string | null;
    conceptId: number | null;
    workflowState: string | null;
  } | null;
  mayReview: boolean;
  mayEdit: boolean;
}

export interface DetailBody extends EntryBody {
  target: { id: number; version: number; terms: { id: number; languageCode: string; name: string }[] } | null;
  diff: {
    targetConceptId: number | null;
    changes: {
      kind: string;
      subject: string;
      fieldName?: string;
      term?: string;
      language?: string;
      after?: unknown;
    }[];
  };
  decisions: { decision: string }[];
}

export interface PageBody<T> {
  content: T[];
  totalElements: number;
  sort: string | null;
}

export const patch = <T>(caller: RestClient, path: string, json: unknown) =>
  caller.call<T>('PATCH', path, { json });

/** POST /dictionaries/{id}/staging-areas, expecting 201. */
export async function createArea(
  caller: RestClient,
  dictionaryId: number,
  body: Record<string, unknown> = {},
) {
  const response = await caller.post<AreaBody>(`/dictionaries/${dictionaryId}/staging-areas`, {
    name: `Area ${Math.random().toString(36).slice(2, 8)}`,
    ...body,
  });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

/** A TBX v2 file of concept entries: [id, [[lang, term]...], definition?]. */
export function tbx(entries: [string, [string, string][], string?][]): string {
  const body = entries
    .map(
      ([id, terms, definition]) =>
        `<termEntry id="${id}">${definition ? `<descrip type="definition">${definition}</descrip>` : ''}${terms
          .map(([lang, term]) => `<langSet xml:lang="${lang}"><tig><term>${term}</term></tig></langSet>`)
          .join('')}</termEntry>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<martif type="TBX" xml:lang="en"><martifHeader><fileDesc><sourceDesc><p>staging</p></sourceDesc></fileDesc></martifHeader>
<text><body>
${body}
</body></text></martif>`;
}

/** POST /dictionaries/import-tbx into a staging area; the summary (at once, or by its job). */
export async function importIntoArea(
  caller: RestClient,
  areaId: number,
  content: string,
  fields: Record<string, string> = {},
): Promise<{
  response: RestResponse<{ result?: Record<string, number>; jobTaskId?: number }>;
  job?: JobBody;
}> {
  const response = await caller.upload<{ result?: Record<string, number>; jobTaskId?: number }>(
    '/dictionaries/import-tbx',
    { content, filename: 'staged.tbx' },
    { 'staging-area-id': String(areaId), ...fields },
  );
  if (response.status === 202) return { response, job: await waitForJob(caller, response.body.jobTaskId!) };
  return { response };
}

/** All entries of an area the caller sees (one page of 500). */
export async function entries(caller: RestClient, areaId: number, queryString = '') {
  const response = await caller.get<PageBody<EntryBody>>(
    `/staging-areas/${areaId}/entries?size=500${queryString}`,
  );
  expect(response.status, response.text).toBe(200);
  return response.body.content;
}

export const byLabel = (list: EntryBody[], text: string) => {
  const found = list.find((entry) => entry.label.includes(text));
  if (!found) throw new Error(`no staged entry with "${text}" in ${list.map((e) => e.label).join(' | ')}`);
  return found;
};

/** A GraphQL call over inject. */
export async function gql<T>(
  t: TestApp,
  token: string,
  document: string,
  variables: Record<string, unknown> = {},
) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { 'content-type': 'application/json', 'x-auth-token': token },
    payload: JSON.stringify({ query: document, variables }),
  });
  return JSON.parse(response.body) as {
    data: T;
    errors?: { message: string; extensions: { code: string } }[];
  };
}

/** A tRPC query or mutation over inject: its data, or its error code. */
export async function trpc<T>(t: TestApp, token: string, path: string, input: unknown, mutation = false) {
  const response = await t.app.inject(
    mutation
      ? {
          method: 'POST',
          url: `/trpc/${path}`,
          headers: { 'content-type': 'application/json', 'x-auth-token': token },
          payload: JSON.stringify(input),
        }
      : {
          method: 'GET',
          url: `/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`,
          headers: { 'x-auth-token': token },
        },
  );
  const body = JSON.parse(response.body) as {
    result?: { data: T };
    error?: { data?: { code?: string }; message: string };
  };
  return { status: response.statusCode, data: body.result?.data, code: body.error?.data?.code };
}
