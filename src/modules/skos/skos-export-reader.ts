/**
 * Reads what a SKOS export writes: the scheme, the domains as collections, then the concepts in id
 * order, a batch per query (keyset: id > last), each with its labels, notes and hierarchy, as SkosNodes.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Sql } from '../../shared/sql.js';
import { languageFieldsOf } from '../concept/concept-language-fields.js';
import { termStatusOf } from '../decoration/term-status.js';
import type { FieldLevel } from '../field/field.entity.js';
import { andSql } from '../filter/filter-sql.js';
import { languageTag } from '../tbx/tbx-mapping.js';
import {
  DCT,
  isAbsoluteIri,
  type LabelKind,
  SKOS,
  type SkosLiteral,
  type SkosNode,
  type SkosObject,
  XSD,
} from './skos-vocabulary.js';

/** Concepts read per query. */
const BATCH_SIZE = 500;

export interface ExportPlan {
  dictionaryId: number;
  dictionaryName: string;
  /** The dictionary's namespace: the scheme is it, concepts and collections are under it. */
  namespace: string;
  sectionIds: number[];
  /** TERM fields of data category USAGE_STATUS: a term's status (preferred, admitted...) comes from them. */
  usageStatusOids: string[];
  /** Fields written as documentation properties (definition, scopeNote...). */
  notes: { oid: string; level: FieldLevel; property: string }[];
  /** Language code (lower case) -> code and ISO 639-1 code, for the language tags. */
  languages: Map<string, { code: string; code2: string | null }>;
  /** A filter's criteria on concepts (alias c). */
  conceptWhere: Sql[];
  /** Languages, a filter's criteria and the workflow on terms (alias t); a concept needs a term left. */
  termWhere: Sql[];
  /** The languages written (the dictionary's codes); null: all. */
  languageCodes: Set<string> | null;
  deprecatedHidden: boolean;
}

interface ConceptRow {
  id: number;
  oid: string | null;
  cid: string;
  field_map: Record<string, string[]>;
  created_at: Date;
  changed_at: Date;
}

interface TermRow {
  concept_id: number;
  name: string;
  language_code: string;
  region_code: string | null;
  script_code: string | null;
  field_map: Record<string, string[]>;
}

interface RelationRow {
  concept_id: number;
  attribute: number;
  /** True when the batch's concept is the relation's source. */
  outgoing: boolean;
  other_oid: string | null;
  other_cid: string;
}

/** A concept's IRI: the IRI an import kept as its oid, else the namespace's `concept/<cid>`. */
export const conceptIri = (plan: ExportPlan, row: { oid: string | null; cid: string }): string =>
  row.oid && isAbsoluteIri(row.oid) ? row.oid : `${plan.namespace}concept/${row.cid}`;

const collectionIri = (plan: ExportPlan, domainId: number) => `${plan.namespace}domain/${domainId}`;
const dateTime = (date: Date): SkosLiteral => ({
  value: new Date(date).toISOString(),
  lang: null,
  datatype: `${XSD}dateTime`,
});

