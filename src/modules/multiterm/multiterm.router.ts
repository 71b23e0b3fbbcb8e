import { authedProcedure, router } from '../../trpc/trpc.js';
import { TbxImportInputSchema } from '../tbx/tbx.router.js';
import { MtfPreviewSchema, previewMultiTerm } from './mtf-preview.js';

/**
 * MultiTerm XML's mapping step (docs/exchange.md); reached through POST
 * /dictionaries/import-multiterm/preview (multiterm.rest.ts). The import itself is the TBX import's
 * (POST /dictionaries/import-tbx with `definition` and `field-mapping`).
 */
export const multitermRouter = router({
  preview: authedProcedure
    .input(TbxImportInputSchema.pick({ file: true }))
    .output(MtfPreviewSchema)
    .mutation(({ input }) => previewMultiTerm(input.file)),
});
