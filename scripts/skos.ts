/**
 * SKOS import and export from the command line (docs/exchange.md, "Command line"), through a running
 * server (REST, the default) or directly in the database (--database URL, or --direct with DATABASE_URL):
 *
 *   npm run skos -- import FILE [--format turtle|rdfxml|jsonld] [--dictionary ID | --name NAME] [--merge ...]
 *   npm run skos -- export ID --out FILE [--format turtle|rdfxml|jsonld] [--base-iri IRI] [--deprecated alt|hidden]
 */

import { parseSkosCli, USAGE } from './skos/options.js';
import { runSkosCli } from './skos/run.js';
import { CliError } from './tbx/output.js';

let code = 0;
try {
  const cli = parseSkosCli(process.argv.slice(2));
  if (cli === 'help') console.log(USAGE);
  else await runSkosCli(cli);
} catch (error) {
  const known = error instanceof CliError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
  console.error(known ? (error as Error).message : error);
  code = 1;
}
// A finished job or closed pool may leave timers behind; the answer is complete here.
process.exit(code);
