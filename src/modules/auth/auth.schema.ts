import { z } from 'zod';

export const LoginInputSchema = z.object({
  client: z
    .string()
    .max(64)
    .optional()
    .describe('client login name (multi-tenant installations); default: the default client')
    // Swagger UI's "Try it out" fills the form with the examples: an empty value is an absent one.
    .meta({ example: '' }),
  username: z.string().trim().min(1).max(128),
  password: z.string().min(1).max(1024),
  language: z.string().max(16).optional().describe('interface language, default eng').meta({ example: '' }),
  apiKey: z
    .string()
    .max(128)
    .optional()
    .describe(
      "the client's API key: makes an API login (members of a group with API access only); empty: none",
    )
    .meta({ example: '' }),
});
export type LoginInput = z.infer<typeof LoginInputSchema>;

export const TokenInfoSchema = z.object({
  token: z.string().describe('value for the X-Auth-Token header'),
  expirationTime: z.number().int().describe('ms epoch up to which the token is valid'),
});

export const LoginResultSchema = z.object({
  token: TokenInfoSchema.nullable(),
  errorMessage: z.string().nullable(),
  code: z.string().optional().describe('UNAUTHORIZED when the login failed'),
  message: z.string().optional().describe('same text as errorMessage when the login failed'),
});
export type LoginResult = z.infer<typeof LoginResultSchema>;

export const ValidateResultSchema = z.object({ tokenValid: z.boolean() });
export const ExtendResultSchema = z.object({ expires: z.number().int().describe('new ms epoch expiry') });
