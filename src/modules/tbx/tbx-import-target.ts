/**
 * Where a TBX import goes and what the file holds, settled before (and as) its job starts: the target
 * dictionary and section with the caller's rights there, and the first pass over the file.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { lowerOf } from '../../db/sql.js';
import { AppError, notFound } from '../../shared/errors.js';
import { newOid } from '../../shared/oid.js';
import { isClientAdmin, type Scope } from '../../shared/scope.js';
import { dictionaryPermissions, isDictionaryAdmin } from '../access/access.service.js';
import { Client } from '../client/client.entity.js';
import { Dictionary } from '../dictionary/dictionary.entity.js';
import { readableDictionary } from '../dictionary/dictionary-access.js';
import { Section } from '../section/section.entity.js';
import type { SheetMapping } from '../spreadsheet/sheet-mapping.js';
import { SheetFormatError, sheetShape } from '../spreadsheet/sheet-reader.js';
import { usableArea } from '../staging/staging-access.js';
import type { TbxImportOptions } from './tbx-import.service.js';
import { type ImportPlace, NO_TENANT } from './tbx-import-context.js';
import { usesNordicCodes } from './tbx-languages.js';
import type { TbxHeader } from './tbx-model.js';
import { TbxFormatError } from './tbx-reader.js';
import { FORMAT_NAMES, readTermbaseFile, type TermbaseSource, termbaseFormat } from './termbase-file.js';

export type ImportTarget =
  | {
      kind: 'existing';
      dictionaryId: number;
      sectionId: number;
      importableSectionIds: Set<number>;
      /** The entries go to this staging area for review instead of into the dictionary. */
      stagingAreaId?: number;
    }
  | { kind: 'new'; name: string | null };

/** What the first pass found: the header, the counts, and whether the language tags are the Nordic banks' codes. */
export interface FileScan extends TermbaseSource {
  header: TbxHeader | null;
  entries: number;
  terms: number;
  nordic: boolean;
}

/** Where the file goes, checked before the job starts: an existing dictionary's section, or a new dictionary. */
export async function importTarget(scope: Scope, options: TbxImportOptions): Promise<ImportTarget> {
  if (options.stagingAreaId !== undefined) {
    // The area's dictionary, which the caller must be able to use (404 otherwise); importing needs what any import needs.
    const { area } = await usableArea(scope, options.stagingAreaId);
    if (options.dictionaryId !== undefined && options.dictionaryId !== area.dictionary_id) {
      throw new AppError(
        'BAD_REQUEST',
        `staging-area-id ${area.id} belongs to dictionary ${area.dictionary_id}, not ${options.dictionaryId}`,
      );
    }
    const target = await importTarget(scope, {
      ...options,
      stagingAreaId: undefined,
      dictionaryId: area.dictionary_id,
    });
    return target.kind === 'existing' ? { ...target, stagingAreaId: area.id } : target;
  }
  if (options.dictionaryId === undefined) {
    if (!isClientAdmin(scope.actor)) {
      throw new AppError('FORBIDDEN', 'Only administrators import into a new dictionary');
    }
    const name = options.name?.trim() || null;
    if (name) await assertNameFree(scope.em, scope.actor.clientId, name);
    return { kind: 'new', name };
  }
  const dictionary = await readableDictionary(scope, options.dictionaryId);
  // Concepts belong to their dictionary's client: import only into the client one acts in.
  if (dictionary.client.id !== scope.actor.clientId) throw notFound('Dictionary', options.dictionaryId);
  const sections = await scope.em.find(
    Section,
    { dictionary: dictionary.id },
    { filters: NO_TENANT, orderBy: { sortIndex: 'ASC', id: 'ASC' } },
  );
  const section = options.sectionOid ? sections.find((s) => s.oid === options.sectionOid) : sections[0];
  if (!section) {
    throw new AppError(
      'BAD_REQUEST',
      options.sectionOid
        ? `section-oid "${options.sectionOid}" is not a section of dictionary ${dictionary.id}`
        : `Dictionary ${dictionary.id} has no section to import into`,
    );
  }
  const admin = isDictionaryAdmin(scope.actor, dictionary);
  const permissions = admin ? undefined : (await dictionaryPermissions(scope, [dictionary.id]))[0];
  const importable = new Set(
    sections
      .filter((s) => admin || permissions?.sectionPermissions[String(s.id)]?.CONCEPT_IMPORT)
      .map((s) => s.id),
  );
  if (!importable.has(section.id)) {
    throw new AppError('FORBIDDEN', 'You may not import concepts into this section (CONCEPT_IMPORT)');
  }
  return {
    kind: 'existing',
    dictionaryId: dictionary.id,
    sectionId: section.id,
    importableSectionIds: importable,
  };
}

