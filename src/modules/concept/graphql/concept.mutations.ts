/**
 * ConceptInput and every concept write: create, update, patch, delete and the edit lock. Each calls its
 * procedure through `ctx.api` (zod there checks the input as it checks REST) and then drops stale loads.
 */
import { type ApiCaller, builder, defined, type GraphQLContext } from '../../../graphql/builder.js';
import type { ConceptDto, ConceptOutput } from '../concept.schema.js';
import { forget, full, READ, remember } from './concept-loader.js';
import { ConceptRelationInputRef } from './concept-relation.type.js';
import { LanguageFieldsInputRef } from './language-fields.type.js';
import { RefLinkInputRef } from './ref-link.type.js';
import { ConceptRef } from './refs.js';
import { TermInputRef } from './term.type.js';

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
    languageFields: t.field({
      type: [LanguageFieldsInputRef],
      description: 'values per language tag; missing or null: kept (a full update too)',
    }),
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
    languageFields: input.languageFields?.map((row) =>
      defined({
        languageCode: row.languageCode,
        regionCode: row.regionCode,
        scriptCode: row.scriptCode,
        fieldMap: row.fieldMap as FieldMapInput,
      }),
    ),
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
  /** deleteConcept and the lock mutations: one procedure on a concept id; earlier loads are dropped after it. */
  const conceptCommand = (description: string, call: (api: ApiCaller, id: number) => Promise<boolean>) =>
    t.boolean({
      description,
      args: { id: t.arg.int({ required: true }) },
      resolve: async (_, args, context) => {
        const answer = await call(context.api, args.id);
        forget(context);
        return answer;
      },
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
    deleteConcept: conceptCommand(
      'Delete a concept (soft; its history can restore it). Answers true.',
      async (api, id) => {
        await api.concepts.delete({ id });
        return true;
      },
    ),
    acquireConceptLock: conceptCommand(
      'Lock a concept for editing: true when the caller holds the lock afterwards.',
      (api, id) => api.concepts.acquireLock({ id }),
    ),
    releaseConceptLock: conceptCommand(
      'Release a concept lock: true when the concept is unlocked afterwards.',
      (api, id) => api.concepts.releaseLock({ id }),
    ),
  };
});
