import { z } from 'zod';

export const RoleSchema = z.object({
  name: z.string().describe('display name'),
  systemname: z.string().describe('SYSADMIN, ADMIN, USEREDITOR or DICTIONARY_ADMIN@<dictionary oid>'),
});
export type Role = z.infer<typeof RoleSchema>;

export const RolesForClientInputSchema = z.object({
  client_id: z.number().int().describe('the client; the token must be valid for it'),
});