/** The scheme, the collections and the concepts, as nodes; `written` counts concepts and labels. */
export async function* skosNodes(
  em: EntityManager,
  plan: ExportPlan,
  written: { concepts: number; terms: number },
): AsyncGenerator<SkosNode> {
  const title: SkosLiteral = { value: plan.dictionaryName, lang: null };
  yield {
    subject: plan.namespace,
    types: [`${SKOS}ConceptScheme`],
    statements: [
      [`${DCT}title`, title],
      [`${SKOS}prefLabel`, title],
    ],
  };
  const domains = await em.execute<{ id: number; name: string }[]>(
    'select id, name from domains where dictionary_id = ? and not deleted order by sort_index, id',
    [plan.dictionaryId],
  );
  for (const domain of domains) {
    yield {
      subject: collectionIri(plan, domain.id),
      types: [`${SKOS}Collection`],
      statements: [[`${SKOS}prefLabel`, { value: domain.name, lang: null }]],
    };
  }
  const seen = plan.termWhere.length ? andSql(plan.termWhere) : null;
  // A concept with no term left (languages, filter, workflow) is not written, nor linked to; the
  // concept criteria and this are said of alias c.
  const visible: Sql = andSql([
    ...plan.conceptWhere,
    ...(seen
      ? [
          {
            text: `exists (select 1 from terms t where t.concept_id = c.id and not t.deleted${seen.text})`,
            params: seen.params,
          },
        ]
      : []),
  ]);
  let after = 0;
  for (;;) {
    const concepts = await em.execute<ConceptRow[]>(
      `select c.id, c.oid, c.cid, c.field_map, c.created_at, c.changed_at from concepts c
        where c.dictionary_id = ? and not c.deleted and c.section_id in (?) and c.id > ?${visible.text}
        order by c.id limit ${BATCH_SIZE}`,
      [plan.dictionaryId, plan.sectionIds, after, ...visible.params],
    );
    if (concepts.length === 0) return;
    after = concepts[concepts.length - 1]!.id;
    const ids = concepts.map((concept) => concept.id);
    const terms = await em.execute<TermRow[]>(
      `select t.concept_id, t.name, t.language_code, t.region_code, t.script_code, t.field_map from terms t
        where t.concept_id in (?) and not t.deleted${seen?.text ?? ''} order by t.concept_id, t.id`,
      [ids, ...(seen?.params ?? [])],
    );
    const domainLinks = await em.execute<{ concept_id: number; domain_id: number }[]>(
      `select cd.concept_id, cd.domain_id from concept_domains cd join domains d on d.id = cd.domain_id
        where cd.concept_id in (?) and not d.deleted order by cd.concept_id, d.sort_index, d.id`,
      [ids],
    );
    // The other concept (alias c) is linked to when the export writes it.
    const relations = await em.execute<RelationRow[]>(
      `select r.source_concept_id as concept_id, r.attribute, true as outgoing, c.oid as other_oid, c.cid as other_cid
         from concept_relations r join concepts c on c.id = r.target_concept_id
        where r.source_concept_id in (?) and not c.deleted and c.section_id in (?)${visible.text}
       union all
       select r.target_concept_id, r.attribute, false, c.oid, c.cid
         from concept_relations r join concepts c on c.id = r.source_concept_id
        where r.target_concept_id in (?) and not c.deleted and c.section_id in (?)${visible.text}
       order by 1, 4, 5`,
      [ids, plan.sectionIds, ...visible.params, ids, plan.sectionIds, ...visible.params],
    );
    const languageFields = await languageFieldsOf(em, ids);
    const languageWanted = (code: string) => !plan.languageCodes || plan.languageCodes.has(code);
    const termsOf = groupBy(terms);
    const domainsOf = groupBy(domainLinks);
    const relationsOf = groupBy(relations);
    for (const concept of concepts) {
      const node = conceptNode(
        plan,
        concept,
        termsOf.get(concept.id) ?? [],
        relationsOf.get(concept.id) ?? [],
        (languageFields.get(concept.id) ?? [])
          .filter((fields) => languageWanted(fields.languageCode))
          .map((fields) => ({
            tag: tagOf(plan, fields.languageCode, fields.regionCode, fields.scriptCode),
            fieldMap: fields.fieldMap,
          })),
      );
      written.concepts++;
      written.terms += (termsOf.get(concept.id) ?? []).length;
      yield node;
      // Membership is said by the collection; a node of its own keeps the concept's node whole.
      for (const link of domainsOf.get(concept.id) ?? []) {
        yield {
          subject: collectionIri(plan, link.domain_id),
          types: [],
          statements: [[`${SKOS}member`, { iri: node.subject }]],
        };
      }
    }
  }
}

function groupBy<T extends { concept_id: number }>(rows: readonly T[]): Map<number, T[]> {
  const map = new Map<number, T[]>();
  for (const row of rows) {
    const list = map.get(row.concept_id);
    if (list) list.push(row);
    else map.set(row.concept_id, [row]);
  }
  return map;
}

function tagOf(plan: ExportPlan, code: string, region: string | null, script: string | null): string {
  const language = plan.languages.get(code.toLowerCase()) ?? { code, code2: null };
  return languageTag(language, region, script);
}

