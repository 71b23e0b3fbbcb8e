/**
 * Setup for the sync-settings suite: a tenant with a dictionary whose languages have region and script
 * variants, groups and filters, all made over REST.
 */
import { expect } from 'vitest';
import { createGroup } from '../access/access-helpers.js';
import type { TestApp } from '../helpers/app.js';
import type { RestClient, RestResponse } from '../helpers/rest.js';
import {
  type AuditedBody,
  createDictionary,
  type DictionaryBody,
  type ErrorBody,
  expectError,
  newTenant,
  type PageBody,
  query,
  uniqueSuffix,
} from '../helpers/structure.js';

export interface FilterRef {
  id: number;
  name?: string;
  description?: string | null;
  dictionaryId?: number;
  deleted?: boolean;
}

export interface SyncSettingsBody extends AuditedBody {
  name: string;
  description: string | null;
  active: boolean;
  dictionaryId: number;
  languages: { langCode: string; regionCode: string | null; scriptCode: string | null }[];
  groups: { groupId: number }[];
  filter: FilterRef | null;
}

export type Answer<T> = RestResponse<T & ErrorBody>;

/** English with US and GB regions and the Latin script, Japanese with the Hiragana script, German. */
export const LANGUAGES = [
  {
    code: 'eng',
    variants: [
      { type: 0, code: 'US' },
      { type: 0, code: 'GB' },
      { type: 1, code: 'latn' },
    ],
  },
  { code: 'jpn', variants: [{ type: 1, code: 'hira' }] },
  { code: 'deu' },
];

/** POST /filters, expecting 201. */
export async function createFilter(
  caller: RestClient,
  dictionaryId: number,
  body: Record<string, unknown> = {},
): Promise<{ id: number; name: string; description: string | null; dictionaryId: number }> {
  const response = await caller.post<{
    id: number;
    name: string;
    description: string | null;
    dictionaryId: number;
  }>('/filters', { name: `Filter ${uniqueSuffix()}`, dictionaryId, visibility: 'PUBLIC', ...body });
  if (response.status !== 201) throw new Error(`createFilter failed: ${response.status} ${response.text}`);
  return response.body;
}

/** A tenant, its administrator, a dictionary with LANGUAGES, a second dictionary, a group and a filter. */
export async function syncWorld(t: TestApp, sysadmin: RestClient) {
  const { admin, tenant } = await newTenant(t, sysadmin);
  const dictionary = await createDictionary(admin, { languages: LANGUAGES });
  const other: DictionaryBody = await createDictionary(admin, { languages: [{ code: 'fra' }] });
  const group = await createGroup(admin, { name: `Integrators ${uniqueSuffix()}` });
  const filter = await createFilter(admin, dictionary.id, { description: 'Approved only' });
  return { admin, tenant, dictionary, other, group, filter };
}

/** POST /sync-settings, expecting 201. */
export async function createSettings(
  caller: RestClient,
  body: Record<string, unknown>,
): Promise<SyncSettingsBody> {
  const response = await caller.post<SyncSettingsBody>('/sync-settings', {
    name: `Sync ${uniqueSuffix()}`,
    ...body,
  });
  if (response.status !== 201) throw new Error(`createSettings failed: ${response.status} ${response.text}`);
  return response.body;
}

export const listSettings = (caller: RestClient, params: Record<string, string | number | boolean> = {}) =>
  caller.get<PageBody<SyncSettingsBody> & ErrorBody>(`/sync-settings${query(params)}`);

export const namesOf = (page: { body: PageBody<SyncSettingsBody> }) => page.body.content.map((s) => s.name);

/** The error answer's status, code and that its message names every `mentions`. */
export function expectRefused(
  response: RestResponse<unknown>,
  status: number,
  code: string,
  ...mentions: string[]
): void {
  expectError(response, status, code);
  const body = response.body as ErrorBody;
  for (const mention of mentions) expect(body.message).toContain(mention);
}
