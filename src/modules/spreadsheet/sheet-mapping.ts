/**
 * How a spreadsheet's columns become concepts (docs/exchange.md, Spreadsheets): one row a concept, each
 * column with a role. The preview proposes one (sheet-proposal.ts); the import takes it as sent.
 */
import { z } from 'zod';

const language = z
  .string()
  .trim()
  .min(2)
  .max(32)
  .describe('the language as a tag or code (en, eng, en-US); read as a TBX xml:lang');
const field = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .describe("a TBX data category (definition, note, partOfSpeech…) or a dictionary field's name");
const separator = z
  .string()
  .min(1)
  .max(8)
  .optional()
  .describe('splits a cell into several values (synonyms): "; " splits at ";" and trims');

export const SheetColumnSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('ignore') }),
  z
    .object({ role: z.literal('id') })
    .describe("the concept's id in the file: merges (merge=ENTRY_ID) and cross-references"),
  z
    .object({ role: z.literal('term'), language, separator })
    .describe('terms of a language; several by separator'),
  z
    .object({ role: z.literal('termField'), language, field, separator })
    .describe("a value of the language's terms: split like the terms, the n-th part to the n-th term"),
  z.object({ role: z.literal('languageField'), language, field }).describe('a value of the language section'),
  z.object({ role: z.literal('conceptField'), field, separator }).describe('a value of the concept'),
  z
    .object({ role: z.literal('domain'), separator })
    .describe("the concept's domains by name (created when missing)"),
]);
export type SheetColumn = z.infer<typeof SheetColumnSchema>;

export const SheetMappingSchema = z.object({
  sheet: z.string().max(255).optional().describe('XLSX: the worksheet by name (default: the first)'),
  headerRow: z.boolean().default(true).describe('the first row names the columns and is not imported'),
  delimiter: z
    .enum([',', ';', '\t', '|'])
    .optional()
    .describe('CSV: the separator of cells (default: detected)'),
  encoding: z
    .enum(['utf-8', 'utf-16le', 'utf-16be', 'windows-1252'])
    .optional()
    .describe('CSV: the text encoding (default: detected from a byte order mark or the bytes)'),
  columns: z
    .array(SheetColumnSchema)
    .max(500)
    .describe('one per column, in order; missing columns are ignored'),
});
export type SheetMapping = z.infer<typeof SheetMappingSchema>;
