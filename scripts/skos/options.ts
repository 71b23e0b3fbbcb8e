/** The command line of `npm run skos`: the command, its parameters and how to reach the data. */
import { parseArgs } from 'node:util';
import { withSecretValues } from '../tbx/options.js';
import { CliError } from '../tbx/output.js';

export const USAGE = `Usage:
  npm run skos -- import FILE [--format turtle|rdfxml|jsonld] [--dictionary ID | --name NAME]
                    [--merge ENTRY_ID|TERM|NONE] [--section OID] [--hidden FORBIDDEN|DEPRECATED]
  npm run skos -- export DICTIONARY_ID --out FILE [--format turtle|rdfxml|jsonld] [--base-iri IRI]
                    [--deprecated alt|hidden] [--include-unpublished] [--languages eng,fra] [--fields OIDS] [--filter ID] [--saved-query ID]
Through a running server (default):
  --server URL (POLYTERM_URL, default http://127.0.0.1:8080)
  --token TOKEN (POLYTERM_TOKEN)  or  --user NAME --password SECRET [--client LOGIN]
Directly in the database (no server needed):
  --database URL  or  --direct (DATABASE_URL); --user NAME [--client LOGIN]
Without --dictionary the import makes a new dictionary (named --name, else the scheme's title).
Without --format the import reads the file name's extension (.ttl .nt .rdf .xml .owl .jsonld .json).`;

export interface SkosCli {
  command: 'import' | 'export';
  target: string;
  format?: string;
  dictionary?: string;
  name?: string;
  merge: string;
  section?: string;
  hidden: string;
  out?: string;
  baseIri?: string;
  deprecated: string;
  includeUnpublished: boolean;
  languages?: string;
  fields?: string;
  filter?: string;
  savedQuery?: string;
  mode: 'server' | 'direct';
  server: string;
  database: string;
  token?: string;
  user?: string;
  password?: string;
  client?: string;
}

/** Reads the arguments (and the POLYTERM_* / DATABASE_URL defaults); a mistake throws with the usage. */
export function parseSkosCli(args: string[], env: NodeJS.ProcessEnv = process.env): SkosCli | 'help' {
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
      format: { type: 'string' },
      dictionary: { type: 'string' },
      name: { type: 'string' },
      merge: { type: 'string', default: 'ENTRY_ID' },
      section: { type: 'string' },
      hidden: { type: 'string', default: 'FORBIDDEN' },
      out: { type: 'string' },
      'base-iri': { type: 'string' },
      deprecated: { type: 'string', default: 'alt' },
      'include-unpublished': { type: 'boolean' },
      languages: { type: 'string' },
      fields: { type: 'string' },
      filter: { type: 'string' },
      'saved-query': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  const [command, target, extra] = positionals;
  if ((command !== 'import' && command !== 'export') || !target || extra !== undefined)
    throw new CliError(USAGE);
  if (command === 'export' && !values.out) throw new CliError(`Give --out FILE.\n${USAGE}`);
  if (command === 'export' && !/^\d+$/.test(target)) throw new CliError('The dictionary id must be a number');
  if (values.dictionary && values.name) throw new CliError('Give --dictionary or --name, not both');
  const direct = values.database !== undefined || Boolean(values.direct);
  const database = values.database ?? env.DATABASE_URL ?? '';
  if (direct && !database)
    throw new CliError('--direct reads DATABASE_URL, which is not set; or give --database URL');
  const user = values.user ?? env.POLYTERM_USER;
  if (direct && !user)
    throw new CliError(`Give --user NAME: the user the import or export acts as.\n${USAGE}`);
  return {
    command,
    target,
    format: values.format?.toLowerCase(),
    dictionary: values.dictionary,
    name: values.name,
    merge: values.merge!.toUpperCase(),
    section: values.section,
    hidden: values.hidden!.toUpperCase(),
    out: values.out,
    baseIri: values['base-iri'],
    deprecated: values.deprecated!.toLowerCase(),
    includeUnpublished: Boolean(values['include-unpublished']),
    languages: values.languages,
    fields: values.fields,
    filter: values.filter,
    savedQuery: values['saved-query'],
    mode: direct ? 'direct' : 'server',
    server: values.server ?? env.POLYTERM_URL ?? 'http://127.0.0.1:8080',
    database,
    token: values.token ?? env.POLYTERM_TOKEN,
    user,
    password: values.password ?? env.POLYTERM_PASSWORD,
    client: values.client ?? env.POLYTERM_CLIENT,
  };
}
