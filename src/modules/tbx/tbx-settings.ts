/**
 * A dictionary's TBX settings (docs/tbx.md, Administrative statuses): its default mapping of TBX
 * administrative statuses to term statuses, used by imports that send none (or only some statuses)
 * and by every export. One small row per dictionary (tbx_settings); none: the built-in rule.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import type { Scope } from '../../shared/scope.js';
import { TERM_STATUSES } from '../decoration/term-status.js';
import { administrableDictionary, readableDictionary } from '../dictionary/dictionary-access.js';
import {
  ADMINISTRATIVE_STATUSES,
  type AdministrativeStatus,
  effectiveMapping,
  type PartialStatusMapping,
  type StatusMapping,
  StatusMappingSchema,
} from './tbx-status-mapping.js';

export const FullStatusMappingSchema = z
  .object(
    Object.fromEntries(ADMINISTRATIVE_STATUSES.map((status) => [status, z.enum(TERM_STATUSES)])) as {
      [K in AdministrativeStatus]: z.ZodEnum<{ [S in (typeof TERM_STATUSES)[number]]: S }>;
    },
  )
  .describe('each administrative status -> the term status it stands for');

export const TbxSettingsSchema = z.object({
  dictionaryId: z.number().int(),
  statusMapping: FullStatusMappingSchema.describe(
    'the mapping in effect: the dictionary’s, the built-in rule for statuses it does not name',
  ),
});
export type TbxSettings = z.infer<typeof TbxSettingsSchema>;

export const TbxSettingsInputSchema = z.object({ dictionaryId: z.number().int().positive() });

export const TbxSettingsUpdateSchema = z.object({
  dictionaryId: z.number().int().positive(),
  statusMapping: StatusMappingSchema.describe(
    'replaces the dictionary’s mapping; statuses left out follow the built-in rule',
  ),
});
export type TbxSettingsUpdate = z.infer<typeof TbxSettingsUpdateSchema>;

/** The stored mapping of a dictionary (null: none stored). */
export async function storedStatusMapping(
  em: EntityManager,
  dictionaryId: number,
): Promise<PartialStatusMapping | null> {
  const rows = await em.execute<{ status_mapping: PartialStatusMapping }[]>(
    'select status_mapping from tbx_settings where dictionary_id = ?',
    [dictionaryId],
  );
  return rows[0]?.status_mapping ?? null;
}

/** The mapping a dictionary's imports and exports use when the request names none. */
export async function dictionaryStatusMapping(
  em: EntityManager,
  dictionaryId: number,
): Promise<StatusMapping> {
  return effectiveMapping(await storedStatusMapping(em, dictionaryId));
}

/** The dictionary's TBX settings, for its readers. */
export async function tbxSettings(scope: Scope, dictionaryId: number): Promise<TbxSettings> {
  const dictionary = await readableDictionary(scope, dictionaryId);
  return {
    dictionaryId: dictionary.id,
    statusMapping: await dictionaryStatusMapping(scope.em, dictionary.id),
  };
}

/** Replaces the dictionary's TBX settings; its administrators (403 for other readers, 404 otherwise). */
export async function updateTbxSettings(scope: Scope, input: TbxSettingsUpdate): Promise<TbxSettings> {
  const dictionary = await administrableDictionary(scope, input.dictionaryId);
  // Only what differs from nothing is kept: statuses left out follow the built-in rule, also later.
  const stored = Object.fromEntries(Object.entries(input.statusMapping).filter(([, value]) => value));
  await scope.em.execute(
    `insert into tbx_settings (dictionary_id, client_id, status_mapping, changed_at) values (?, ?, ?::jsonb, now())
     on conflict (dictionary_id) do update set status_mapping = excluded.status_mapping, changed_at = now()`,
    [dictionary.id, dictionary.client.id, JSON.stringify(stored)],
  );
  return { dictionaryId: dictionary.id, statusMapping: effectiveMapping(stored) };
}