/**
 * The label each term becomes, per language tag in term order: the first preferred term is the
 * prefLabel (a tag without one promotes its first admitted term, as SKOS readers show a concept in a
 * language only with a prefLabel), further preferred and admitted terms altLabels, deprecated terms
 * altLabels (hiddenLabels by option), forbidden terms hiddenLabels.
 */
function labelsOf(plan: ExportPlan, terms: readonly TermRow[]): [LabelKind, SkosLiteral][] {
  const byTag = new Map<string, { name: string; status: string }[]>();
  for (const term of terms) {
    const tag = tagOf(plan, term.language_code, term.region_code, term.script_code);
    const usage = plan.usageStatusOids.flatMap((oid) => term.field_map[oid] ?? []);
    const list = byTag.get(tag) ?? [];
    list.push({ name: term.name, status: termStatusOf(usage) });
    byTag.set(tag, list);
  }
  const labels: [LabelKind, SkosLiteral][] = [];
  for (const [tag, list] of byTag) {
    const pref = list.find((t) => t.status === 'preferred') ?? list.find((t) => t.status === 'admitted');
    for (const term of list) {
      const kind: LabelKind =
        term === pref
          ? 'prefLabel'
          : term.status === 'forbidden' || (term.status === 'deprecated' && plan.deprecatedHidden)
            ? 'hiddenLabel'
            : 'altLabel';
      labels.push([kind, { value: term.name, lang: tag }]);
    }
  }
  return labels;
}

function conceptNode(
  plan: ExportPlan,
  concept: ConceptRow,
  terms: readonly TermRow[],
  relations: readonly RelationRow[],
  languageFields: readonly { tag: string; fieldMap: Record<string, string[]> }[],
): SkosNode {
  const statements: [string, SkosObject][] = [[`${SKOS}inScheme`, { iri: plan.namespace }]];
  for (const [kind, literal] of labelsOf(plan, terms)) statements.push([`${SKOS}${kind}`, literal]);
  // Notes: concept fields without a language, term fields and language fields with theirs; a value
  // every term of a language holds alike is written once.
  const notes = new Map<string, [string, SkosLiteral]>();
  const addNotes = (level: FieldLevel, fieldMap: Record<string, string[]>, lang: string | null) => {
    for (const note of plan.notes) {
      if (note.level !== level) continue;
      for (const stored of fieldMap[note.oid] ?? []) {
        if (stored.trim() === '') continue;
        // Stored line breaks are CR LF; RDF literals carry LF, as the files we read do.
        const value = stored.replace(/\r\n?/g, '\n');
        notes.set(`${note.property}\u0000${lang}\u0000${value}`, [
          `${SKOS}${note.property}`,
          { value, lang },
        ]);
      }
    }
  };
  addNotes('CONCEPT', concept.field_map, null);
  for (const fields of languageFields) addNotes('TERM', fields.fieldMap, fields.tag);
  for (const term of terms) {
    addNotes('TERM', term.field_map, tagOf(plan, term.language_code, term.region_code, term.script_code));
  }
  statements.push(...notes.values());
  // GENERIC superordinate/subordinate and the partitive pair are SKOS's hierarchy; the rest is related.
  let broader = 0;
  for (const relation of relations) {
    const iri = conceptIri(plan, { oid: relation.other_oid, cid: relation.other_cid });
    const up = relation.attribute === 0 || relation.attribute === 2;
    const down = relation.attribute === 1 || relation.attribute === 3;
    const kind = up || down ? (up === relation.outgoing ? 'broader' : 'narrower') : 'related';
    if (kind === 'broader') broader++;
    statements.push([`${SKOS}${kind}`, { iri }]);
  }
  if (broader === 0) statements.push([`${SKOS}topConceptOf`, { iri: plan.namespace }]);
  statements.push(
    [`${DCT}created`, dateTime(concept.created_at)],
    [`${DCT}modified`, dateTime(concept.changed_at)],
  );
  return { subject: conceptIri(plan, concept), types: [`${SKOS}Concept`], statements };
}
