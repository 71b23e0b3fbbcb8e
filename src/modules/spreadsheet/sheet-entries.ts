/**
 * Spreadsheet rows to the entries the TBX import writes (one row a concept), by a SheetMapping. A field
 * is named as a TBX data category or by the names MultiTerm and most spreadsheets use (Definition, Note,
 * Source, Status…: tbx/field-names.ts), so both land in the dictionary's fields of that kind.
 */
import { importedValue } from '../tbx/field-names.js';
import type { TbxEntry, TbxLanguageSection, TbxTerm, TbxValue } from '../tbx/tbx-model.js';
import type { SheetMapping } from './sheet-mapping.js';
import type { SheetRow } from './sheet-reader.js';

/** Splits a cell by a separator's first non-space character ("; " splits at ";"), trimmed, empties left out. */
export function splitCell(cell: string, separator: string | undefined): string[] {
  const at = separator?.trim() || separator;
  const parts = at ? cell.split(at) : [cell];
  return parts.map((part) => part.trim()).filter(Boolean);
}

function fieldValue(field: string, text: string, line: number): TbxValue {
  const { category, value } = importedValue(field, text);
  return { category, element: 'descrip', value, line };
}

/** The entry of one row; null for a row with no value at all. */
export function rowEntry(row: SheetRow, mapping: SheetMapping): TbxEntry | null {
  const line = row.row;
  const entry: TbxEntry = { id: null, values: [], transactions: [], languages: [], line };
  const sections = new Map<string, TbxLanguageSection>();
  const section = (language: string) => {
    const key = language.toLowerCase();
    let found = sections.get(key);
    if (!found) {
      found = { lang: language, values: [], terms: [] };
      sections.set(key, found);
      entry.languages.push(found);
    }
    return found;
  };
  let any = false;
  const termFields: { language: string; field: string; parts: string[]; terms?: TbxTerm[] }[] = [];
  // The terms of each language's latest term column: a term field after it belongs to them (synonyms in
  // repeated columns, each followed by its fields).
  const recent = new Map<string, TbxTerm[]>();
  mapping.columns.forEach((column, index) => {
    const cell = (row.cells[index] ?? '').trim();
    if (column.role === 'term') recent.set(column.language.toLowerCase(), []);
    if (!cell || column.role === 'ignore') return;
    any = true;
    switch (column.role) {
      case 'id':
        entry.id = cell;
        return;
      case 'term':
        for (const term of splitCell(cell, column.separator)) {
          const made: TbxTerm = { id: null, term, values: [], transactions: [], line };
          section(column.language).terms.push(made);
          recent.get(column.language.toLowerCase())!.push(made);
        }
        return;
      case 'termField':
        termFields.push({
          language: column.language,
          field: column.field,
          parts: splitCell(cell, column.separator),
          terms: recent.get(column.language.toLowerCase()),
        });
        return;
      case 'languageField':
        section(column.language).values.push(fieldValue(column.field, cell, line));
        return;
      case 'conceptField':
        for (const part of splitCell(cell, column.separator))
          entry.values.push(fieldValue(column.field, part, line));
        return;
      case 'domain':
        for (const part of splitCell(cell, column.separator)) {
          entry.values.push({ category: 'subjectField', element: 'descrip', value: part, line });
        }
        return;
    }
  });
  // After every term column: a term value split like its terms (those of the term column before it, else
  // all of its language's) goes part by part, else whole to each.
  for (const { language, field, parts, terms: after } of termFields) {
    const terms = after ?? sections.get(language.toLowerCase())?.terms ?? [];
    terms.forEach((term, index) => {
      const text = parts.length === terms.length ? parts[index] : parts.join('; ');
      if (text) term.values.push(fieldValue(field, text, line));
    });
  }
  return any ? entry : null;
}

/** The entries of the rows, the header row left out when the mapping says there is one. */
export async function* sheetEntries(
  rows: AsyncIterable<SheetRow>,
  mapping: SheetMapping,
): AsyncGenerator<TbxEntry> {
  for await (const row of rows) {
    if (mapping.headerRow && row.row === 1) continue;
    const entry = rowEntry(row, mapping);
    if (entry) yield entry;
  }
}
