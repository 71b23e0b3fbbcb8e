/**
 * RefLink, the cross-references inside field values of concepts and terms, and RefLinkInput, how a
 * concept or term input sends them.
 */
import { builder } from '../../../graphql/builder.js';
import { RefLinkTypes } from '../concept.entity.js';
import type { RefLinkDto } from '../concept.schema.js';

const RefLinkTypeEnum = builder.enumType('RefLinkType', { values: RefLinkTypes });

export const RefLinkRef = builder.objectRef<RefLinkDto>('RefLink').implement({
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

export const RefLinkInputRef = builder.inputType('RefLinkInput', {
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
