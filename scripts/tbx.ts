/**
 * TBX import and export from the command line (docs/tbx.md, "Command line"), either through a running
 * server (REST, the default) or directly in the database (--database URL, or --direct with DATABASE_URL):
 *
 *   npm run tbx -- import FILE [--dictionary ID | --name NAME] [--merge ENTRY_ID|TERM|NONE] [--section OID]
 *   npm run tbx -- export ID --out FILE [--format TBX|TBX_V2|TBX_V3_FULL|TBX_V2_FULL|MULTITERM_XML|CSV|XLSX] [--languages eng,isl] [--fields OIDS] [--filter ID] [--saved-query ID]
 *
 * Server: --server URL (POLYTERM_URL), --token TOKEN (POLYTERM_TOKEN) or --user NAME --password SECRET
 * [--client LOGIN]. Database: --user NAME [--client LOGIN], no password. Both show the same progress bar
 * (the job's processed/total) and summary (concepts, terms, updated, skipped, errors with their lines).
 */
import { runDirectMode } from './tbx/direct-mode.js';
import { parseCli, USAGE } from './tbx/options.js';
import { CliError } from './tbx/output.js';
import { runServerMode } from './tbx/server-mode.js';

async function main(): Promise<number> {
  const cli = parseCli(process.argv.slice(2));
  if (cli === 'help') {
    console.log(USAGE);
    return 0;
  }
  if (cli.mode === 'direct') await runDirectMode(cli);
  else await runServerMode(cli);
  return 0;
}

let code: number;
try {
  code = await main();
} catch (error) {
  // parseArgs refuses unknown options with a TypeError that says which.
  const known = error instanceof CliError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
  console.error(known ? (error as Error).message : error);
  code = 1;
}
// A finished job or closed pool may leave timers behind; the answer is complete here.
process.exit(code);
