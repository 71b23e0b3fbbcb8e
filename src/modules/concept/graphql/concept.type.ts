/**
 * Concept, with its fields, terms, relations, related concepts and history, and the concept and
 * conceptByTerm queries (the concepts connection: concept-connection.type.ts). Top-level reads call the
 * concept procedures; nested ones load.
 */
import { TRPCError } from '@trpc/server';
import { builder, type GraphQLContext } from '../../../graphql/builder.js';
import { AuditInfoRef } from '../../../graphql/common.graphql.js';
import type { ConceptDto } from '../concept.schema.js';
import { CommentRef } from './comment.type.js';
import { LOAD_COST, PER_CONCEPT, perConcept } from './complexity.js';
import { conceptLoader, conceptOfTerm, readConcept } from './concept-loader.js';
import { ConceptLockRef } from './concept-lock.type.js';
import { ConceptRelationRef } from './concept-relation.type.js';
import { FieldValuesRef, fieldList } from './field-value.type.js';
import { HISTORY_COST, HISTORY_MAX, HistoryItemRef, historyLoader } from './history-item.type.js';
import { LanguageFieldsRef } from './language-fields.type.js';
import {
  DomainSummaryRef,
  domainLoader,
  type NamedSummary,
  SectionSummaryRef,
  sectionLoader,
} from './named-summary.type.js';
import { RefLinkRef } from './ref-link.type.js';
import { ConceptRef, TermRef } from './refs.js';

/** Deepest `related` walk, and the most concepts one walk answers. */
const RELATED_MAX_DEPTH = 3;
const RELATED_MAX_CONCEPTS = 500;

/**
 * The concepts reachable from `start` through relations (either direction) up to `depth` steps,
 * breadth first, each once, one loader batch per level; unreadable concepts are neither shown nor crossed.
 */
async function relatedConcepts(context: GraphQLContext, start: ConceptDto, depth: number) {
  const visited = new Set([start.id]);
  const found: ConceptDto[] = [];
  let frontier = [start];
  for (let level = 0; level < depth && frontier.length > 0; level++) {
    const next: number[] = [];
    for (const concept of frontier) {
      for (const relation of concept.conceptRelations) {
        for (const id of [relation.sourceConceptId, relation.targetConceptId]) {
          if (visited.has(id) || visited.size >= RELATED_MAX_CONCEPTS + 1) continue;
          visited.add(id);
          next.push(id);
        }
      }
    }
    const loaded = await conceptLoader(context).loadMany(next);
    const failure = loaded.find((entry) => entry instanceof Error);
    if (failure) throw failure;
    frontier = loaded.filter((entry): entry is ConceptDto => entry !== null && !(entry instanceof Error));
    found.push(...frontier);
  }
  return found;
}

const relationsOf = (concept: ConceptDto, direction: 'out' | 'in' | 'both') =>
  concept.conceptRelations.filter(
    (relation) =>
      direction === 'both' ||
      (direction === 'out' ? relation.sourceConceptId : relation.targetConceptId) === concept.id,
  );

