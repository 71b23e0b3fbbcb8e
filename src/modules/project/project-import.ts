/**
 * Candidates from a file (docs/projects.md, Candidates): TBX through the TBX reader, CSV and XLSX through
 * the spreadsheet reader and its column mapping — the importers' own parsing, each entry a candidate.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../../shared/errors.js';
import { sheetEntries } from '../spreadsheet/sheet-entries.js';
import { type SheetMapping, SheetMappingSchema } from '../spreadsheet/sheet-mapping.js';
import { proposeMapping } from '../spreadsheet/sheet-proposal.js';
import { readSheetRows, SheetFormatError, type SheetRow, sheetShape } from '../spreadsheet/sheet-reader.js';
import type { TbxEntry } from '../tbx/tbx-model.js';
import { readTbx, TbxFormatError } from '../tbx/tbx-reader.js';
import { makeUploadDir } from '../tbx/tbx-upload-dir.js';
import type { ImportCandidatesInput } from './project.schema.js';
import type { CandidateInput } from './project-candidates.js';

interface LineError {
  line: number;
  message: string;
}

/** An entry as a candidate: its terms per language, its first definition; null without terms. */
function candidateOf(entry: TbxEntry, source: string): CandidateInput | null {
  const terms = entry.languages.flatMap((language) =>
    language.terms
      .filter((term) => term.term.trim() !== '')
      .map((term) => ({ languageCode: language.lang, term: term.term.trim().slice(0, 1024) })),
  );
  if (terms.length === 0) return null;
  const definition = [...entry.values, ...entry.languages.flatMap((language) => language.values)].find(
    (value) => value.category === 'definition',
  );
  return {
    terms: terms.slice(0, 100),
    definition: definition?.value ?? null,
    source: `${source}:${entry.line}`,
  };
}

async function collect(entries: AsyncIterable<TbxEntry>, source: string) {
  const candidates: CandidateInput[] = [];
  const errors: LineError[] = [];
  for await (const entry of entries) {
    const candidate = candidateOf(entry, source);
    if (candidate) candidates.push(candidate);
    else errors.push({ line: entry.line, message: 'an entry without terms is no candidate' });
    if (candidates.length > 20_000)
      throw new AppError('PAYLOAD_TOO_LARGE', 'A file holds at most 20,000 candidates');
  }
  return { candidates, errors };
}

async function fromSheet(input: ImportCandidatesInput, source: string) {
  const dir = await makeUploadDir();
  try {
    const path = join(dir, 'candidates');
    await writeFile(path, input.format === 'XLSX' ? Buffer.from(input.content, 'base64') : input.content);
    let mapping: SheetMapping | null = null;
    if (input.mapping !== undefined) {
      const parsed = SheetMappingSchema.safeParse(input.mapping);
      if (!parsed.success)
        throw new AppError('BAD_REQUEST', `mapping: ${parsed.error.issues[0]?.message ?? 'not valid'}`);
      mapping = parsed.data;
    }
    const shape = await sheetShape(path, mapping ?? {});
    if (!mapping) {
      const head: SheetRow[] = [];
      for await (const row of readSheetRows(path, shape)) {
        head.push(row);
        if (head.length >= 20) break;
      }
      mapping = proposeMapping(head);
    }
    if (!mapping.columns.some((column) => column.role === 'term')) {
      throw new AppError('BAD_REQUEST', 'mapping.columns: no column holds terms (role "term")');
    }
    return await collect(sheetEntries(readSheetRows(path, shape), mapping), source);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The candidates a file holds, and the entries left out with their line; 400 for a file that is not valid. */
export async function readCandidateFile(input: ImportCandidatesInput) {
  const source = input.fileName ?? `candidates.${input.format.toLowerCase()}`;
  try {
    if (input.format === 'TBX') return await collect(readTbx([input.content]), source);
    return await fromSheet(input, source);
  } catch (error) {
    if (error instanceof TbxFormatError)
      throw new AppError('BAD_REQUEST', `Not a valid TBX file: ${error.message}`);
    if (error instanceof SheetFormatError)
      throw new AppError('BAD_REQUEST', `Not a valid spreadsheet: ${error.message}`);
    throw error;
  }
}
