import type { MikroORM } from '@mikro-orm/postgresql';
import { Client } from '../../src/modules/client/client.entity.js';
import { Dictionary } from '../../src/modules/dictionary/dictionary.entity.js';
import { Section } from '../../src/modules/section/section.entity.js';
import { uniqueSuffix } from './tenant.js';

export interface TestDictionary {
  id: number;
  oid: string;
  name: string;
  sectionIds: number[];
}

/**
 * A dictionary with sections, written through the ORM (the dictionary API arrives with the structure
 * work). Every dictionary gets an oid, so DICTIONARY_ADMIN@<oid> roles can name it.
 */
export async function createDictionary(
  orm: MikroORM,
  clientId: number,
  options: {
    name?: string;
    sections?: number;
    schemeId?: number | null;
    sectionSchemeIds?: (number | null)[];
  } = {},
): Promise<TestDictionary> {
  const em = orm.em.fork();
  const name = options.name ?? `Dictionary ${uniqueSuffix()}`;
  const oid = `dict-${uniqueSuffix()}`;
  const client = em.getReference(Client, clientId);
  const dictionary = em.create(Dictionary, {
    client,
    name,
    oid,
    permissionScheme: options.schemeId ?? null,
  });
  const sections = Array.from({ length: options.sections ?? 1 }, (_, index) =>
    em.create(Section, {
      client,
      dictionary,
      name: index === 0 ? name : `${name} ${index + 1}`,
      oid: `sect-${uniqueSuffix()}`,
      permissionScheme: options.sectionSchemeIds?.[index] ?? null,
    }),
  );
  await em.flush();
  return { id: dictionary.id, oid, name, sectionIds: sections.map((section) => section.id) };
}
