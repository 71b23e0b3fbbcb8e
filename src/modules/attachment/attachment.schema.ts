import { z } from 'zod';

export const AttachmentKeySchema = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'an attachment key (a UUID)');

export const AttachmentDtoSchema = z.object({
  key: AttachmentKeySchema.describe('the value an ATTACHMENT field holds'),
  dictionaryId: z.number().int().nullable().describe('where the file was uploaded'),
  fileName: z.string(),
  contentType: z.string().describe('sniffed from the bytes, never taken from the name'),
  size: z.number().int().describe('bytes'),
  sha256: z.string().describe('hex; the ETag of the download'),
  width: z.number().int().nullable().describe('pixels, images only'),
  height: z.number().int().nullable(),
  hasThumbnail: z.boolean(),
  created: z.number().int().describe('ms epoch'),
  createdById: z.number().int().nullable(),
});
export type AttachmentDto = z.infer<typeof AttachmentDtoSchema>;

export const ConceptAttachmentDtoSchema = AttachmentDtoSchema.extend({
  conceptId: z.number().int(),
  termId: z.number().int().nullable().describe('set for a TERM-level field'),
  fieldOid: z.string(),
  url: z.string().describe('the file, under /api/v4'),
  thumbnailUrl: z.string().nullable().describe('a PNG of at most 256 px, for images (SVG rasterised)'),
});
export type ConceptAttachmentDto = z.infer<typeof ConceptAttachmentDtoSchema>;

export const ConceptAttachmentsInputSchema = z.object({ id: z.number().int().positive() });
