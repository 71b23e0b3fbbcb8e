/**
 * The mapping a preview proposes from a sheet's header and first rows (docs/exchange.md): a column named
 * after a language holds its terms (English, Deutsch, en, eng, en-US, "English (United States)");
 * "<language>: <field>" a value of its terms, "<field> (<language>)" or "<language> <field>" likewise
 * (a definition: of the language); ID, Domain and Subject their roles; any other name a concept field.
 * Cells holding ";" or "|" propose it as the separator of synonyms.
 */
import { iso6392 } from 'iso-639-2';
import { importedValue } from '../tbx/field-names.js';
import type { SheetColumn, SheetMapping } from './sheet-mapping.js';
import type { SheetRow } from './sheet-reader.js';

const ID_NAMES = /^(id|concept ?id|entry ?id|concept|entry|entry number|nr\.?|no\.?|number)$/i;
const DOMAIN_NAMES = /^(domains?|subject|subject ?field|sachgebiet|fachgebiet|domaine|dominio|svið)$/i;

/** Lower-case names and codes of languages -> their ISO 639-1 (else 639-2) code. */
const languageNames = (() => {
  const names = new Map<string, string>();
  const english = new Intl.DisplayNames(['en'], { type: 'language' });
  for (const entry of iso6392) {
    const code = entry.iso6391 ?? entry.iso6392T ?? entry.iso6392B;
    if (!code || entry.iso6392B === 'qaa-qtz') continue;
    for (const alias of [entry.iso6391, entry.iso6392B, entry.iso6392T]) {
      if (alias) names.set(alias.toLowerCase(), code);
    }
    if (!entry.iso6391) continue;
    for (const name of [english.of(entry.iso6391), safeNative(entry.iso6391), entry.name.split(';')[0]]) {
      if (name && !names.has(name.toLowerCase())) names.set(name.toLowerCase(), code);
    }
  }
  return names;
})();

function safeNative(code: string): string | undefined {
  try {
    return new Intl.DisplayNames([code], { type: 'language' }).of(code);
  } catch {
    return undefined;
  }
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** The language tag a header names (`English` -> en, `en_US` -> en-US, `English (United States)` -> en-US). */
export function headerLanguage(header: string): string | null {
  const text = header.trim();
  const tag = /^([a-z]{2,3})(?:[-_]([a-z]{2}))?$/i.exec(text);
  if (tag) {
    const code = languageNames.get(tag[1]!.toLowerCase());
    if (code) return tag[2] ? `${code}-${tag[2].toUpperCase()}` : code;
  }
  const named = /^(.+?)(?:\s*\(([^)]+)\))?$/.exec(text);
  const code = named ? languageNames.get(named[1]!.toLowerCase()) : undefined;
  if (!code) return null;
  if (!named![2]) return code;
  const region = /^[a-z]{2}$/i.test(named![2]) ? named![2].toUpperCase() : regionCode(named![2]);
  return region ? `${code}-${region}` : null;
}

function regionCode(name: string): string | null {
  for (let a = 65; a <= 90; a++) {
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      try {
        if (regionNames.of(code)?.toLowerCase() === name.toLowerCase()) return code;
      } catch {
        /* not a region code */
      }
    }
  }
  return null;
}

/** A header "<field> (<language>)", "<language>: <field>", "<language> (language): <field>" or "<language> <field>". */
function languageValue(header: string): { language: string; field: string; ofLanguage: boolean } | null {
  const text = header.trim();
  const explicit = /^(.+?)\s*\(language\)\s*:\s*(.+)$/i.exec(text);
  if (explicit) {
    const language = headerLanguage(explicit[1]!);
    return language ? { language, field: explicit[2]!, ofLanguage: true } : null;
  }
  const colon = /^(.+?)\s*:\s*(.+)$/.exec(text);
  if (colon) {
    const language = headerLanguage(colon[1]!);
    return language ? { language, field: colon[2]!, ofLanguage: false } : null;
  }
  const trailing = /^(.+?)\s*\(([^)]+)\)$/.exec(text);
  const leading = /^(\S+)\s+(.+)$/.exec(text);
  for (const [field, name] of [
    [trailing?.[1], trailing?.[2]],
    [leading?.[2], leading?.[1]],
  ]) {
    const language = name ? headerLanguage(name) : null;
    if (language && field) {
      // A definition in a language is the language's; other values (notes, grammar) its terms'.
      return { language, field, ofLanguage: importedValue(field, '').category === 'definition' };
    }
  }
  return null;
}

function separatorIn(cells: string[]): string | undefined {
  if (cells.some((cell) => cell.includes(';'))) return '; ';
  if (cells.some((cell) => cell.includes('|'))) return '|';
  return undefined;
}

/** The proposed mapping of a sheet: its first row read as a header when any column names a language. */
export function proposeMapping(rows: SheetRow[]): SheetMapping {
  const header = rows[0]?.cells ?? [];
  const body = rows.slice(1);
  const column = (index: number) => body.map((row) => row.cells[index] ?? '');
  const columns: SheetColumn[] = header.map((name, index): SheetColumn => {
    const text = name.trim();
    if (!text) return { role: 'ignore' };
    // Before languages: "ID" and "No." are also language codes (Indonesian, Norwegian).
    if (ID_NAMES.test(text)) return { role: 'id' };
    if (DOMAIN_NAMES.test(text)) return { role: 'domain', separator: separatorIn(column(index)) };
    const language = headerLanguage(text);
    if (language) return { role: 'term', language, separator: separatorIn(column(index)) };
    const value = languageValue(text);
    if (value?.ofLanguage) return { role: 'languageField', language: value.language, field: value.field };
    if (value) {
      return {
        role: 'termField',
        language: value.language,
        field: value.field,
        separator: separatorIn(column(index)),
      };
    }
    return { role: 'conceptField', field: text };
  });
  const headerRow = columns.some((c) => c.role === 'term');
  return headerRow
    ? { headerRow, columns }
    : { headerRow: false, columns: header.map(() => ({ role: 'ignore' as const })) };
}
