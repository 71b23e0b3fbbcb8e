/** The command line of `npm run tbx`: the command, its parameters and how to reach the data. */
import { parseArgs } from 'node:util';
import { CliError } from './output.js';

export const USAGE = `Usage:
  npm run tbx -- import FILE [--dictionary ID | --name NAME] [--merge ENTRY_ID|TERM|NONE] [--section OID]
                    [--status-mapping deprecatedTerm:forbidden,...]
                    [--mapping MAPPING.json]            (a CSV or XLSX file, by its column mapping)
                    [--definition FILE.xdt] [--field-mapping FIELDS.json]   (MultiTerm XML)
  npm run tbx -- preview FILE [--definition FILE.xdt] [--sheet NAME] [--out PREVIEW.json]
                    (a spreadsheet's or MultiTerm file's proposed mapping: edit its "mapping" and pass it)
  npm run tbx -- export DICTIONARY_ID --out FILE [--format TBX|TBX_V2|TBX_V3_FULL|TBX_V2_FULL|MULTITERM_XML|CSV|XLSX] [--languages eng,isl] [--fields OIDS]
                    [--filter ID] [--saved-query ID] [--status-mapping deprecatedTerm:forbidden,...] [--synonyms JOINED|COLUMNS]
                    [--with-files]   (TBX: a zip with attachment files; MULTITERM_XML: a zip with the .xdt)
Through a running server (default):
  --server URL (POLYTERM_URL, default http://127.0.0.1:8080)
  --token TOKEN (POLYTERM_TOKEN)  or  --user NAME --password SECRET [--client LOGIN]
  (POLYTERM_USER, POLYTERM_PASSWORD, POLYTERM_CLIENT)
Directly in the database (no server needed; no password: whoever holds the database URL owns the data):
  --database URL  or  --direct (DATABASE_URL)
  --user NAME (POLYTERM_USER), acting as that user; --client LOGIN (POLYTERM_CLIENT) when MULTI_TENANT
Without --dictionary the import makes a new dictionary (named --name, else the file's title).`;

interface Common {
  command: 'import' | 'export' | 'preview';
  /** The file to import, or the id of the dictionary to export. */
  target: string;
  dictionary?: string;
  name?: string;
  merge: string;
  section?: string;
  out?: string;
  format: string;
  languages?: string;
  fields?: string;
  filter?: string;
  savedQuery?: string;
  /** Administrative status -> term status (docs/tbx.md, Administrative statuses). */
  statusMapping?: string;
  /** A spreadsheet's column mapping (JSON file): the import is a spreadsheet import. */
  mapping?: string;
  /** MultiTerm XML: the termbase definition (.xdt) and the field mapping (JSON file). */
  definition?: string;
  fieldMapping?: string;
  sheet?: string;
  synonyms: string;
  withFiles: boolean;
}

export interface ServerCli extends Common {
  mode: 'server';
  server: string;
  token?: string;
  user?: string;
  password?: string;
  client?: string;
}

export interface DirectCli extends Common {
  mode: 'direct';
  database: string;
  user: string;
  client?: string;
}

export type Cli = ServerCli | DirectCli;

/**
 * `--token X` and `--password X` as `--token=X`: a session token or a password may start with a dash
 * (tokens are random base64url), which parseArgs would otherwise refuse as an ambiguous option.
 */
export function withSecretValues(args: readonly string[]): string[] {
  const joined: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if ((arg === '--token' || arg === '--password') && index + 1 < args.length) {
      joined.push(`${arg}=${args[++index]}`);
    } else joined.push(arg);
  }
  return joined;
}

/** Reads the arguments (and the POLYTERM_* / DATABASE_URL defaults); a mistake throws with the usage. */
export function parseCli(args: string[], env: NodeJS.ProcessEnv = process.env): Cli | 'help' {
  const { values, positionals } = parseArgs({
    args: withSecretValues(args),
    allowPositionals: true,
    options: {
      server: { type: 'string' },
      token: { type: 'string' },
      database: { type: 'string' },
      direct: { type: 'boolean' },
      user: { type: 'string' },
      password: { type: 'string' },
      client: { type: 'string' },
      dictionary: { type: 'string' },
      name: { type: 'string' },
      merge: { type: 'string', default: 'ENTRY_ID' },
      section: { type: 'string' },
      out: { type: 'string' },
      format: { type: 'string', default: 'TBX' },
      languages: { type: 'string' },
      fields: { type: 'string' },
      filter: { type: 'string' },
      'saved-query': { type: 'string' },
      'status-mapping': { type: 'string' },
      mapping: { type: 'string' },
      definition: { type: 'string' },
      'field-mapping': { type: 'string' },
      sheet: { type: 'string' },
      synonyms: { type: 'string', default: 'JOINED' },
      'with-files': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  const [command, target, extra] = positionals;
  if (
    (command !== 'import' && command !== 'export' && command !== 'preview') ||
    !target ||
    extra !== undefined
  ) {
    throw new CliError(USAGE);
  }
  if (values.mapping && (values.definition || values['field-mapping'])) {
    throw new CliError('--mapping is for spreadsheets, --definition and --field-mapping for MultiTerm XML');
  }
  if (command === 'export' && !values.out) throw new CliError(`Give --out FILE.\n${USAGE}`);
  if (command === 'export' && !/^\d+$/.test(target)) throw new CliError('The dictionary id must be a number');
  if (values.dictionary && values.name) throw new CliError('Give --dictionary or --name, not both');
  const common: Common = {
    command,
    target,
    dictionary: values.dictionary,
    name: values.name,
    merge: values.merge!.toUpperCase(),
    section: values.section,
    out: values.out,
    format: values.format!.toUpperCase(),
    languages: values.languages,
    fields: values.fields,
    filter: values.filter,
    savedQuery: values['saved-query'],
    statusMapping: values['status-mapping'],
    mapping: values.mapping,
    definition: values.definition,
    fieldMapping: values['field-mapping'],
    sheet: values.sheet,
    synonyms: values.synonyms!.toUpperCase(),
    withFiles: values['with-files'] ?? false,
  };
  const user = values.user ?? env.POLYTERM_USER;
  const client = values.client ?? env.POLYTERM_CLIENT;

  if (values.database !== undefined || values.direct) {
    if (values.server !== undefined || values.token !== undefined || values.password !== undefined) {
      throw new CliError('--server, --token and --password belong to the server mode, not to --database');
    }
    const database = values.database ?? env.DATABASE_URL;
    if (!database)
      throw new CliError('--direct reads DATABASE_URL, which is not set; or give --database URL');
    if (!user) throw new CliError(`Give --user NAME: the user the import or export acts as.\n${USAGE}`);
    return { ...common, mode: 'direct', database, user, client };
  }
  return {
    ...common,
    mode: 'server',
    server: values.server ?? env.POLYTERM_URL ?? 'http://127.0.0.1:8080',
    token: values.token ?? env.POLYTERM_TOKEN,
    user,
    password: values.password ?? env.POLYTERM_PASSWORD,
    client,
  };
}