ConceptRef.implement({
  description: 'A concept: the terms that share a meaning, with its fields, domains, relations and comments.',
  fields: (t) => {
    const relations = (direction: 'out' | 'in' | 'both', description: string) =>
      t.field({
        type: [ConceptRelationRef],
        complexity: perConcept,
        description,
        resolve: (concept) => relationsOf(concept, direction),
      });
    return {
      id: t.exposeInt('id'),
      oid: t.exposeString('oid', { nullable: true }),
      version: t.exposeInt('version'),
      clientId: t.exposeInt('clientId'),
      dictionaryId: t.exposeInt('dictionaryId'),
      cid: t.exposeString('cid', { description: 'serial number inside the dictionary' }),
      deleted: t.exposeBoolean('deleted'),
      sectionId: t.exposeInt('sectionId'),
      sectionOid: t.exposeString('sectionOid', { nullable: true }),
      section: t.field({
        type: SectionSummaryRef,
        nullable: true,
        complexity: LOAD_COST,
        resolve: (concept, _, context) => sectionLoader(context).load(concept.sectionId),
      }),
      domainList: t.exposeStringList('domainList', { description: 'domain oids' }),
      domains: t.field({
        type: [DomainSummaryRef],
        complexity: { field: LOAD_COST, multiplier: PER_CONCEPT },
        resolve: async (concept, _, context) => {
          const domains = await domainLoader(context).loadMany(
            concept.domainList.map((oid) => ({ dictionaryId: concept.dictionaryId, oid })),
          );
          const failure = domains.find((entry) => entry instanceof Error);
          if (failure) throw failure;
          return domains.filter(
            (entry): entry is NamedSummary => entry !== null && !(entry instanceof Error),
          );
        },
      }),
      fieldMap: t.field({
        type: 'JSON',
        description: 'field oid to values',
        resolve: (concept) => concept.fieldMap,
      }),
      fields: t.field({
        type: [FieldValuesRef],
        complexity: perConcept,
        description: "the fieldMap as a list, in the dictionary's field order",
        resolve: (concept, _, context) => fieldList(context, concept.dictionaryId, concept.fieldMap),
      }),
      terms: t.field({ type: [TermRef], complexity: perConcept, resolve: (concept) => concept.terms }),
      languageFields: t.field({
        type: [LanguageFieldsRef],
        complexity: perConcept,
        description: 'values that hold for a language as a whole, per language tag',
        resolve: (concept) => concept.languageFields ?? [],
      }),
      refLinks: t.field({
        type: [RefLinkRef],
        complexity: perConcept,
        description: 'links in concept-level fields',
        resolve: (concept) => concept.refLinks,
      }),
      comments: t.field({
        type: [CommentRef],
        complexity: perConcept,
        description: 'the latest comments on the concept itself',
        resolve: (concept) => concept.comments,
      }),
      permissions: t.field({ type: 'JSON', resolve: (concept) => concept.permissions }),
      languageCodesEditable: t.exposeStringList('languageCodesEditable'),
      lock: t.field({ type: ConceptLockRef, nullable: true, resolve: (concept) => concept.lock }),
      created: t.field({ type: AuditInfoRef, resolve: (concept) => concept.created }),
      changed: t.field({ type: AuditInfoRef, resolve: (concept) => concept.changed }),
      relations: relations('both', 'relations from and to this concept'),
      outgoing: relations('out', 'relations whose source is this concept'),
      incoming: relations('in', 'relations whose target is this concept'),
      related: t.field({
        type: [ConceptRef],
        description: `the concepts reachable through relations (either direction) within depth steps, nearest first, each once; at most ${RELATED_MAX_CONCEPTS}; concepts the caller may not read are neither shown nor crossed`,
        args: { depth: t.arg.int({ defaultValue: 1, description: `1 to ${RELATED_MAX_DEPTH}` }) },
        complexity: (args) => {
          const reached = PER_CONCEPT ** Math.min(Math.max(args.depth ?? 1, 1), RELATED_MAX_DEPTH);
          // Every concept reached is loaded: LOAD_COST each, besides what is selected of it.
          return { field: LOAD_COST * reached, multiplier: reached };
        },
        resolve: (concept, args, context) => {
          const depth = args.depth ?? 1;
          if (!Number.isInteger(depth) || depth < 1 || depth > RELATED_MAX_DEPTH) {
            throw new TRPCError({
              code: 'BAD_REQUEST',
              message: `depth must be between 1 and ${RELATED_MAX_DEPTH}`,
            });
          }
          return relatedConcepts(context, concept, depth);
        },
      }),
      history: t.field({
        type: [HistoryItemRef],
        nullable: true,
        description: `the latest changes, newest first (CONCEPT_VIEW_HISTORY, else a FORBIDDEN error); first: 1 to ${HISTORY_MAX}`,
        args: { first: t.arg.int({ defaultValue: 20 }) },
        complexity: (args) => ({
          field: HISTORY_COST,
          multiplier: Math.min(Math.max(args.first ?? 20, 1), HISTORY_MAX),
        }),
        resolve: async (concept, args, context) => {
          const first = args.first ?? 20;
          if (!Number.isInteger(first) || first < 1 || first > HISTORY_MAX) {
            throw new TRPCError({
              code: 'BAD_REQUEST',
              message: `first must be between 1 and ${HISTORY_MAX}`,
            });
          }
          return historyLoader(context).load({ conceptId: concept.id, first });
        },
      }),
    };
  },
});

builder.queryFields((t) => ({
  concept: t.field({
    type: ConceptRef,
    description: 'A concept (NOT_FOUND for another client, a deleted concept or an unreadable section).',
    args: { id: t.arg.int({ required: true }) },
    resolve: (_, args, context) => readConcept(context, args.id),
  }),
  conceptByTerm: t.field({
    type: ConceptRef,
    description: 'The concept of a term.',
    args: { termId: t.arg.int({ required: true }) },
    resolve: (_, args, context) => conceptOfTerm(context, args.termId),
  }),
}));
