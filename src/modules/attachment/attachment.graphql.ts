/** Attachments over GraphQL: what a concept shows (files come over REST, at `url` and `thumbnailUrl`). */
import { builder } from '../../graphql/builder.js';
import { unsizedListCost } from '../../graphql/cost.js';
import type { ConceptAttachmentDto } from './attachment.schema.js';

const AttachmentRef = builder.objectRef<ConceptAttachmentDto>('Attachment').implement({
  description:
    'A file named by an ATTACHMENT field of a concept or of one of its terms (docs/attachments.md). Download it ' +
    'over REST at url (thumbnails at thumbnailUrl), with the X-Auth-Token header.',
  fields: (t) => ({
    key: t.exposeString('key', { description: 'the value the ATTACHMENT field holds' }),
    conceptId: t.exposeInt('conceptId'),
    termId: t.exposeInt('termId', { nullable: true, description: 'set for a TERM-level field' }),
    fieldOid: t.exposeString('fieldOid'),
    fileName: t.exposeString('fileName'),
    contentType: t.exposeString('contentType', { description: 'sniffed from the bytes at upload' }),
    size: t.exposeFloat('size', { description: 'bytes' }),
    sha256: t.exposeString('sha256'),
    width: t.exposeInt('width', { nullable: true }),
    height: t.exposeInt('height', { nullable: true }),
    url: t.exposeString('url'),
    thumbnailUrl: t.exposeString('thumbnailUrl', { nullable: true }),
    created: t.exposeFloat('created', { description: 'ms epoch' }),
  }),
});

builder.queryFields((t) => ({
  conceptAttachments: t.field({
    type: [AttachmentRef],
    description:
      "The files of a concept's ATTACHMENT fields and of its visible terms' (NOT_FOUND as for the concept).",
    args: { conceptId: t.arg.int({ required: true }) },
    // A concept's files are unpaged: counted as an unsized list, as the other unpaged lists are.
    complexity: unsizedListCost,
    resolve: (_, args, context) => context.api.attachments.ofConcept({ id: args.conceptId }),
  }),
}));
