import { z } from 'zod';

export const UserImportResultSchema = z.object({
  userCount: z.number().int().describe('users created or overwritten'),
  groupCount: z.number().int().describe('groups created or overwritten'),
  renamedUsers: z.record(z.string(), z.string()).describe('username in the file to the name given'),
  renamedGroups: z.record(z.string(), z.string()),
  skippedRoles: z
    .array(z.object({ username: z.string(), role: z.string() }))
    .describe('roles the importer may not assign or that do not exist in this client'),
});
export type UserImportResult = z.infer<typeof UserImportResultSchema>;

export const UserImportInputSchema = z.object({
  xml: z.string().min(1).describe('the XML document (docs/user-transfer.md)'),
  'overwrite-user': z.boolean().default(false),
  'overwrite-group': z.boolean().default(false),
});
export type UserImportInput = z.infer<typeof UserImportInputSchema>;