async function assertNameFree(em: EntityManager, clientId: number, name: string) {
  const clash = await em.count(
    Dictionary,
    { client: clientId, [lowerOf('name')]: name.toLowerCase() },
    { filters: NO_TENANT },
  );
  if (clash) throw new AppError('UNPROCESSABLE', `A dictionary named "${name}" already exists`);
}

/** A dictionary name no live dictionary of the client uses: `wanted`, then `wanted (2)`... */
async function freeName(em: EntityManager, clientId: number, wanted: string): Promise<string> {
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? '' : ` (${n})`;
    const name = `${wanted.slice(0, 255 - suffix.length)}${suffix}`;
    const clash = await em.count(
      Dictionary,
      { client: clientId, [lowerOf('name')]: name.toLowerCase() },
      { filters: NO_TENANT },
    );
    if (clash === 0) return name;
  }
}

/**
 * The first pass: the whole file parses (else 400 with line and reason); how many entries and terms. A
 * spreadsheet is read by its mapping (TBX and MultiTerm XML files by their root element).
 */
export async function scanFile(
  path: string,
  mapping?: SheetMapping,
  multiterm?: TermbaseSource['multiterm'],
): Promise<FileScan> {
  const source = await sourceOf(path, mapping);
  if (multiterm?.definition || multiterm?.targets) {
    if (source.format !== 'MULTITERM_XML') {
      throw new AppError(
        'BAD_REQUEST',
        'A termbase definition and a field mapping go with MultiTerm XML only',
      );
    }
    source.multiterm = multiterm;
  }
  const format = source.format;
  const seen: { header: TbxHeader | null } = { header: null };
  const tags = new Set<string>();
  let entries = 0;
  let terms = 0;
  try {
    const reading = readTermbaseFile(path, source, {
      onHeader: (header) => {
        seen.header = header;
      },
    });
    for await (const entry of reading) {
      entries++;
      for (const section of entry.languages) {
        if (tags.size < 10_000) tags.add(section.lang);
        terms += section.terms.length;
      }
    }
  } catch (error) {
    if (error instanceof TbxFormatError || error instanceof SheetFormatError) {
      throw new AppError('BAD_REQUEST', `Not a valid ${FORMAT_NAMES[format]} file: ${error.message}`);
    }
    throw error;
  }
  return { ...source, header: seen.header, entries, terms, nordic: usesNordicCodes(tags) };
}

async function sourceOf(path: string, mapping: SheetMapping | undefined): Promise<TermbaseSource> {
  if (!mapping) return { format: await termbaseFormat(path) };
  try {
    return { format: 'SPREADSHEET', sheet: { shape: await sheetShape(path, mapping), mapping } };
  } catch (error) {
    if (error instanceof SheetFormatError)
      throw new AppError('BAD_REQUEST', `Not a valid spreadsheet: ${error.reason}`);
    throw error;
  }
}

/**
 * The dictionary and section the import writes to, inside the job's transaction: a new dictionary is
 * made now, named as asked, else after the file's title or name.
 */
export async function targetDictionary(
  scope: Scope,
  em: EntityManager,
  target: ImportTarget,
  scan: Pick<FileScan, 'header'>,
  fileName: string | null,
): Promise<ImportPlace> {
  if (target.kind === 'existing') return target;
  const clientId = scope.actor.clientId;
  const wanted = target.name ?? defaultName(scan.header, fileName);
  if (target.name) await assertNameFree(em, clientId, target.name);
  const name = target.name ?? (await freeName(em, clientId, wanted));
  const client = em.getReference(Client, clientId);
  const audit = { createdById: scope.actor.userId, changedById: scope.actor.userId };
  const dictionary = em.create(Dictionary, { client, oid: newOid(), name, ...audit });
  const section = em.create(Section, { client, dictionary, oid: newOid(), name, ...audit });
  await em.flush();
  return { dictionaryId: dictionary.id, sectionId: section.id, importableSectionIds: new Set([section.id]) };
}

/** A new dictionary's name when none is given: the file's title, else the file name. */
function defaultName(header: TbxHeader | null, fileName: string | null): string {
  const title = header?.title?.replace(/\s+/g, ' ').trim();
  if (title) return title.slice(0, 255);
  const base = fileName?.replace(/\.[^.]*$/, '').trim();
  return (base || 'TBX import').slice(0, 255);
}
