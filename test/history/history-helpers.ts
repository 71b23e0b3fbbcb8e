/**
 * Setup for the history suite: history bodies, the history calls over the socket, and users of the
 * concept world whose permissions in the world's second section are given per test.
 */
import { expect } from 'vitest';
import {
  type Api,
  type ConceptBody,
  type LanguageFieldsBody,
  rows,
  type Server,
  userOf,
  type World,
} from '../concepts/concept-helpers.js';
import {
  createScheme,
  grant,
  groupWith,
  type InvocationResultBody,
  type PageBody,
  patchAtCurrentVersion,
} from '../helpers/structure.js';

export interface HistoryChangeBody {
  kind: 'ADDED' | 'CHANGED' | 'REMOVED';
  subject: string;
  termId?: number;
  fieldOid?: string;
  relationId?: number;
  /** LANGUAGE_FIELD: the language tag (eng, eng-GB). */
  language?: string;
  before?: unknown;
  after?: unknown;
}

export interface SnapshotBody {
  cid: string;
  dictionaryId: number;
  sectionId: number;
  deleted: boolean;
  domainIds: number[];
  fieldMap: Record<string, string[]>;
  terms: { id: number; tid: number; name: string; languageCode: string }[];
  relations: { id: number; sourceConceptId: number; targetConceptId: number }[];
  refLinks: unknown[];
  languageFields?: LanguageFieldsBody[];
}

export interface HistoryItemBody {
  id: number;
  oid: string | null;
  conceptId: number;
  dictionaryId: number;
  clientId: number;
  revision: number;
  action: 'CREATE' | 'UPDATE' | 'DELETE' | 'RESTORE' | 'UNDO';
  user: { id: number | null; name: string | null; fullName: string | null };
  time: number;
  changes: HistoryChangeBody[];
  restoredFromId: number | null;
  snapshot?: SnapshotBody;
}

export type HistoryPageBody = PageBody<HistoryItemBody>;

export const conceptHistory = (caller: Api, conceptId: number, params = '') =>
  caller.get<HistoryPageBody>(`/history/concept/${conceptId}${params}`);

export const dictionaryHistory = (caller: Api, dictionaryId: number, params = '') =>
  caller.get<HistoryPageBody>(`/history/dictionary/${dictionaryId}${params}`);

/** Every item of a concept, newest first (200 expected). */
export async function itemsOf(caller: Api, conceptId: number): Promise<HistoryItemBody[]> {
  const response = await conceptHistory(caller, conceptId, '?size=500');
  expect(response.status, response.text).toBe(200);
  return response.body.content;
}

export const undoConcept = (caller: Api, itemId: number) =>
  caller.post<ConceptBody>(`/history/concept-undo/?history-item-id=${itemId}`);

export const undoDictionary = (caller: Api, itemId: number) =>
  caller.post<InvocationResultBody>(`/history/dictionary-undo/?history-item-id=${itemId}`);

/** Waits so that what follows gets a later millisecond than what came before. */
export const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

/** Stored history rows of a concept (for "nothing was written" checks). */
export async function storedItems(server: Server, conceptId: number): Promise<number> {
  const [row] = await rows<{ count: number }>(
    server.t,
    'select count(*)::int as count from concept_history where concept_id = ?',
    [conceptId],
  );
  return row!.count;
}

export interface Grants {
  dictionary: string[];
  concept: string[];
}

/**
 * One logged-in user per entry, each alone in a group that the world's second section's permission
 * scheme grants `grants`. Setting the scheme is a structure change, so call this before making concepts.
 */
export async function sectionUsers<K extends string>(
  server: Server,
  world: World,
  grants: Record<K, Grants>,
): Promise<Record<K, Awaited<ReturnType<typeof userOf>>>> {
  const users = {} as Record<K, Awaited<ReturnType<typeof userOf>>>;
  const schemeGrants = [];
  for (const [key, wanted] of Object.entries(grants) as [K, Grants][]) {
    const user = await userOf(server, world);
    const group = await groupWith(world.adminRest, [user.id]);
    users[key] = user;
    schemeGrants.push(grant(group.id, wanted.dictionary, wanted.concept));
  }
  // Nobody else reads the section, so those outside the groups above get 404.
  const scheme = await createScheme(world.adminRest, schemeGrants);
  const patched = await patchAtCurrentVersion(world.adminRest, 'sections', world.section2.id, {
    permissionSchemeId: scheme.id,
  });
  expect(patched.status, patched.text).toBe(200);
  await tick();
  return users;
}

/** The oids of the world's fields this suite uses (named, so that a missing one fails loudly). */
export function fieldOids(world: World) {
  const pick = (fields: Record<string, string>, name: string): string => {
    const oid = fields[name];
    if (!oid) throw new Error(`the world has no field ${name}`);
    return oid;
  };
  return {
    Definition: pick(world.cf, 'Definition'),
    Note: pick(world.cf, 'Note'),
    Code: pick(world.cf, 'Code'),
    Tags: pick(world.cf, 'Tags'),
    Gender: pick(world.tf, 'Gender'),
  };
}
