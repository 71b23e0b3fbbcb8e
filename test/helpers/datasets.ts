import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The Icelandic Term Bank TBX files (CC BY-SA 3.0; licence and attribution beside them), read in place,
 * never copied into the repository. ICELANDIC_TERM_BANK_DIR wins; otherwise the `shared` folder beside
 * the checkout, then the team machine's /work/shared. When none exists the first candidate is answered,
 * so the suites fail loudly instead of skipping.
 */
function datasetFolder(): string {
  const candidates = [
    process.env.ICELANDIC_TERM_BANK_DIR,
    fileURLToPath(new URL('../../../shared/datasets/icelandic-term-bank/', import.meta.url)),
    '/work/shared/datasets/icelandic-term-bank/',
  ].filter((candidate): candidate is string => Boolean(candidate));
  const folder = candidates.find((candidate) => existsSync(candidate)) ?? candidates[0]!;
  return folder.endsWith('/') ? folder : `${folder}/`;
}

export const ICELANDIC_TERM_BANK_DIR = datasetFolder();
