import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { loadAuditUsers } from '../../shared/audit.js';
import { AppError, notFound } from '../../shared/errors.js';
import { applyFormat, type Format } from '../../shared/format.js';
import {
  AUDIT_SORTS,
  type ListSpec,
  listCalls,
  listedClientId,
  markDeleted,
  nameWhere,
} from '../../shared/listing.js';
import { newOid } from '../../shared/oid.js';
import { deletedFilter, isSysadmin, type Scope } from '../../shared/scope.js';
import { assertVersion } from '../../shared/versioning.js';
import { isDictionaryAdmin, readableSectionIds } from '../access/access.service.js';
import { Concept } from '../concept/concept.entity.js';
import { Dictionary } from '../dictionary/dictionary.entity.js';
import { administrableDictionary, markStructureChanged } from '../dictionary/dictionary-access.js';
import { runAsJob, runForEachAsJob } from '../jobs/job-runner.js';
import { PermissionScheme } from '../permission/permission-scheme.entity.js';
import { View } from '../view/view.entity.js';
import { Section } from './section.entity.js';
import {
  SECTION_SHORT_KEYS,
  type SectionCreateInput,
  type SectionListInput,
  type SectionPatchInput,
} from './section.schema.js';
import { conceptCountsBySection, sectionCountsByDictionary, sectionDto } from './section-counts.js';

const NO_TENANT = { tenant: false } as const;
const spec: ListSpec<Section, 'name' | 'sortIndex' | 'createdAt' | 'changedAt'> = {
  entity: Section,
  sortable: {
    name: 'name',
    sortIndex: 'sortIndex',
    ...AUDIT_SORTS,
  },
  fallbackSort: 'sortIndex',
  filters: NO_TENANT,
};

async function render(scope: Scope, sections: readonly Section[], format: Format) {
  if (format === 'ID') return sections.map((s) => ({ id: s.id }));
  const [audit, concepts, perDictionary] = await Promise.all([
    loadAuditUsers(scope.em, sections),
    conceptCountsBySection(
      scope.em,
      sections.map((s) => s.id),
    ),
    sectionCountsByDictionary(scope.em, [...new Set(sections.map((s) => s.dictionary.id))]),
  ]);
  return sections.map((s) =>
    applyFormat(sectionDto(s, audit, concepts, perDictionary), format, SECTION_SHORT_KEYS),
  );
}

/** Sections the actor may read among those of some dictionaries (administrators: all). */
async function readableAmong(scope: Scope, dictionaries: readonly Dictionary[]): Promise<Set<number> | null> {
  if (dictionaries.every((d) => isDictionaryAdmin(scope.actor, d))) return null;
  const own = dictionaries.filter((d) => d.client.id === scope.actor.clientId);
  const readable = own.length
    ? await readableSectionIds(
        scope,
        own.map((d) => d.id),
      )
    : new Set<number>();
  const administered = dictionaries.filter((d) => isDictionaryAdmin(scope.actor, d)).map((d) => d.id);
  if (administered.length) {
    const all = await scope.em.find(
      Section,
      { dictionary: { $in: administered } },
      { filters: NO_TENANT, fields: ['id'] },
    );
    for (const s of all) readable.add(s.id);
  }
  return readable;
}

async function listWhere(scope: Scope, input: SectionListInput): Promise<FilterQuery<Section> | null> {
  const clientId = listedClientId(scope, input.client_id);
  if (clientId === null) return null;
  const where: FilterQuery<Section>[] = [{ client: clientId }];
  if (input['dictionary-id'] !== undefined) where.push({ dictionary: input['dictionary-id'] });
  where.push(...nameWhere<Section>(input));
  const dictionaries = await scope.em.find(
    Dictionary,
    { client: clientId, ...(input['dictionary-id'] !== undefined ? { id: input['dictionary-id'] } : {}) },
    { filters: NO_TENANT },
  );
  const readable = await readableAmong(scope, dictionaries);
  if (readable) where.push({ id: { $in: [...readable] } });
  where.push({ dictionary: { $in: dictionaries.map((d) => d.id) } });
  return { $and: where };
}

const listing = listCalls(spec, listWhere, render);
export const listSections = listing.list;
export const sectionRownum = listing.rownum;

async function findSection(scope: Scope, id: number, em: EntityManager = scope.em, includeDeleted = false) {
  const where: FilterQuery<Section> = isSysadmin(scope.actor) ? { id } : { id, client: scope.actor.clientId };
  const section = await em.findOne(Section, where, {
    populate: ['dictionary'],
    filters: { ...NO_TENANT, ...deletedFilter(scope, includeDeleted) },
  });
  if (!section) throw notFound('Section', id);
  return section;
}

export async function getSection(scope: Scope, id: number, format: Format, includeDeleted: boolean) {
  const section = await findSection(scope, id, scope.em, includeDeleted);
  const readable = await readableAmong(scope, [section.dictionary.getEntity()]);
  if (readable && !readable.has(section.id)) throw notFound('Section', id);
  const [dto] = await render(scope, [section], format);
  return dto!;
}

