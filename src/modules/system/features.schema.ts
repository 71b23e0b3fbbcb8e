import { z } from 'zod';
import { TokenInfoSchema } from '../auth/auth.schema.js';

export const FeaturesSchema = z.object({
  DEVELOPMENT: z.boolean(),
  SESSION_TIMEOUT: z.number().int().describe('token validity in seconds'),
  MULTIPLE_CLIENT: z.boolean(),
  GUEST_AUTO_DISABLED: z.boolean(),
  MULTIVALUED_SEPARATOR: z.string(),
  ALWAYS_WILDCARD: z.boolean().describe('default search is substring search'),
  MAX_FILE_SIZE: z.number().int().describe('bytes'),
  FEEDBACK_MAX_FILE_SIZE: z.number().int().describe('bytes'),
  VERSION: z.string(),
  BUILD_DATETIME: z.number().int().describe('ms epoch'),
  GUEST_TOKEN: TokenInfoSchema.optional().describe('present when guest login is active for the client'),
});
export type Features = z.infer<typeof FeaturesSchema>;
