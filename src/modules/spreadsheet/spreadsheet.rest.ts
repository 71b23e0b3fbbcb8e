/**
 * The spreadsheet import's multipart routes (docs/exchange.md): the upload is received as every import's
 * is (tbx/upload-import-route.ts), then the spreadsheet procedures run on it. The mapping travels as a
 * JSON form member beside the file.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config.js';
import { registerUploads } from '../../rest/multipart.js';
import type { ContextFactory } from '../../rest/procedure-call.js';
import type { RawRoute } from '../../rest/raw-route.js';
import { jsonMember, targetOf, uploadImportRoute } from '../tbx/upload-import-route.js';
import { SheetPreviewSchema } from './spreadsheet.router.js';

/** A mapping of a few hundred columns fits. */
const MAPPING_BYTES = 256 * 1024;

const previewRoute = uploadImportRoute({
  path: '/dictionaries/import-spreadsheet/preview',
  operationId: 'dictionaries-previewSpreadsheet',
  summary: "Read a spreadsheet's first rows and propose how its columns map to terms and fields",
  description:
    'CSV (UTF-8 with or without BOM, UTF-16, Windows-1252; comma, semicolon, tab or bar, detected) or XLSX ' +
    '(formulas as values, merged cells, several sheets). Members: `file`, optionally `sheet`, `delimiter`, ' +
    '`encoding` to read it otherwise. Answers the first 20 rows and the proposed mapping, to send with the ' +
    'file to POST /dictionaries/import-spreadsheet. Nothing is stored. See docs/exchange.md.',
  target: false,
  members: [
    { name: 'sheet', schema: { type: 'string' }, bodyOnly: true },
    { name: 'delimiter', schema: { type: 'string' }, bodyOnly: true },
    { name: 'encoding', schema: { type: 'string' }, bodyOnly: true },
  ],
  preview: { description: 'The rows and the proposal', schema: SheetPreviewSchema },
  call: (api, received) =>
    api.spreadsheet.preview({
      file: received.upload,
      sheet: received.param('sheet') || undefined,
      delimiter: (received.param('delimiter') || undefined) as never,
      encoding: (received.param('encoding') || undefined) as never,
    }),
});

const importRoute = uploadImportRoute({
  path: '/dictionaries/import-spreadsheet',
  operationId: 'dictionaries-importSpreadsheet',
  summary: 'Import a CSV or XLSX file by a column mapping into a new or an existing dictionary',
  description:
    'Members: `file` and `mapping` (JSON, the SheetMapping the preview proposes, changed as needed); ' +
    '`dictionary-id`, `name`, `merge`, `section-oid` as for POST /dictionaries/import-tbx, whose job, merge ' +
    'modes, one transaction, limits and error summary (rows as lines) it shares. See docs/exchange.md.',
  members: [
    {
      name: 'mapping',
      schema: { type: 'string' },
      description: 'the SheetMapping as JSON',
      required: true,
      bodyOnly: true,
    },
  ],
  fieldBytes: MAPPING_BYTES,
  call: (api, received) =>
    api.spreadsheet.importFile({
      ...targetOf(received),
      mapping: jsonMember(received, 'mapping', true) as never,
    }),
});

export const spreadsheetPaths = { ...previewRoute.paths, ...importRoute.paths };

export function spreadsheetRoutes(config: Config, createContext: ContextFactory): RawRoute {
  const plugin: FastifyPluginAsync = async (app) => {
    await registerUploads(app);
    previewRoute.register(app, config, createContext);
    importRoute.register(app, config, createContext);
  };
  return { plugin, paths: spreadsheetPaths };
}
