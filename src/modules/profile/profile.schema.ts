import { z } from 'zod';
import { UserTypes } from '../user/user.entity.js';
import { UsernameSchema } from '../user/user.schema.js';

/** An interface language: a three-letter code such as eng, optionally with a region or script (eng-US). */
export const InterfaceLanguageSchema = z
  .string()
  .trim()
  .max(16)
  .regex(/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$/, 'language must be a code such as eng or eng-US');

export const ProfileUserSchema = z.object({
  id: z.number().int(),
  version: z.number().int().describe('send it back with PUT /profile'),
  clientId: z.number().int().describe('home client'),
  username: z.string(),
  fullName: z.string().nullable(),
  email: z.string().nullable(),
  title: z.string().nullable(),
  language: z.string().nullable().describe('preferred interface language; null: the one sent at login'),
  forcePasswordChange: z.boolean(),
  type: z.enum(UserTypes),
  roles: z.array(z.string()).describe('read-only here'),
  passwordChanged: z.number().int().nullable().describe('ms epoch of the last password change'),
});

export const ProfileSchema = z.object({ user: ProfileUserSchema });
export type Profile = z.infer<typeof ProfileSchema>;

export const ProfileUpdateInputSchema = z.object({
  user: z
    .object({
      version: z.number().int().optional().describe('required; a missing or stale version answers 409'),
      username: UsernameSchema.optional().describe('absent keeps the username'),
      fullName: z.string().trim().max(255).nullable().optional(),
      email: z.email().max(320).nullable().optional(),
      title: z.string().trim().max(255).nullable().optional(),
      language: InterfaceLanguageSchema.nullable().optional(),
      forcePasswordChange: z.boolean().optional().describe('absent keeps the flag'),
    })
    .describe(
      'Own attributes only. fullName, email, title and language missing or null are erased; other ' +
        'attributes of a read Profile (id, roles, type...) are ignored.',
    ),
});
export type ProfileUpdateInput = z.infer<typeof ProfileUpdateInputSchema>;

export const PasswordChangeInputSchema = z.object({
  currentPassword: z.string().max(1024).describe('the password in force; a wrong one answers 400'),
  password: z.string().min(1).max(1024).describe('the new password; must satisfy the password settings'),
  confirmPassword: z.string().max(1024).describe('must equal password'),
});
export type PasswordChangeInput = z.infer<typeof PasswordChangeInputSchema>;
