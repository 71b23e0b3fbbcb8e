import { z } from 'zod';

/** What a licence grants, as signed by the vendor. */
export const LicensePayloadSchema = z.object({
  licensee: z.string().min(1).max(255),
  issued: z.iso.date().describe('yyyy-MM-dd'),
  expires: z.iso.date().describe('yyyy-MM-dd; the licence is valid through that day (UTC)'),
  availableUserSlots: z
    .number()
    .int()
    .min(1)
    .nullable()
    .describe('the most user accounts a client may have; null: no limit'),
});
export type LicensePayload = z.infer<typeof LicensePayloadSchema>;

export const LicenseSchema = z.object({
  licensee: z.string(),
  issued: z.number().int().describe('ms epoch'),
  expires: z.number().int().describe('ms epoch of the end of the last valid day'),
  availableUserSlots: z.number().int().nullable(),
  applied: z.number().int().describe('ms epoch'),
});
export type LicenseDto = z.infer<typeof LicenseSchema>;

export const ApplyLicenseInputSchema = z.object({
  text: z.string().trim().min(1).max(10_000).describe('the licence text as issued: <payload>.<signature>'),
});
