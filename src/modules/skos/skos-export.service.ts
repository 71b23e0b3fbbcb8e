/**
 * SKOS export (docs/exchange.md): a dictionary as one skos:ConceptScheme, its domains as skos:Collection
 * and its live concepts as skos:Concept, read in keyset batches (skos-export-reader.ts) and written as
 * Turtle, RDF/XML or JSON-LD as they are read. As in the TBX export, sections without CONCEPT_EXPORT are
 * left out, and so are terms of unpublished workflow states unless a reviewer asks for them; languages,
 * fields and a filter restrict what is written (tbx-export-restriction.ts).
 */
import { AppError, notFound } from '../../shared/errors.js';
import type { Scope } from '../../shared/scope.js';
import { dictionaryPermissions, isDictionaryAdmin } from '../access/access.service.js';
import { readableDictionary } from '../dictionary/dictionary-access.js';
import { fieldsOf } from '../field/field.service.js';
import { languagesOf } from '../language/language.service.js';
import { Section } from '../section/section.entity.js';
import { exportedStates } from '../tbx/tbx-export-plan.js';
import { exportRestriction } from '../tbx/tbx-export-restriction.js';
import { enabledWorkflows } from '../workflow/workflow-effects.js';
import { seenTermSql } from '../workflow/workflow-visibility.js';
import { type ExportPlan, skosNodes } from './skos-export-reader.js';
import { noteProperty } from './skos-vocabulary.js';
import { SKOS_MEDIA_TYPES, type SkosFormat, writeSkos } from './skos-writers.js';

const NO_TENANT = { tenant: false } as const;
/** The job type recording a SKOS download (tbx-export-job.ts). */
export const SKOS_EXPORT_JOB = 'dictionaries.export-skos';

export interface SkosExportInput {
  id: number;
  format: SkosFormat;
  /** The dictionary's namespace; absent: SKOS_BASE_IRI (or `origin`/skos/) + the dictionary id + `/`. */
  baseIri?: string;
  /** The server's own address, for the default namespace when neither BASE_URL nor SKOS_BASE_IRI is set. */
  origin: string;
  /** Deprecated terms as skos:hiddenLabel instead of skos:altLabel. */
  deprecatedHidden?: boolean;
  /** Workflow (docs/workflows.md): also terms of unpublished entries (reviewers only). */
  includeUnpublished?: boolean;
  /** As in the TBX export: language codes, field oids (empty: all) and a filter and a saved query. */
  languages?: readonly string[];
  fields?: readonly string[];
  filterId?: number;
  savedQueryId?: number | undefined;
}

export interface SkosDownload {
  fileName: string;
  contentType: string;
  chunks: AsyncIterable<string>;
  /** Once the chunks are consumed: the concepts and labels written. */
  written: { concepts: number; terms: number };
  dictionaryId: number;
  format: SkosFormat;
}

/** The namespace of a dictionary's IRIs: the one asked for, else the configured or derived base + id. */
export function namespaceOf(
  input: Pick<SkosExportInput, 'baseIri' | 'origin'>,
  config: { SKOS_BASE_IRI?: string; BASE_URL?: string },
  dictionaryId: number,
): string {
  if (input.baseIri) return input.baseIri;
  const base = config.SKOS_BASE_IRI ?? `${(config.BASE_URL ?? input.origin).replace(/\/+$/, '')}/skos/`;
  return `${base}${base.endsWith('/') || base.endsWith('#') ? '' : '/'}${dictionaryId}/`;
}

/**
 * Checks the caller may export (CONCEPT_EXPORT in a section, or administration), then answers the lazily
 * produced file.
 */
export async function exportSkos(scope: Scope, input: SkosExportInput): Promise<SkosDownload> {
  const dictionary = await readableDictionary(scope, input.id);
  if (dictionary.client.id !== scope.actor.clientId) throw notFound('Dictionary', input.id);
  const sections = await scope.em.find(Section, { dictionary: dictionary.id }, { filters: NO_TENANT });
  const admin = isDictionaryAdmin(scope.actor, dictionary);
  const permissions = admin ? undefined : (await dictionaryPermissions(scope, [dictionary.id]))[0];
  const sectionIds = sections
    .filter((s) => admin || permissions?.sectionPermissions[String(s.id)]?.CONCEPT_EXPORT)
    .map((s) => s.id);
  if (sectionIds.length === 0) {
    throw new AppError('FORBIDDEN', 'You may not export concepts of this dictionary (CONCEPT_EXPORT)');
  }
  const { fields } = await fieldsOf(scope.em, [dictionary.id]);
  const { languages } = await languagesOf(scope.em, [dictionary.id]);
  const restriction = await exportRestriction(
    scope,
    dictionary.id,
    {
      languages: input.languages ?? [],
      fields: input.fields ?? [],
      filterId: input.filterId,
      savedQueryId: input.savedQueryId,
    },
    fields,
    languages,
  );
  const workflow = (await enabledWorkflows(scope.em, [dictionary.id])).get(dictionary.id) ?? null;
  const seen = workflow ? seenTermSql(workflow, await exportedStates(scope, workflow, input)) : null;
  if (seen) restriction.termWhere.push(seen);
  const plan: ExportPlan = {
    dictionaryId: dictionary.id,
    dictionaryName: dictionary.name,
    namespace: namespaceOf(input, scope.config, dictionary.id),
    sectionIds,
    usageStatusOids: fields
      .filter((f) => f.level === 'TERM' && f.dataCategory === 'USAGE_STATUS' && f.oid)
      .map((f) => f.oid!),
    // The fields asked for restrict the notes; a term's status still decides its label.
    notes: fields.flatMap((f) => {
      const property =
        f.oid && (!restriction.fieldOids || restriction.fieldOids.has(f.oid)) ? noteProperty(f) : null;
      return property ? [{ oid: f.oid!, level: f.level, property }] : [];
    }),
    languages: new Map(
      languages.map((l) => [l.code.toLowerCase(), { code: l.code, code2: l.code2 ?? null }]),
    ),
    conceptWhere: restriction.conceptWhere,
    termWhere: restriction.termWhere,
    languageCodes: restriction.languageCodes,
    deprecatedHidden: input.deprecatedHidden ?? false,
  };
  const written = { concepts: 0, terms: 0 };
  const safeName =
    [...dictionary.name]
      .map((char) => (char < ' ' || '\\/:*?"<>|'.includes(char) ? '_' : char))
      .join('')
      .trim() || 'dictionary';
  const media = SKOS_MEDIA_TYPES[input.format];
  return {
    fileName: `${safeName}.${media.extension}`,
    contentType: media.type,
    chunks: writeSkos(input.format, skosNodes(scope.em.fork(), plan, written)),
    written,
    dictionaryId: dictionary.id,
    format: input.format,
  };
}
