/**
 * Term, one name of a concept in one language, with the term query and TermInput, how a concept input
 * sends a term; a term's concept loads through the concept loader.
 */
import { TRPCError } from '@trpc/server';
import { builder } from '../../../graphql/builder.js';
import { AuditInfoRef } from '../../../graphql/common.graphql.js';
import { CommentRef } from './comment.type.js';
import { LOAD_COST, perConcept } from './complexity.js';
import { conceptLoader, conceptOfTerm } from './concept-loader.js';
import { FieldValuesRef, fieldList } from './field-value.type.js';
import { RefLinkInputRef, RefLinkRef } from './ref-link.type.js';
import { ConceptRef, TermRef } from './refs.js';

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

builder.queryFields((t) => ({
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
}));

export const TermInputRef = builder.inputType('TermInput', {
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
