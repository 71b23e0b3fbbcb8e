import { z } from 'zod';
import { authedProcedure, router } from '../../trpc/trpc.js';
import type { BlobInfo } from '../storage/blob-store.js';
import {
  AttachmentDtoSchema,
  AttachmentKeySchema,
  ConceptAttachmentDtoSchema,
  ConceptAttachmentsInputSchema,
} from './attachment.schema.js';
import { attachmentDownload, conceptAttachments, createAttachment } from './attachment.service.js';
import { UploadedBlob } from './attachment-upload.js';

const tags = ['attachments'];

/** Attachments (docs/attachments.md). Upload and download are REST routes (attachment.rest.ts) over these. */
export const attachmentRouter = router({
  ofConcept: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/concepts/{id}/attachments',
        tags,
        summary: "The files of a concept's ATTACHMENT fields and of its visible terms', with download URLs",
        description:
          "Each file's name, sniffed type, size, SHA-256, image size and the URLs of the file and its thumbnail. " +
          'NOT_FOUND as for the concept; terms hidden from the caller (workflow, sections) bring no files.',
        errorResponses: [400, 401, 404],
      },
    })
    .input(ConceptAttachmentsInputSchema)
    .output(z.array(ConceptAttachmentDtoSchema))
    .query(({ ctx, input }) => conceptAttachments(ctx.scope, input.id)),

  /** Server-side only: the REST upload route hands over the blob it stored. */
  register: authedProcedure
    .input(z.object({ dictionaryId: z.number().int().positive(), upload: z.instanceof(UploadedBlob) }))
    .output(AttachmentDtoSchema)
    .mutation(({ ctx, input }) =>
      createAttachment(ctx.scope, {
        dictionaryId: input.dictionaryId,
        blob: input.upload.blob,
        fileName: input.upload.fileName,
        declaredType: input.upload.declaredType,
      }),
    ),

  /** Server-side only: what the REST download route streams. */
  download: authedProcedure
    .input(z.object({ id: z.number().int().positive(), key: AttachmentKeySchema, thumbnail: z.boolean() }))
    .output(z.custom<{ info: BlobInfo; fileName: string }>())
    .query(({ ctx, input }) => attachmentDownload(ctx.scope, input.id, input.key, input.thumbnail)),
});
