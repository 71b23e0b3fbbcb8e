import { z } from 'zod';
import { InvocationResultSchema } from '../../shared/common.schema.js';
import { AppError } from '../../shared/errors.js';
import { authedProcedure, router } from '../../trpc/trpc.js';
import { TbxImportInputSchema } from '../tbx/tbx.router.js';
import { importTbx } from '../tbx/tbx-import.service.js';
import { SheetMappingSchema } from './sheet-mapping.js';
import { proposeMapping } from './sheet-proposal.js';
import { readSheetRows, SheetFormatError, sheetShape } from './sheet-reader.js';

/** Rows a preview shows and proposes its mapping from. */
const PREVIEW_ROWS = 20;

export const SheetPreviewInputSchema = TbxImportInputSchema.pick({ file: true }).extend({
  sheet: SheetMappingSchema.shape.sheet,
  delimiter: SheetMappingSchema.shape.delimiter,
  encoding: SheetMappingSchema.shape.encoding,
});

export const SheetPreviewSchema = z.object({
  kind: z.enum(['CSV', 'XLSX']),
  sheets: z.array(z.string()).describe('XLSX: the worksheets in order'),
  sheet: z.string().nullable().describe('XLSX: the sheet shown'),
  encoding: z.string().nullable().describe('CSV: the encoding detected (or sent)'),
  delimiter: z.string().nullable().describe('CSV: the separator detected (or sent)'),
  rows: z.array(z.array(z.string())).describe(`the first ${PREVIEW_ROWS} rows, header included`),
  mapping: SheetMappingSchema.describe('the proposed mapping: send it (changed as needed) to the import'),
});

/** The first rows of a spreadsheet and the mapping proposed from them (also the CLI's preview). */
export async function previewSpreadsheet(
  input: z.infer<typeof SheetPreviewInputSchema>,
): Promise<z.infer<typeof SheetPreviewSchema>> {
  try {
    const shape = await sheetShape(input.file.path, input);
    const rows = [];
    for await (const row of readSheetRows(input.file.path, shape)) {
      rows.push(row);
      if (rows.length >= PREVIEW_ROWS) break;
    }
    return {
      kind: shape.kind,
      sheets: shape.sheets,
      sheet: shape.sheet,
      encoding: shape.encoding,
      delimiter: shape.delimiter,
      rows: rows.map((row) => row.cells),
      mapping: {
        ...proposeMapping(rows),
        ...(shape.kind === 'CSV' ? { delimiter: shape.delimiter!, encoding: shape.encoding! } : {}),
        ...(shape.sheet ? { sheet: shape.sheet } : {}),
      },
    };
  } catch (error) {
    if (error instanceof SheetFormatError)
      throw new AppError('BAD_REQUEST', `Not a valid spreadsheet: ${error.message}`);
    throw error;
  }
}

/**
 * Spreadsheet import (docs/exchange.md): a preview that reads the first rows and proposes a mapping of
 * columns to languages, terms and fields, and the import with a mapping, which runs as the TBX import's
 * job. Both are reached through the multipart routes of spreadsheet.rest.ts.
 */
export const spreadsheetRouter = router({
  preview: authedProcedure
    .input(SheetPreviewInputSchema)
    .output(SheetPreviewSchema)
    .mutation(({ input }) => previewSpreadsheet(input)),

  importFile: authedProcedure
    .input(TbxImportInputSchema.extend({ mapping: SheetMappingSchema }))
    .output(InvocationResultSchema)
    .mutation(async ({ ctx, input }) => {
      if (!input.mapping.columns.some((column) => column.role === 'term')) {
        throw new AppError('BAD_REQUEST', 'mapping.columns: no column holds terms (role "term")');
      }
      const outcome = await importTbx(ctx.scope, input.file, {
        dictionaryId: input['dictionary-id'],
        name: input.name,
        merge: input.merge,
        sectionOid: input['section-oid'],
        stagingAreaId: input['staging-area-id'],
        spreadsheet: input.mapping,
      });
      return outcome.body;
    }),
});
