/**
 * File imports over GraphQL (docs/clients.md, docs/exchange.md): a `File` argument sent as the GraphQL
 * multipart request specification says, and the same procedures, checks and jobs as the REST upload
 * routes (POST /dictionaries/import-tbx, import-spreadsheet, import-spreadsheet/preview, import-skos).
 * An import answers its summary when it finished within the call, else the job to follow (GET /jobs/{id},
 * or the jobTask query). Downloads stay REST's (streamed): see docs/clients.md.
 */
import { builder, defined } from '../../graphql/builder.js';
import { withUpload } from '../../graphql/uploads.js';
import { TbxStatusMappingInputRef } from './tbx.graphql.js';

interface Outcome {
  result?: unknown;
  jobTaskId?: number;
}

const ImportOutcomeRef = builder.objectRef<Outcome>('ImportOutcome').implement({
  description: 'An import: its summary when it finished within the call, else the job still running it.',
  fields: (t) => ({
    summary: t.field({
      type: 'JSON',
      nullable: true,
      description: 'dictionaryId, concepts, terms, updated, skipped, errorCount and errors (line, message)',
      resolve: (outcome) => (outcome.jobTaskId === undefined ? (outcome.result ?? null) : null),
    }),
    jobTaskId: t.int({ nullable: true, resolve: (outcome) => outcome.jobTaskId ?? null }),
  }),
});

/** Where an import goes, as the REST routes' query parameters say it. */
const placeArgs = (t: Parameters<Parameters<typeof builder.mutationFields>[0]>[0]) => ({
  file: t.arg({ type: 'File', required: true }),
  dictionaryId: t.arg.int({ required: false, description: 'absent: a new dictionary (administrators)' }),
  name: t.arg.string({ required: false, description: "a new dictionary's name" }),
  merge: t.arg.string({ required: false, description: 'ENTRY_ID (default), TERM or NONE' }),
  sectionOid: t.arg.string({ required: false, description: "new concepts' section (default: the first)" }),
  stagingAreaId: t.arg.int({
    required: false,
    description:
      'the entries wait in this staging area for review instead of being written (docs/staging.md)',
  }),
});

const place = (args: {
  dictionaryId?: number | null;
  name?: string | null;
  merge?: string | null;
  sectionOid?: string | null;
  stagingAreaId?: number | null;
}) =>
  defined({
    'dictionary-id': args.dictionaryId ?? undefined,
    name: args.name ?? undefined,
    merge: (args.merge ?? 'ENTRY_ID') as 'ENTRY_ID',
    'section-oid': args.sectionOid ?? undefined,
    'staging-area-id': args.stagingAreaId ?? undefined,
  });

builder.mutationFields((t) => ({
  importTbx: t.field({
    type: ImportOutcomeRef,
    description:
      'As POST /api/v4/dictionaries/import-tbx: a TBX or MultiTerm XML file (told apart by the root element).',
    args: {
      ...placeArgs(t),
      statusMapping: t.arg({ type: TbxStatusMappingInputRef, required: false }),
    },
    resolve: (_, args, context) =>
      withUpload(args.file, (file) =>
        context.api.tbx.importFile({
          file,
          ...place(args),
          ...(args.statusMapping
            ? {
                'status-mapping': Object.fromEntries(
                  Object.entries(args.statusMapping).filter(([, value]) => value != null),
                ) as Parameters<typeof context.api.tbx.importFile>[0]['status-mapping'],
              }
            : {}),
        }),
      ),
  }),
  previewSpreadsheet: t.field({
    type: 'JSON',
    description:
      'As POST /api/v4/dictionaries/import-spreadsheet/preview: the first rows of a CSV or XLSX file and the ' +
      'proposed mapping (kind, sheets, sheet, encoding, delimiter, rows, mapping).',
    args: {
      file: t.arg({ type: 'File', required: true }),
      sheet: t.arg.string({ required: false }),
      delimiter: t.arg.string({ required: false }),
      encoding: t.arg.string({ required: false }),
    },
    resolve: (_, args, context) =>
      withUpload(args.file, (file) =>
        context.api.spreadsheet.preview({
          file,
          ...(defined({
            sheet: args.sheet ?? undefined,
            delimiter: args.delimiter ?? undefined,
            encoding: args.encoding ?? undefined,
          }) as object),
        }),
      ),
  }),
  importSpreadsheet: t.field({
    type: ImportOutcomeRef,
    description:
      'As POST /api/v4/dictionaries/import-spreadsheet: a CSV or XLSX file read by the mapping (as the ' +
      'preview proposes it, changed as needed; docs/exchange.md).',
    args: { ...placeArgs(t), mapping: t.arg({ type: 'JSON', required: true }) },
    resolve: (_, args, context) =>
      withUpload(args.file, (file) =>
        context.api.spreadsheet.importFile({
          file,
          ...place(args),
          mapping: args.mapping as Parameters<typeof context.api.spreadsheet.importFile>[0]['mapping'],
        }),
      ),
  }),
  importSkos: t.field({
    type: ImportOutcomeRef,
    description: 'As POST /api/v4/dictionaries/import-skos: Turtle, RDF/XML or JSON-LD.',
    args: {
      ...placeArgs(t),
      format: t.arg.string({
        required: false,
        description: 'turtle, rdfxml or jsonld; default: by the file',
      }),
      hidden: t.arg.string({ required: false, description: 'FORBIDDEN (default) or DEPRECATED' }),
    },
    resolve: (_, args, context) =>
      withUpload(args.file, (file) =>
        context.api.skos.importFile({
          file,
          ...place(args),
          format: (args.format ?? undefined) as 'turtle' | undefined,
          hidden: (args.hidden ?? 'FORBIDDEN') as 'FORBIDDEN',
        }),
      ),
  }),
}));
