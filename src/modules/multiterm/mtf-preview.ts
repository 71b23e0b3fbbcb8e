/**
 * The MultiTerm import's mapping step (docs/exchange.md): what a MultiTerm XML file (and its termbase
 * definition) holds, its indexes and descriptive fields with where they occur, and a proposed mapping of
 * each field to a TBX data category or a field of its own name, to be changed and sent to the import.
 */
import { createReadStream } from 'node:fs';
import { z } from 'zod';
import { AppError } from '../../shared/errors.js';
import { categoryOfName } from '../tbx/field-names.js';
import type { TbxUpload } from '../tbx/tbx-import.service.js';
import { TbxFormatError } from '../tbx/tbx-reader.js';
import { termbaseFormat } from '../tbx/termbase-file.js';
import type { MtfLevel } from './mtf-definition.js';
import { MtfFieldMappingSchema } from './mtf-field-mapping.js';
import { unpackMultiTermZip, uploadedDefinition } from './mtf-package.js';
import { readMtf } from './mtf-reader.js';

const Levels = z.enum(['CONCEPT', 'LANGUAGE', 'TERM']);
/** Sample values kept per field. */
const SAMPLES = 3;

export const MtfPreviewSchema = z.object({
  definition: z.boolean().describe('whether a termbase definition (.xdt) came with the file'),
  name: z.string().nullable().describe("the termbase's name in the definition"),
  entries: z.number().int().describe('entries (conceptGrp) in the file'),
  languages: z
    .array(z.object({ lang: z.string(), name: z.string(), terms: z.number().int() }))
    .describe('the indexes: lang attribute (or the definition locale), index name, terms in the file'),
  fields: z
    .array(
      z.object({
        name: z.string(),
        type: z.string().describe('TEXT, PICKLIST, NUMBER, DATE, BOOLEAN, MULTIMEDIA (from the definition)'),
        levels: z.array(Levels).describe('where the file or the definition has it'),
        picklist: z.array(z.string()),
        values: z.number().int().describe('values in the file'),
        samples: z.array(z.string()),
      }),
    )
    .describe('the descriptive fields, in the order first met (the definition first)'),
  mapping: MtfFieldMappingSchema.describe(
    'the proposed mapping: send it (changed as needed) as field-mapping to POST /dictionaries/import-tbx',
  ),
});
export type MtfPreview = z.infer<typeof MtfPreviewSchema>;

type PreviewField = MtfPreview['fields'][number];

export async function previewMultiTerm(upload: TbxUpload): Promise<MtfPreview> {
  await unpackMultiTermZip(upload);
  if ((await termbaseFormat(upload.path)) !== 'MULTITERM_XML') {
    throw new AppError('BAD_REQUEST', 'Not MultiTerm XML: the root element is not <mtf>');
  }
  const definition = await uploadedDefinition(upload);
  const fields = new Map<string, PreviewField>();
  const languages = new Map<string, { lang: string; name: string; terms: number }>();
  const fieldOf = (name: string) => {
    const key = name.toLowerCase();
    let field = fields.get(key);
    if (!field) {
      field = { name, type: 'TEXT', levels: [], picklist: [], values: 0, samples: [] };
      fields.set(key, field);
    }
    return field;
  };
  for (const language of definition?.languages ?? []) {
    languages.set(language.locale.toLowerCase(), { lang: language.locale, name: language.name, terms: 0 });
  }
  for (const given of definition?.fields ?? []) {
    Object.assign(fieldOf(given.name), {
      type: given.type,
      levels: [...given.levels],
      picklist: given.picklist,
    });
  }
  let entries = 0;
  try {
    const reading = readMtf(createReadStream(upload.path), {
      onField: (name: string, level: MtfLevel, text: string) => {
        const field = fieldOf(name);
        field.values++;
        if (!field.levels.includes(level)) field.levels.push(level);
        if (text && field.samples.length < SAMPLES && !field.samples.includes(text))
          field.samples.push(text.slice(0, 200));
      },
      onLanguage: (lang: string, name: string) => {
        const key = lang.toLowerCase();
        if (!languages.has(key)) languages.set(key, { lang, name, terms: 0 });
      },
    });
    for await (const entry of reading) {
      entries++;
      for (const section of entry.languages) {
        const language = languages.get(section.lang.toLowerCase());
        if (language) language.terms += section.terms.length;
      }
    }
  } catch (error) {
    if (error instanceof TbxFormatError)
      throw new AppError('BAD_REQUEST', `Not a valid MultiTerm XML file: ${error.message}`);
    throw error;
  }
  const list = [...fields.values()];
  return {
    definition: definition !== undefined,
    name: definition?.name ?? null,
    entries,
    languages: [...languages.values()],
    fields: list,
    mapping: list.map((field) => ({ name: field.name, field: categoryOfName(field.name) })),
  };
}
