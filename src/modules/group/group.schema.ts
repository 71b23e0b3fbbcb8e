import { z } from 'zod';
import { commonDtoShape } from '../../shared/common.schema.js';
import { FormatSchema } from '../../shared/format.js';
import { listQueryShape, pageSchema } from '../../shared/paging.js';
import { queryBoolean } from '../../shared/query.js';
import { GroupTypes } from './group.entity.js';

const MemberSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  fullName: z.string().nullable(),
});

export const GroupDtoSchema = z.object({
  ...commonDtoShape,
  name: z.string(),
  description: z.string().nullable(),
  timeout: z.number().int().nullable().describe("members' session length in seconds"),
  pwdChange: z.number().int().nullable().describe('days until a password must be changed'),
  viewsMap: z.record(z.string(), z.array(z.number().int())).describe('dictionary id to view ids'),
  filterMap: z.record(z.string(), z.number().int()).describe('dictionary id to filter id'),
  type: z.enum(GroupTypes),
  langCode3: z.string().nullable(),
  hasApiAccess: z.boolean(),
  currentUsersNumber: z.number().int().optional().describe('EDIT format'),
  groupMembers: z.array(MemberSchema).optional().describe('EDIT format: explicit members, short users'),
});
export type GroupDto = z.infer<typeof GroupDtoSchema>;
export const GROUP_SHORT_KEYS = ['name', 'type', 'description'] as const;

export const GroupOutputSchema = GroupDtoSchema.partial().extend({ id: z.number().int() });
export const GroupPageSchema = pageSchema(GroupOutputSchema);

export const GroupListInputSchema = z.object({
  ...listQueryShape,
  'include-all': queryBoolean().default(true).describe('add the All users group'),
  'include-guest': queryBoolean().default(true).describe('add the Guests group'),
  'include-private': queryBoolean().default(false).describe('add the Owner group'),
  client_id: z.number().int().optional().describe('default: the client of the token'),
});
export type GroupListInput = z.infer<typeof GroupListInputSchema>;

const MembersSchema = z
  .array(z.union([z.number().int(), z.object({ id: z.number().int() }).loose()]))
  .transform((members) => members.map((member) => (typeof member === 'number' ? member : member.id)));

const writableShape = {
  format: FormatSchema,
  name: z.string().trim().min(1).max(255),
  description: z.string().max(4000).nullable().optional(),
  timeout: z.number().int().min(60).nullable().optional(),
  pwdChange: z.number().int().min(1).nullable().optional(),
  viewsMap: z
    .record(z.string().regex(/^\d+$/, 'keys are dictionary ids'), z.array(z.number().int()))
    .nullable()
    .optional(),
  filterMap: z
    .record(z.string().regex(/^\d+$/, 'keys are dictionary ids'), z.number().int())
    .nullable()
    .optional(),
  langCode3: z
    .string()
    .regex(/^[a-z]{3}$/, 'langCode3 is a three-letter lowercase ISO 639 code')
    .nullable()
    .optional(),
  hasApiAccess: z.boolean().optional(),
  groupMembers: MembersSchema.optional().describe('user ids (or users) that are the explicit members'),
  type: z.unknown().optional().describe('cannot be changed through the API; ignored'),
};

export const GroupCreateInputSchema = z.object(writableShape);
export type GroupCreateInput = z.infer<typeof GroupCreateInputSchema>;
const versionShape = {
  id: z.number().int(),
  version: z.number().int().optional().describe('required; a missing or stale version answers 409'),
};
export const GroupUpdateInputSchema = z.object({ ...writableShape, ...versionShape });
export const GroupPatchInputSchema = z.object({
  ...writableShape,
  ...versionShape,
  name: writableShape.name.optional(),
});
export type GroupUpdateInput = z.infer<typeof GroupUpdateInputSchema>;
export type GroupPatchInput = z.infer<typeof GroupPatchInputSchema>;
