import { z } from 'zod';

/** One value TBX-Basic could not express as such, and where it was (at most 100 per export). */
export const TbxReportExampleSchema = z.object({
  what: z.string().describe('the report line it counts under'),
  entryId: z.string().nullable().describe("the entry's id in the file"),
  level: z.enum(['concept', 'language', 'term']),
  lang: z.string().nullable().describe("the language section's xml:lang (language and term level)"),
  term: z.string().nullable().describe("the term's text (term level)"),
  value: z.string().describe('the value as the dictionary holds it'),
});

/**
 * What a finished TBX export job reports (docs/tbx.md, The export's job): what was written, and what the
 * file could not express as such, as counts per report line and a bounded list of examples.
 */
export const TbxExportSummarySchema = z.object({
  dictionaryId: z.number().int(),
  format: z.string().describe('TBX, TBX_V2, TBX_V3_FULL, TBX_V2_FULL or MULTITERM_XML'),
  exportedConcepts: z.number().int().describe('concepts written'),
  exportedTerms: z.number().int().describe('terms written'),
  notExpressed: z
    .object({
      total: z.number().int().describe('values (and concepts) the file could not express as such'),
      counts: z
        .record(z.string(), z.number().int())
        .describe('report line (`written as note: productSubset (not a TBX-Basic category)`) -> count'),
      examples: z.array(TbxReportExampleSchema).describe('at most 100 in all, 5 per report line'),
    })
    .describe(
      'TBX-Basic: values written as notes or mapped onto its picklists; every dialect: concepts without terms',
    ),
});
export type TbxExportSummary = z.infer<typeof TbxExportSummarySchema>;
