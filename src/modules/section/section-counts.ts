import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuditUsers } from '../../shared/audit.js';
import { commonDto } from '../../shared/audit.js';
import type { Section } from './section.entity.js';
import type { SectionDto } from './section.schema.js';

/** Live concepts per section, in one grouped query. */
export async function conceptCountsBySection(
  em: EntityManager,
  sectionIds: readonly number[],
): Promise<Map<number, number>> {
  if (sectionIds.length === 0) return new Map();
  const rows = await em.execute<{ section_id: number; n: number }[]>(
    `select section_id, count(*)::int as n from concepts where section_id in (?) and not deleted group by section_id`,
    [sectionIds],
  );
  return new Map(rows.map((row) => [row.section_id, row.n]));
}

/** Live sections per dictionary, in one grouped query (the last one cannot be deleted). */
export async function sectionCountsByDictionary(
  em: EntityManager,
  dictionaryIds: readonly number[],
): Promise<Map<number, number>> {
  if (dictionaryIds.length === 0) return new Map();
  const rows = await em.execute<{ dictionary_id: number; n: number }[]>(
    `select dictionary_id, count(*)::int as n from sections where dictionary_id in (?) and not deleted group by dictionary_id`,
    [dictionaryIds],
  );
  return new Map(rows.map((row) => [row.dictionary_id, row.n]));
}

export function sectionDto(
  section: Section,
  audit: AuditUsers,
  concepts: ReadonlyMap<number, number>,
  sectionsInDictionary: ReadonlyMap<number, number>,
): SectionDto {
  const numberOfConcepts = concepts.get(section.id) ?? 0;
  return {
    ...commonDto(section, section.client.id, audit),
    name: section.name,
    viewId: section.view?.id ?? null,
    numberOfConcepts,
    deletable:
      !section.deleted &&
      numberOfConcepts === 0 &&
      (sectionsInDictionary.get(section.dictionary.id) ?? 0) > 1,
    sortIndex: section.sortIndex,
    dictionaryId: section.dictionary.id,
    permissionSchemeId: section.permissionScheme?.id ?? null,
  };
}