/** A view must belong to the section's dictionary; a scheme to its client. Id 0 names nothing either. */
async function assertReferences(
  em: EntityManager,
  dictionary: Dictionary,
  input: { viewId?: number | null; permissionSchemeId?: number | null },
) {
  if (input.viewId != null) {
    const view = await em.findOne(
      View,
      { id: input.viewId, dictionary: dictionary.id },
      { filters: NO_TENANT },
    );
    if (!view)
      throw new AppError('BAD_REQUEST', `View ${input.viewId} is not a view of dictionary ${dictionary.id}`);
  }
  if (input.permissionSchemeId != null) {
    const scheme = await em.findOne(
      PermissionScheme,
      { id: input.permissionSchemeId, client: dictionary.client.id },
      { filters: NO_TENANT },
    );
    if (!scheme)
      throw new AppError('BAD_REQUEST', `Permission scheme ${input.permissionSchemeId} does not exist`);
  }
}

export async function createSection(scope: Scope, input: SectionCreateInput) {
  const id = await scope.em.transactional(async (em) => {
    const dictionary = await administrableDictionary(scope, input.dictionaryId, { em });
    await assertReferences(em, dictionary, input);
    const section = em.create(Section, {
      client: dictionary.client,
      dictionary,
      oid: newOid(),
      name: input.name,
      view: input.viewId ?? null,
      sortIndex: input.sortIndex ?? 0,
      permissionScheme: input.permissionSchemeId ?? null,
      createdById: scope.actor.userId,
      changedById: scope.actor.userId,
    });
    await em.flush();
    await markStructureChanged(em, dictionary.id, {
      actorId: scope.actor.userId,
      subject: 'section',
      action: 'created',
      id: section.id,
    });
    return section.id;
  });
  scope.em.clear();
  return getSection(scope, id, input.format, false);
}

export async function updateSection(scope: Scope, input: SectionPatchInput, partial: boolean) {
  await scope.em.transactional(async (em) => {
    const section = await findSection(scope, input.id, em);
    const dictionary = await administrableDictionary(scope, section.dictionary.id, { em });
    assertVersion(section, input.version, 'Section');
    if (input.dictionaryId !== undefined && input.dictionaryId !== dictionary.id) {
      throw new AppError('BAD_REQUEST', 'A section cannot move to another dictionary');
    }
    await assertReferences(em, dictionary, input);
    if (input.name !== undefined) section.name = input.name;
    if (!partial || input.viewId !== undefined) section.view = (input.viewId ?? null) as never;
    if (!partial || input.sortIndex !== undefined) section.sortIndex = input.sortIndex ?? 0;
    if (!partial || input.permissionSchemeId !== undefined) {
      section.permissionScheme = (input.permissionSchemeId ?? null) as never;
    }
    section.changedById = scope.actor.userId;
    await markStructureChanged(em, dictionary.id, {
      actorId: scope.actor.userId,
      subject: 'section',
      action: 'updated',
      id: section.id,
    });
  });
  scope.em.clear();
  return getSection(scope, input.id, input.format, false);
}

async function softDelete(scope: Scope, id: number) {
  const em = scope.em;
  const section = await findSection(scope, id, em);
  const dictionary = await administrableDictionary(scope, section.dictionary.id, { em });
  const live = await em.count(Section, { dictionary: dictionary.id }, { filters: NO_TENANT });
  if (live <= 1) throw new AppError('BAD_REQUEST', 'The last section of a dictionary cannot be deleted');
  const concepts = await em.count(Concept, { section: id }, { filters: NO_TENANT });
  if (concepts > 0) {
    throw new AppError('BAD_REQUEST', `The section holds ${concepts} concepts; clear or move them first`);
  }
  markDeleted(section, scope.actor.userId);
  await markStructureChanged(em, dictionary.id, {
    actorId: scope.actor.userId,
    subject: 'section',
    action: 'deleted',
    id: section.id,
  });
}

export async function deleteSection(scope: Scope, id: number): Promise<void> {
  await scope.em.transactional((em) => softDelete({ ...scope, em }, id));
}

export function deleteSectionsAsync(scope: Scope, ids: number[]) {
  return runForEachAsJob(scope, 'sections.delete', ids, softDelete);
}

/**
 * Removes every concept (with its terms) of the sections, without history: a bulk reset, not an edit.
 * Each section is cleared in its own transaction and reports its own success.
 */
export async function clearSections(scope: Scope, ids: number[]) {
  // Checked before the job starts, so a forbidden or unknown section is a 403/404, not a false result.
  for (const id of ids) {
    const section = await findSection(scope, id);
    await administrableDictionary(scope, section.dictionary.id);
  }
  return runAsJob(scope, 'sections.clear', async (em) => {
    const result: Record<string, boolean> = {};
    for (const id of ids) {
      await em.transactional(async (tem) => {
        await tem.execute('delete from concepts where section_id = ?', [id]);
      });
      result[id] = true;
    }
    return result;
  });
}
