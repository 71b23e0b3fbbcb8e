import { z } from 'zod';
import { commonDtoShape } from '../../shared/common.schema.js';
import { FormatSchema } from '../../shared/format.js';
import { listQueryShape, pageSchema } from '../../shared/paging.js';
import {
  ConceptPermissionValues,
  DictionaryPermissionValues,
  TermPermissionValues,
} from './permission-scheme.entity.js';

export const PermissionGrantSchema = z.object({
  groupId: z.number().int().describe('a group of the client (the Owner group: the creator of a concept)'),
  dictionaryPermissions: z.array(z.enum(DictionaryPermissionValues)).default([]),
  conceptPermissions: z.array(z.enum(ConceptPermissionValues)).default([]),
  termPermissions: z.array(z.enum(TermPermissionValues)).default([]),
  languages: z
    .array(z.string().regex(/^[a-z]{3}$/, 'three-letter lowercase language codes'))
    .default([])
    .describe('limits the term permissions to these languages; empty: every language'),
});

export const PermissionSchemeDtoSchema = z.object({
  ...commonDtoShape,
  name: z.string(),
  description: z.string().nullable(),
  grants: z.array(PermissionGrantSchema),
});
export type PermissionSchemeDto = z.infer<typeof PermissionSchemeDtoSchema>;
export const SCHEME_SHORT_KEYS = ['name', 'description'] as const;

export const PermissionSchemeOutputSchema = PermissionSchemeDtoSchema.partial().extend({
  id: z.number().int(),
});
export const PermissionSchemePageSchema = pageSchema(PermissionSchemeOutputSchema);

export const PermissionSchemeListInputSchema = z.object({
  ...listQueryShape,
  client_id: z.number().int().optional().describe('default: the client of the token'),
});
export type PermissionSchemeListInput = z.infer<typeof PermissionSchemeListInputSchema>;

const writableShape = {
  format: FormatSchema,
  name: z.string().trim().min(1).max(255),
  description: z.string().max(4000).nullable().optional(),
  grants: z.array(PermissionGrantSchema).max(500).optional(),
};
export const PermissionSchemeCreateInputSchema = z.object(writableShape);
export type PermissionSchemeCreateInput = z.infer<typeof PermissionSchemeCreateInputSchema>;
const versionShape = {
  id: z.number().int(),
  version: z.number().int().optional().describe('required; a missing or stale version answers 409'),
};
export const PermissionSchemeUpdateInputSchema = z.object({ ...writableShape, ...versionShape });
export const PermissionSchemePatchInputSchema = z.object({
  ...writableShape,
  ...versionShape,
  name: writableShape.name.optional(),
});
export type PermissionSchemeUpdateInput = z.infer<typeof PermissionSchemeUpdateInputSchema>;
export type PermissionSchemePatchInput = z.infer<typeof PermissionSchemePatchInputSchema>;

export const DictionaryPermissionsSchema = z.object({
  dictionaryId: z.number().int(),
  permissions: z
    .record(z.enum(DictionaryPermissionValues), z.boolean())
    .describe(
      'DICT_UPDATE/DICT_DELETE from the dictionary; DICT_READ and CONCEPT_* true when true in at least one section',
    ),
  sectionPermissions: z
    .record(z.string(), z.record(z.string(), z.boolean()))
    .describe('section id to the CONCEPT_* permissions there'),
  sectionOidPermissions: z.record(z.string(), z.record(z.string(), z.boolean())),
});
export type DictionaryPermissionsDto = z.infer<typeof DictionaryPermissionsSchema>;
