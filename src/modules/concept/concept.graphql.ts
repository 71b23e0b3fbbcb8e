/**
 * Concepts and terms over GraphQL. Top-level reads and every write call the concept procedures through
 * `ctx.api`; concepts reached inside a query (relation ends, a term's concept, related concepts, a page
 * of concepts) come from one per-request DataLoader that renders each batch with a fixed number of
 * queries, so a page of 50 concepts with their relations' targets costs what a page of 5 costs.
 */
import { TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import DataLoader from 'dataloader';
import { databaseErrorToAppError } from '../../db/errors.js';
import { builder, defined, type GraphQLContext } from '../../graphql/builder.js';
import { AuditInfoRef } from '../../graphql/common.graphql.js';
import { AppError, type AppErrorCode } from '../../shared/errors.js';
import type { Scope } from '../../shared/scope.js';
import { authedProcedure, createCallerFactory, router } from '../../trpc/trpc.js';
import { Domain } from '../domain/domain.entity.js';
import { Field } from '../field/field.entity.js';
import type { HistoryItem } from '../history/history.schema.js';
import { latestHistories } from '../history/history.service.js';
import { Section } from '../section/section.entity.js';
import { RefLinkTypes, RelationAttributes, RelationTypes } from './concept.entity.js';
import type {
  CommentDto,
  ConceptDto,
  ConceptLockDto,
  ConceptOutput,
  ConceptRelationDto,
  RefLinkDto,
  TermDto,
} from './concept.schema.js';
import { CONCEPT_PAGE_MAX, conceptIdOfLiveTerm, listConcepts, renderedConcepts } from './concept-list.js';

const ANY_STATE = { tenant: false, notDeleted: false } as const;

/** Deepest `related` walk, and the most concepts one walk answers. */
const RELATED_MAX_DEPTH = 3;
const RELATED_MAX_CONCEPTS = 500;
const HISTORY_MAX = 200;
/** Histories are read in one batch per request tick; an item costs a little more than a term. */
const HISTORY_COST = 2;

// Cost estimates for the complexity limit (src/graphql/builder.ts): items a nested list usually holds.
const PER_CONCEPT = 5;
/** A concept loaded through the DataLoader costs more than a member of an object already in memory. */
const LOAD_COST = 2;

// ---------------------------------------------------------------- request state

interface FieldSummary {
  id: number;
  oid: string;
  name: string;
  fieldType: string;
  level: string;
  dataCategory: string;
  sortIndex: number;
}

interface NamedSummary {
  id: number;
  oid: string | null;
  name: string;
}

/** Format SHORT answers every member of a history item but the snapshot. */
type HistoryItemShape = Omit<HistoryItem, 'snapshot'>;

interface RequestState {
  scope?: Promise<Scope>;
  concepts?: DataLoader<number, ConceptDto | null>;
  fields?: DataLoader<number, Map<string, FieldSummary>>;
  domains?: DataLoader<DomainKey, NamedSummary | null, string>;
  sections?: DataLoader<number, NamedSummary | null>;
  histories?: DataLoader<HistoryKey, HistoryItemShape[], string>;
}

interface HistoryKey {
  conceptId: number;
  first: number;
}

const states = new WeakMap<GraphQLContext, RequestState>();
function stateOf(context: GraphQLContext): RequestState {
  let state = states.get(context);
  if (!state) {
    state = {};
    states.set(context, state);
  }
  return state;
}

/**
 * The caller's domain scope, resolved once per GraphQL request through the authed tier (token, tenant
 * filter, API request count), so nested loads reuse one permission subject instead of one per batch.
 */
const callScopeTier = createCallerFactory(router({ scope: authedProcedure.query(({ ctx }) => ctx.scope) }));
function scopeOf(context: GraphQLContext): Promise<Scope> {
  const state = stateOf(context);
  state.scope ??= callScopeTier(context.request).scope();
  return state.scope;
}

const trpcCodeOf = (code: AppErrorCode): TRPC_ERROR_CODE_KEY =>
  code === 'UNPROCESSABLE' ? 'UNPROCESSABLE_CONTENT' : code;

const trpcErrorOf = (appError: AppError) =>
  new TRPCError({ code: trpcCodeOf(appError.code), message: appError.message, cause: appError });

/** Domain code called outside a procedure: its AppErrors keep their code, as the procedures' would. */
async function domainCall<T>(context: GraphQLContext, work: (scope: Scope) => Promise<T>): Promise<T> {
  const scope = await scopeOf(context);
  try {
    return await work(scope);
  } catch (error) {
    const appError = error instanceof AppError ? error : databaseErrorToAppError(error);
    if (!appError) throw error;
    throw trpcErrorOf(appError);
  }
}

/** Readable concepts by id, one batch per request tick; null where the caller may not read one. */
function conceptLoader(context: GraphQLContext): DataLoader<number, ConceptDto | null> {
  const state = stateOf(context);
  state.concepts ??= new DataLoader((ids: readonly number[]) =>
    domainCall(context, (scope) => renderedConcepts(scope, ids)),
  );
  return state.concepts;
}

/** A readable concept through the request's loader (null when the caller may not read it). */
export const loadConcept = (context: GraphQLContext, id: number) => conceptLoader(context).load(id);

/** Concepts answered by a procedure or a page are known: nested fields reaching them load nothing. */
function remember(context: GraphQLContext, concepts: readonly ConceptDto[]): void {
  const loader = conceptLoader(context);
  for (const concept of concepts) loader.prime(concept.id, concept);
}

/** After a write every concept may have changed (relations have two ends), and its history grown. */
function forget(context: GraphQLContext): void {
  stateOf(context).concepts?.clearAll();
  stateOf(context).histories?.clearAll();
}

/**
 * The latest items of each concept's history, one batch per request tick and `first`: a concept whose
 * history the caller may not see gets its own error (FORBIDDEN or NOT_FOUND), the others their items.
 */
function historyLoader(context: GraphQLContext): DataLoader<HistoryKey, HistoryItemShape[], string> {
  const state = stateOf(context);
  state.histories ??= new DataLoader(
    async (keys: readonly HistoryKey[]) => {
      const answers = new Map<string, HistoryItemShape[] | Error>();
      for (const first of new Set(keys.map((key) => key.first))) {
        const ids = keys.filter((key) => key.first === first).map((key) => key.conceptId);
        const histories = await domainCall(context, (scope) => latestHistories(scope, ids, first));
        histories.forEach((history, index) => {
          answers.set(
            `${ids[index]}:${first}`,
            history instanceof AppError ? trpcErrorOf(history) : (history as HistoryItemShape[]),
          );
        });
      }
      return keys.map((key) => answers.get(`${key.conceptId}:${key.first}`)!);
    },
    { cacheKeyFn: (key) => `${key.conceptId}:${key.first}` },
  );
  return state.histories;
}

/** The fields of the dictionaries of the concepts shown, by oid (deleted ones too: old values stay). */
function fieldLoader(context: GraphQLContext): DataLoader<number, Map<string, FieldSummary>> {
  const state = stateOf(context);
  state.fields ??= new DataLoader((dictionaryIds: readonly number[]) =>
    domainCall(context, async (scope) => {
      const fields = await scope.em.find(
        Field,
        { dictionary: { $in: [...dictionaryIds] } },
        { filters: ANY_STATE, orderBy: { deleted: 'ASC', sortIndex: 'ASC', id: 'ASC' } },
      );
      return dictionaryIds.map((dictionaryId) => {
        const map = new Map<string, FieldSummary>();
        for (const field of fields) {
          if (field.dictionary.id !== dictionaryId || !field.oid || map.has(field.oid)) continue;
          map.set(field.oid, {
            id: field.id,
            oid: field.oid,
            name: field.name,
            fieldType: field.fieldType,
            level: field.level,
            dataCategory: field.dataCategory,
            sortIndex: field.sortIndex,
          });
        }
        return map;
      });
    }),
  );
  return state.fields;
}

const summary = (row: { id: number; oid?: string | null; name: string }): NamedSummary => ({
  id: row.id,
  oid: row.oid ?? null,
  name: row.name,
});

interface DomainKey {
  dictionaryId: number;
  oid: string;
}

/** Domains by dictionary and oid (a concept's domainList names them by oid; a copied dictionary may repeat one). */
function domainLoader(context: GraphQLContext): DataLoader<DomainKey, NamedSummary | null, string> {
  const state = stateOf(context);
  state.domains ??= new DataLoader(
    (keys: readonly DomainKey[]) =>
      domainCall(context, async (scope) => {
        const domains = await scope.em.find(
          Domain,
          {
            dictionary: { $in: [...new Set(keys.map((key) => key.dictionaryId))] },
            oid: { $in: [...new Set(keys.map((key) => key.oid))] },
            client: scope.actor.clientId,
          },
          { filters: ANY_STATE },
        );
        const found = new Map(
          domains.map((domain) => [`${domain.dictionary.id}:${domain.oid}`, summary(domain)]),
        );
        return keys.map((key) => found.get(`${key.dictionaryId}:${key.oid}`) ?? null);
      }),
    { cacheKeyFn: (key) => `${key.dictionaryId}:${key.oid}` },
  );
  return state.domains;
}

/** Section names of the concepts shown (deleted sections too: a concept keeps its section). */
function sectionLoader(context: GraphQLContext): DataLoader<number, NamedSummary | null> {
  const state = stateOf(context);
  state.sections ??= new DataLoader((ids: readonly number[]) =>
    domainCall(context, async (scope) => {
      const sections = await scope.em.find(
        Section,
        { id: { $in: [...ids] }, client: scope.actor.clientId },
        { filters: ANY_STATE },
      );
      const byId = new Map(sections.map((section) => [section.id, summary(section)]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
  );
  return state.sections;
}

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

// ---------------------------------------------------------------- output types

interface FieldValuesShape {
  dictionaryId: number;
  fieldOid: string;
  values: string[];
}

/** A fieldMap as a list in the dictionary's field order (fields unknown to the dictionary last). */
async function fieldList(context: GraphQLContext, dictionaryId: number, map: Record<string, string[]>) {
  const fields = await fieldLoader(context).load(dictionaryId);
  const rank = (oid: string) => fields.get(oid)?.sortIndex ?? Number.MAX_SAFE_INTEGER;
  return Object.entries(map)
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([fieldOid, values]): FieldValuesShape => ({ dictionaryId, fieldOid, values }));
}

const FieldSummaryRef = builder.objectRef<FieldSummary>('FieldSummary').implement({
  description: 'The field a value belongs to.',
  fields: (t) => ({
    id: t.exposeInt('id'),
    oid: t.exposeString('oid'),
    name: t.exposeString('name'),
    fieldType: t.exposeString('fieldType'),
    level: t.exposeString('level', { description: 'CONCEPT or TERM' }),
    dataCategory: t.exposeString('dataCategory'),
  }),
});

const FieldValuesRef = builder.objectRef<FieldValuesShape>('FieldValues').implement({
  description: 'The values of one field (several only for MULTISELECT fields).',
  fields: (t) => ({
    fieldOid: t.exposeString('fieldOid'),
    field: t.field({
      type: FieldSummaryRef,
      nullable: true,
      description: "null when the oid names no field of the concept's dictionary",
      complexity: LOAD_COST,
      resolve: async (entry, _, context) =>
        (await fieldLoader(context).load(entry.dictionaryId)).get(entry.fieldOid) ?? null,
    }),
    values: t.exposeStringList('values'),
  }),
});

const namedSummaryRef = (name: string, description: string) =>
  builder.objectRef<NamedSummary>(name).implement({
    description,
    fields: (t) => ({
      id: t.exposeInt('id'),
      oid: t.exposeString('oid', { nullable: true }),
      name: t.exposeString('name'),
    }),
  });
const DomainSummaryRef = namedSummaryRef('DomainSummary', 'A domain a concept belongs to.');
const SectionSummaryRef = namedSummaryRef('SectionSummary', 'The section a concept is filed in.');

const CommentRef = builder.objectRef<CommentDto>('Comment').implement({
  description: 'A comment on a concept or a term (the latest 50 per entry).',
  fields: (t) => ({
    id: t.exposeInt('id'),
    oid: t.exposeString('oid', { nullable: true }),
    text: t.exposeString('text'),
    authorName: t.exposeString('authorName', { nullable: true }),
    userId: t.exposeInt('userId', { nullable: true }),
    dictionaryId: t.exposeInt('dictionaryId'),
    fieldLevel: t.exposeString('fieldLevel', { description: 'CONCEPT or TERM' }),
    entryId: t.exposeInt('entryId', { description: 'the concept id or the term id' }),
    date: t.exposeFloat('date', { description: 'ms epoch' }),
  }),
});

const RefLinkTypeEnum = builder.enumType('RefLinkType', { values: RefLinkTypes });

const RefLinkRef = builder.objectRef<RefLinkDto>('RefLink').implement({
  description: 'A cross-reference inside a field value.',
  fields: (t) => ({
    id: t.exposeInt('id'),
    oid: t.exposeString('oid', { nullable: true }),
    sourceConceptId: t.exposeInt('sourceConceptId'),
    sourceTermId: t.exposeInt('sourceTermId', { nullable: true }),
    sourceFieldOid: t.exposeString('sourceFieldOid'),
    type: t.field({ type: RefLinkTypeEnum, resolve: (link) => link.type }),
    text: t.exposeString('text'),
    dynamicText: t.exposeString('dynamicText', { nullable: true }),
    position: t.exposeInt('position', { description: 'start offset; a line break (CR LF) counts two' }),
    url: t.exposeString('url', { nullable: true }),
    conceptId: t.exposeInt('conceptId', { nullable: true }),
    termId: t.exposeInt('termId', { nullable: true }),
    languageCode: t.exposeString('languageCode', { nullable: true }),
    dictionaryId: t.exposeInt('dictionaryId'),
    invalid: t.exposeBoolean('invalid', { description: 'true when the target concept or term is deleted' }),
  }),
});

const ConceptLockRef = builder.objectRef<ConceptLockDto>('ConceptLock').implement({
  description: 'A live edit lock.',
  fields: (t) => ({
    userId: t.exposeInt('userId'),
    name: t.exposeString('name', { nullable: true, description: 'login of the holder' }),
    fullName: t.exposeString('fullName', { nullable: true }),
    mine: t.exposeBoolean('mine', { description: "true when the caller's session holds the lock" }),
    expirationTime: t.exposeFloat('expirationTime', { description: 'ms epoch' }),
  }),
});

const HistoryItemRef = builder.objectRef<HistoryItemShape>('HistoryItem').implement({
  description: 'One change of a concept.',
  fields: (t) => ({
    id: t.exposeInt('id'),
    revision: t.exposeInt('revision', { description: 'the concept version this change produced' }),
    action: t.exposeString('action', { description: 'CREATE, UPDATE, DELETE, RESTORE or UNDO' }),
    userId: t.int({ nullable: true, resolve: (item) => item.user.id }),
    time: t.exposeFloat('time', { description: 'ms epoch' }),
    changes: t.field({
      type: 'JSON',
      description:
        'what differs from the state before: [{kind, subject, termId?, fieldOid?, relationId?, before?, after?}]',
      resolve: (item) => item.changes,
    }),
    restoredFromId: t.exposeInt('restoredFromId', {
      nullable: true,
      description: 'UNDO and RESTORE: the item whose state came back',
    }),
  }),
});

export const ConceptRef = builder.objectRef<ConceptDto>('Concept');
const TermRef = builder.objectRef<TermDto>('Term');

const ConceptRelationRef = builder.objectRef<ConceptRelationDto>('ConceptRelation').implement({
  description: 'A relation between two concepts of one dictionary; it shows on both.',
  fields: (t) => ({
    id: t.exposeInt('id'),
    oid: t.exposeString('oid', { nullable: true }),
    dictionaryId: t.exposeInt('dictionaryId'),
    relationId: t.exposeInt('relationId', { description: 'serial number inside the dictionary' }),
    sourceConceptId: t.exposeInt('sourceConceptId'),
    targetConceptId: t.exposeInt('targetConceptId'),
    type: t.exposeInt('type', {
      description: 'GENERIC 0, PARTITIVE 1, TEMPORAL 2, SPATIAL 3, ASSOCIATIVE 4',
    }),
    typeName: t.string({ resolve: (relation) => RelationTypes[relation.type] ?? String(relation.type) }),
    attribute: t.exposeInt('attribute'),
    attributeName: t.string({
      resolve: (relation) => RelationAttributes[relation.attribute] ?? String(relation.attribute),
    }),
    text: t.exposeString('text', { nullable: true }),
    source: t.field({
      type: ConceptRef,
      nullable: true,
      description: 'null when the caller may not read it',
      complexity: LOAD_COST,
      resolve: (relation, _, context) => conceptLoader(context).load(relation.sourceConceptId),
    }),
    target: t.field({
      type: ConceptRef,
      nullable: true,
      description: 'null when the caller may not read it',
      complexity: LOAD_COST,
      resolve: (relation, _, context) => conceptLoader(context).load(relation.targetConceptId),
    }),
  }),
});

const perConcept = { field: 1, multiplier: PER_CONCEPT };

TermRef.implement({
  description: 'A term: one name of a concept in one language.',
  fields: (t) => ({
    id: t.exposeInt('id'),
    oid: t.exposeString('oid', { nullable: true }),
    version: t.exposeInt('version'),
    clientId: t.exposeInt('clientId'),
    dictionaryId: t.exposeInt('dictionaryId'),
    conceptId: t.exposeInt('conceptId'),
    conceptOid: t.exposeString('conceptOid', { nullable: true }),
    tid: t.exposeInt('tid', { description: 'serial number inside the dictionary' }),
    name: t.exposeString('name'),
    languageCode: t.exposeString('languageCode'),
    regionCode: t.exposeString('regionCode', { nullable: true }),
    scriptCode: t.exposeString('scriptCode', { nullable: true }),
    deleted: t.exposeBoolean('deleted'),
    permissions: t.field({ type: 'JSON', resolve: (term) => term.permissions }),
    fieldMap: t.field({ type: 'JSON', description: 'field oid to values', resolve: (term) => term.fieldMap }),
    fields: t.field({
      type: [FieldValuesRef],
      complexity: perConcept,
      resolve: (term, _, context) => fieldList(context, term.dictionaryId, term.fieldMap),
    }),
    refLinks: t.field({ type: [RefLinkRef], complexity: perConcept, resolve: (term) => term.refLinks }),
    comments: t.field({ type: [CommentRef], complexity: perConcept, resolve: (term) => term.comments }),
    created: t.field({ type: AuditInfoRef, resolve: (term) => term.created }),
    changed: t.field({ type: AuditInfoRef, resolve: (term) => term.changed }),
    concept: t.field({
      type: ConceptRef,
      complexity: LOAD_COST,
      resolve: async (term, _, context) => {
        const concept = await conceptLoader(context).load(term.conceptId);
        if (!concept)
          throw new TRPCError({ code: 'NOT_FOUND', message: `Concept ${term.conceptId} not found` });
        return concept;
      },
    }),
  }),
});

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
        complexity: (args) => ({
          field: LOAD_COST,
          multiplier: PER_CONCEPT ** Math.min(Math.max(args.depth ?? 1, 1), RELATED_MAX_DEPTH),
        }),
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

// ---------------------------------------------------------------- reads

/** Concept reads answer FULL with the latest comments, like GET /concepts/{id}?with-comments=true. */
const READ = { format: 'FULL', 'with-comments': true, 'include-deleted': false } as const;
const full = (output: ConceptOutput) => output as ConceptDto;

/**
 * The concept of a term, read as concept(id) reads it. Not api.concepts.findByTermId: that procedure
 * answers 500 while conceptIdOfTerm loads a partial Term (the full load later loses the term's version).
 */
async function conceptOfTerm(context: GraphQLContext, termId: number): Promise<ConceptDto> {
  const id = await domainCall(context, (scope) => conceptIdOfLiveTerm(scope, termId));
  const concept = full(await context.api.concepts.get({ id, ...READ }));
  remember(context, [concept]);
  return concept;
}

builder.queryFields((t) => ({
  concept: t.field({
    type: ConceptRef,
    description: 'A concept (NOT_FOUND for another client, a deleted concept or an unreadable section).',
    args: { id: t.arg.int({ required: true }) },
    resolve: async (_, args, context) => {
      const concept = full(await context.api.concepts.get({ id: args.id, ...READ }));
      remember(context, [concept]);
      return concept;
    },
  }),
  conceptByTerm: t.field({
    type: ConceptRef,
    description: 'The concept of a term.',
    args: { termId: t.arg.int({ required: true }) },
    resolve: (_, args, context) => conceptOfTerm(context, args.termId),
  }),
  term: t.field({
    type: TermRef,
    description: 'A term, with its concept.',
    args: { id: t.arg.int({ required: true }) },
    resolve: async (_, args, context) => {
      const concept = await conceptOfTerm(context, args.id);
      const term = concept.terms.find((entry) => entry.id === args.id);
      if (!term) throw new TRPCError({ code: 'NOT_FOUND', message: `Term ${args.id} not found` });
      return term;
    },
  }),
  concepts: t.field({
    type: [ConceptRef],
    description: `The live concepts of a dictionary (or one of its sections) the caller may read, ordered by id; first: 1 to ${CONCEPT_PAGE_MAX}.`,
    args: {
      dictionaryId: t.arg.int({ required: true }),
      sectionOid: t.arg.string({ required: false }),
      first: t.arg.int({ defaultValue: 50 }),
      offset: t.arg.int({ defaultValue: 0 }),
    },
    complexity: (args) => ({
      field: LOAD_COST,
      multiplier: Math.min(Math.max(args.first ?? 50, 1), CONCEPT_PAGE_MAX),
    }),
    resolve: async (_, args, context) => {
      const concepts = await domainCall(context, (scope) =>
        listConcepts(scope, {
          dictionaryId: args.dictionaryId,
          sectionOid: args.sectionOid,
          first: args.first ?? 50,
          offset: args.offset ?? 0,
        }),
      );
      remember(context, concepts);
      return concepts;
    },
  }),
}));

// ---------------------------------------------------------------- writes

const RefLinkInputRef = builder.inputType('RefLinkInput', {
  fields: (t) => ({
    sourceFieldOid: t.string({ required: true }),
    type: t.field({ type: RefLinkTypeEnum, required: true }),
    text: t.string({ required: true }),
    dynamicText: t.string(),
    position: t.int({ required: true }),
    url: t.string(),
    conceptId: t.int(),
    termId: t.int(),
    languageCode: t.string(),
  }),
});

const TermInputRef = builder.inputType('TermInput', {
  fields: (t) => ({
    id: t.int({ description: 'an existing term of the concept; absent for a new term' }),
    name: t.string({ required: true }),
    languageCode: t.string({ required: true }),
    regionCode: t.string(),
    scriptCode: t.string(),
    fieldMap: t.field({ type: 'JSON', description: 'field oid to a value or an array of values' }),
    refLinks: t.field({ type: [RefLinkInputRef] }),
  }),
});

const ConceptRelationInputRef = builder.inputType('ConceptRelationInput', {
  fields: (t) => ({
    id: t.int({ description: 'an existing relation of the concept; absent for a new one' }),
    sourceConceptId: t.int({ description: 'default: this concept' }),
    targetConceptId: t.int({ required: true }),
    type: t.int({ required: true }),
    attribute: t.int({ required: true }),
    text: t.string(),
  }),
});

const ConceptInputRef = builder.inputType('ConceptInput', {
  description:
    'The body of POST /concepts and PUT /concepts/{id}: a full update erases what is missing (terms must be sent), a patch keeps it.',
  fields: (t) => ({
    dictionaryId: t.int({ description: 'required on create' }),
    sectionOid: t.string({ description: 'required on create' }),
    domainList: t.stringList({ description: 'domain oids' }),
    fieldMap: t.field({ type: 'JSON', description: 'field oid to a value or an array of values' }),
    terms: t.field({ type: [TermInputRef] }),
    conceptRelations: t.field({ type: [ConceptRelationInputRef] }),
    refLinks: t.field({ type: [RefLinkInputRef] }),
  }),
});

type FieldMapInput = Record<string, string | string[] | null>;
type RefLinkArg = typeof RefLinkInputRef.$inferInput;
type ConceptArg = typeof ConceptInputRef.$inferInput;

/** GraphQL null on a member the procedure takes as optional only means "not sent". */
const sent = <T>(value: T | null | undefined): T | undefined => value ?? undefined;

const refLinksInput = (links: readonly RefLinkArg[] | null | undefined) =>
  links?.map((link) => defined({ ...link }));

/** The procedure body of a GraphQL concept input (zod in the procedure checks it as it checks REST). */
function conceptBody(input: ConceptArg) {
  return defined({
    dictionaryId: sent(input.dictionaryId),
    sectionOid: sent(input.sectionOid),
    domainList: input.domainList,
    fieldMap: input.fieldMap as FieldMapInput | null | undefined,
    refLinks: refLinksInput(input.refLinks),
    terms: input.terms?.map((term) =>
      defined({
        id: sent(term.id),
        name: term.name,
        languageCode: term.languageCode,
        regionCode: term.regionCode,
        scriptCode: term.scriptCode,
        fieldMap: sent(term.fieldMap as FieldMapInput | null | undefined),
        refLinks: sent(refLinksInput(term.refLinks)),
      }),
    ),
    conceptRelations: input.conceptRelations?.map((relation) =>
      defined({
        id: sent(relation.id),
        sourceConceptId: sent(relation.sourceConceptId),
        targetConceptId: relation.targetConceptId,
        type: relation.type,
        attribute: relation.attribute,
        text: relation.text,
      }),
    ),
  });
}

/** A written concept: earlier loads of this request may be stale now. */
function written(context: GraphQLContext, output: ConceptOutput): ConceptDto {
  forget(context);
  const concept = full(output);
  remember(context, [concept]);
  return concept;
}

builder.mutationFields((t) => {
  /** updateConcept and patchConcept: the same arguments, the full or the partial procedure. */
  const versionedWrite = (kind: 'update' | 'patch', description: string) =>
    t.field({
      type: ConceptRef,
      description,
      args: {
        id: t.arg.int({ required: true }),
        version: t.arg.int({ required: true, description: 'a stale version answers CONFLICT' }),
        input: t.arg({ type: ConceptInputRef, required: true }),
      },
      resolve: async (_, args, context) =>
        written(
          context,
          await context.api.concepts[kind]({
            ...conceptBody(args.input),
            id: args.id,
            version: args.version,
            ...READ,
          }),
        ),
    });
  return {
    createConcept: t.field({
      type: ConceptRef,
      description: 'Create a concept with its terms, relations and links (CONCEPT_CREATE in the section).',
      args: { input: t.arg({ type: ConceptInputRef, required: true }) },
      resolve: async (_, args, context) =>
        written(context, await context.api.concepts.create({ ...conceptBody(args.input), ...READ })),
    }),
    updateConcept: versionedWrite(
      'update',
      'Replace a concept: what the input leaves out is erased, except terms, which must be sent.',
    ),
    patchConcept: versionedWrite(
      'patch',
      'Change some attributes of a concept: what the input leaves out stays.',
    ),
    deleteConcept: t.boolean({
      description: 'Delete a concept (soft; its history can restore it). Answers true.',
      args: { id: t.arg.int({ required: true }) },
      resolve: async (_, args, context) => {
        await context.api.concepts.delete({ id: args.id });
        forget(context);
        return true;
      },
    }),
    acquireConceptLock: t.boolean({
      description: 'Lock a concept for editing: true when the caller holds the lock afterwards.',
      args: { id: t.arg.int({ required: true }) },
      resolve: async (_, args, context) => {
        const held = await context.api.concepts.acquireLock({ id: args.id });
        forget(context);
        return held;
      },
    }),
    releaseConceptLock: t.boolean({
      description: 'Release a concept lock: true when the concept is unlocked afterwards.',
      args: { id: t.arg.int({ required: true }) },
      resolve: async (_, args, context) => {
        const released = await context.api.concepts.releaseLock({ id: args.id });
        forget(context);
        return released;
      },
    }),
  };
});
