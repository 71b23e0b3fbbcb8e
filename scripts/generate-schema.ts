/**
 * Writes schema/openapi.json and schema/schema.graphql from the code; with --check, fails when the
 * committed files differ from what the code generates (CI runs this).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { rawRoutePaths } from '../src/app.js';
import { printSdl } from '../src/graphql/schema.js';
import { buildOpenApiDocument } from '../src/trpc/openapi.js';

const outputs = {
  'schema/openapi.json': `${JSON.stringify(buildOpenApiDocument(rawRoutePaths), null, 2)}\n`,
  'schema/schema.graphql': printSdl(),
};

const check = process.argv.includes('--check');
let drift = false;
for (const [file, content] of Object.entries(outputs)) {
  if (check) {
    const committed = await readFile(file, 'utf8').catch(() => '');
    if (committed !== content) {
      drift = true;
      console.error(`${file} is out of date: run npm run schema:generate and commit the result.`);
    }
  } else {
    await writeFile(file, content);
    console.log(`wrote ${file}`);
  }
}
process.exit(drift ? 1 : 0);
