/**
 * TBX language tags (`xml:lang`) to the language, region and script codes Polyterm stores. Tags are
 * BCP 47-like (`en-US`, `zh-Hant`, `sr_Latn_RS`), but real term banks also write codes that are not
 * ISO 639 at all: the Nordic term banks use country-like codes (`dk` Danish, `sf` Finnish).
 *
 * `no`, `nn`, `fo`, `la` need no quirk: they are the ISO 639-1 codes of Norwegian (nor), Nynorsk (nno),
 * Faroese (fao) and Latin (lat). `gl` is ISO 639-1 Galician (glg), but the Nordic files use it for
 * Greenlandic (kal, ISO `kl`), and `sm` (ISO Samoan) for Sami: the tag alone cannot tell, so those two
 * are read the Nordic way only when the caller says the file is a Nordic one (see usesNordicCodes).
 */
import { isoLanguage, isoRegionName, isoScriptName } from '../language/iso-codes.js';

export interface TbxLanguage {
  /** ISO 639-2/T code (`dan`, `eng`, `zho`). */
  languageCode: string;
  /** ISO 3166-1 alpha-2, upper case (`US`), or null. */
  regionCode: string | null;
  /** ISO 15924, lower case (`hant`), or null. */
  scriptCode: string | null;
}

export interface TbxLanguageOptions {
  /** The file follows the Nordic term banks' conventions: `gl` is Greenlandic and `sm` Sami. */
  nordic?: boolean;
}

/** Codes that are no ISO 639 code, so mapping them never hides a real language. */
const NON_ISO_QUIRKS: Record<string, string> = { dk: 'dan', sf: 'fin' };
/** Real ISO codes that mean something else in Nordic files. */
const NORDIC_QUIRKS: Record<string, string> = { gl: 'kal', sm: 'smi' };

/** The language, region and script of a TBX `xml:lang` value, or null when the language is unknown. */
export function tbxLanguage(tag: string, options: TbxLanguageOptions = {}): TbxLanguage | null {
  const [primary = '', ...rest] = tag.trim().split(/[-_]/);
  const lower = primary.toLowerCase();
  const mapped = (options.nordic ? NORDIC_QUIRKS[lower] : undefined) ?? NON_ISO_QUIRKS[lower] ?? lower;
  // Private-use and grandfathered tags (x-..., i-...) name no ISO language.
  if (mapped.length < 2) return null;
  const language = isoLanguage(mapped);
  if (!language) return null;

  let regionCode: string | null = null;
  let scriptCode: string | null = null;
  for (const subtag of rest) {
    // A singleton starts extensions or private use (`-u-...`, `-x-...`): nothing after it is a variant.
    if (subtag.length <= 1) break;
    if (subtag.length === 4 && scriptCode === null && isoScriptName(subtag)) {
      scriptCode = subtag.toLowerCase();
    } else if (subtag.length === 2 && regionCode === null && isoRegionName(subtag)) {
      regionCode = subtag.toUpperCase();
    }
    // Numeric regions (es-419) and registered variants (de-1996) have no Polyterm counterpart: ignored.
  }
  return { languageCode: language.code3, regionCode, scriptCode };
}

/**
 * Whether a set of tags (an entry's or a file's) uses the Nordic term banks' own codes (`dk`, `sf`),
 * which no ISO-conforming file writes: then `gl` and `sm` there are Greenlandic and Sami.
 */
export function usesNordicCodes(tags: Iterable<string>): boolean {
  for (const tag of tags) {
    const primary = tag.trim().split(/[-_]/)[0]?.toLowerCase();
    if (primary === 'dk' || primary === 'sf') return true;
  }
  return false;
}
