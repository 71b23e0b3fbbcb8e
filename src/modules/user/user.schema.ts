import { z } from 'zod';
import { commonDtoShape } from '../../shared/common.schema.js';
import { FormatSchema } from '../../shared/format.js';
import { filterText } from '../../shared/input-limits.js';
import { listQueryShape, pageSchema } from '../../shared/paging.js';
import { OriginTypes, UserTypes } from './user.entity.js';

/** What EDIT answers for password and confirmPassword, and what a writer sends to keep the password. */
export const PASSWORD_UNCHANGED = '******';

/**
 * Latin letters and digits, plus `_ . @ -` so that e-mail addresses and the `_1` suffixes of the
 * user import are valid usernames.
 */
export const UsernameSchema = z
  .string()
  .trim()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_.@-]+$/, 'username may hold Latin letters, digits and _ . @ - only');

/** ms epoch, or a yyyy-MM-dd date (midnight UTC); null clears. */
export const ExpDateSchema = z
  .union([z.number().int(), z.iso.date()])
  .transform((value) => (typeof value === 'number' ? new Date(value) : new Date(`${value}T00:00:00Z`)))
  .nullable();

export const UserLogItemSchema = z.object({
  userLogin: z.string(),
  userId: z.number().int(),
  clientLogin: z.string(),
  loginTime: z.number().int(),
  logoutTime: z.number().int().nullable(),
  ipAddress: z.string().nullable(),
  apiLogin: z.boolean(),
  apiRequests: z.number().int(),
});
export type UserLogItem = z.infer<typeof UserLogItemSchema>;

export const GroupRefSchema = z.object({ id: z.number().int(), name: z.string(), type: z.string() });

export const UserDtoSchema = z.object({
  ...commonDtoShape,
  username: z.string(),
  fullName: z.string().nullable(),
  email: z.string().nullable().optional().describe('shown to the user, administrators and user editors'),
  title: z.string().nullable(),
  expDate: z.number().int().nullable(),
  type: z.enum(UserTypes),
  active: z.boolean(),
  originType: z.enum(OriginTypes).nullable(),
  roles: z.array(z.string()),
  // EDIT format
  password: z.string().optional().describe(`EDIT: always ${PASSWORD_UNCHANGED}`),
  confirmPassword: z.string().optional(),
  clientIds: z.array(z.number().int()).optional().describe('EDIT: clients the user is mapped to'),
  groups: z.array(GroupRefSchema).optional().describe('EDIT: groups of the current client'),
  sendNotificationEmail: z.boolean().optional(),
  forcePasswordChange: z.boolean().optional(),
  lastLogins: z
    .array(UserLogItemSchema)
    .optional()
    .describe('EDIT, administrators and user editors only: the last 10 logins'),
});
export type UserDto = z.infer<typeof UserDtoSchema>;
export const USER_SHORT_KEYS = ['username', 'fullName', 'active', 'type'] as const;

export const UserOutputSchema = UserDtoSchema.partial().extend({ id: z.number().int() });
export const UserPageSchema = pageSchema(UserOutputSchema);

export const UserListInputSchema = z.object({
  ...listQueryShape,
  login: filterText().optional().describe('username starts with, ignoring case'),
  'full-name': filterText().optional().describe('full name starts with, ignoring case'),
  client_id: z.number().int().optional().describe('default: the client of the token'),
});
export type UserListInput = z.infer<typeof UserListInputSchema>;

/** Groups are given as ids or as Group objects of which only the id is read. */
const GroupIdsSchema = z
  .array(z.union([z.number().int(), z.object({ id: z.number().int() }).loose()]))
  .transform((groups) => groups.map((group) => (typeof group === 'number' ? group : group.id)));

const writableShape = {
  format: FormatSchema,
  username: UsernameSchema,
  fullName: z.string().trim().max(255).nullable().optional(),
  email: z.email().max(320).nullable().optional(),
  title: z.string().trim().max(255).nullable().optional(),
  expDate: ExpDateSchema.optional().describe('ms epoch or yyyy-MM-dd; the user is deactivated then'),
  active: z.boolean().optional(),
  password: z
    .string()
    .max(1024)
    .nullable()
    .optional()
    .describe(`new password; ${PASSWORD_UNCHANGED} or absent keeps the stored one`),
  confirmPassword: z.string().max(1024).nullable().optional(),
  roles: z.array(z.string().max(128)).optional(),
  clientIds: z.array(z.number().int()).optional().describe('system administrators only'),
  groups: GroupIdsSchema.optional(),
  sendNotificationEmail: z.boolean().optional().describe('e-mail the user a password-reset link'),
  forcePasswordChange: z.boolean().optional(),
  // Accepted and ignored, so that a read object can be sent back.
  type: z.unknown().optional().describe('cannot be set through the API; ignored'),
};

export const UserCreateInputSchema = z.object(writableShape);
export type UserCreateInput = z.infer<typeof UserCreateInputSchema>;

const versionShape = {
  id: z.number().int(),
  version: z.number().int().optional().describe('required; a missing or stale version answers 409'),
};
export const UserUpdateInputSchema = z.object({ ...writableShape, ...versionShape });
export const UserPatchInputSchema = z.object({
  ...writableShape,
  ...versionShape,
  username: UsernameSchema.optional(),
});
export type UserUpdateInput = z.infer<typeof UserUpdateInputSchema>;
export type UserPatchInput = z.infer<typeof UserPatchInputSchema>;

export const AssignClientsInputSchema = z.object({
  users: z.array(z.number().int()).min(1),
  clients: z.array(z.number().int()),
});

export const PasswordSettingsSchema = z.object({ regExp: z.string(), msg: z.string() });
