import { z } from 'zod';
import { PASSWORD_UNCHANGED, UsernameSchema } from '../user/user.schema.js';
import { GuestLoginMethods } from './guest-settings.entity.js';

export const GuestSettingsSchema = z.object({
  enabled: z.boolean(),
  username: z.string().nullable(),
  password: z.string().nullable().describe(`${PASSWORD_UNCHANGED} when a password is set`),
  loginMethod: z.enum(GuestLoginMethods),
  autoAlwaysDisabled: z.boolean().describe('true when GUEST_AUTOLOGIN is not available for the client'),
  enableQuickFilters: z.boolean(),
  enableSearchModes: z.boolean(),
  enableCommenting: z.boolean(),
  enableFeedback: z.boolean().describe('guests may send feedback (docs/feedback.md)'),
});
export type GuestSettingsDto = z.infer<typeof GuestSettingsSchema>;

export const GuestSettingsInputSchema = z.object({
  enabled: z.boolean(),
  username: UsernameSchema.nullable().optional().describe('the guest account; required when enabled'),
  password: z
    .string()
    .max(1024)
    .nullable()
    .optional()
    .describe(`new password, validated like any password; ${PASSWORD_UNCHANGED} or absent keeps it`),
  loginMethod: z.enum(GuestLoginMethods).default('NORMAL'),
  autoAlwaysDisabled: z.unknown().optional().describe('read-only; ignored'),
  enableQuickFilters: z.boolean().default(false),
  enableSearchModes: z.boolean().default(false),
  enableCommenting: z.boolean().default(false),
  enableFeedback: z.boolean().default(false).describe('guests may send feedback (docs/feedback.md)'),
});
export type GuestSettingsInput = z.infer<typeof GuestSettingsInputSchema>;
