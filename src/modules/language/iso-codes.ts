/**
 * Language, region and script codes from maintained code tables (ISO 639-2 with 639-1, ISO 3166-1,
 * ISO 15924), never a hand-typed list. Language codes are kept in their ISO 639-2/T form (deu, isl,
 * fra); bibliographic codes (ger, ice, fre) and ISO 639-1 codes are accepted and mapped to it.
 */
import { iso6392 } from 'iso-639-2';
import { iso31661, iso31661Reserved } from 'iso-3166';
import { iso15924 } from 'iso-15924';

export interface IsoLanguage {
  name: string;
  /** ISO 639-2/T (or B where there is no T code), lowercase. */
  code3: string;
  /** ISO 639-1, when the language has one. */
  code2: string | null;
}

const languagesByCode = new Map<string, IsoLanguage>();
for (const entry of iso6392) {
  // 639-2 reserves qaa-qtz for local use: they are not real languages.
  if (entry.iso6392B === 'qaa-qtz') continue;
  const language: IsoLanguage = {
    name: entry.name,
    code3: entry.iso6392T ?? entry.iso6392B,
    code2: entry.iso6391 ?? null,
  };
  for (const code of [entry.iso6392B, entry.iso6392T, entry.iso6391]) {
    if (code) languagesByCode.set(code, language);
  }
}

// Exceptionally reserved codes (UK, EU) are in common use as regions: the spec's own examples name UK.
const regions = new Map(
  [...iso31661, ...iso31661Reserved.filter((region) => region.state === 'exceptionally-reserved')].map(
    (region) => [region.alpha2.toUpperCase(), region.name],
  ),
);
const regionAlpha3 = new Set(iso31661.map((region) => region.alpha3.toUpperCase()));
const scripts = new Map(iso15924.map((script) => [script.code.toLowerCase(), script.name]));

/** The ISO language for a 639-2 (B or T) or 639-1 code, any case; undefined for other codes. */
export function isoLanguage(code: string): IsoLanguage | undefined {
  return languagesByCode.get(code.trim().toLowerCase());
}

/**
 * The one spelling of a language code that every input is read in: an ISO 639 code in any of its forms
 * (en, EN, eng, ger, deu) becomes its 639-2/T code (eng, deu); anything else (a custom language's code)
 * is returned trimmed, as given.
 */
export function normalLanguageCode(code: string): string {
  return isoLanguage(code)?.code3 ?? code.trim();
}

/** The name of an ISO 3166-1 alpha-2 region (US, GB...), or undefined. */
export function isoRegionName(code: string): string | undefined {
  return regions.get(code.trim().toUpperCase());
}

/** The name of an ISO 15924 script (Latn, Cyrl, Hira...), or undefined. */
export function isoScriptName(code: string): string | undefined {
  return scripts.get(code.trim().toLowerCase());
}

/**
 * Whether a code is a real language, region or script code: custom languages must not use one, so a
 * custom code is never mistaken for a standard language or variant.
 */
export function isRealCode(code: string): boolean {
  const trimmed = code.trim();
  return (
    isoLanguage(trimmed) !== undefined ||
    regions.has(trimmed.toUpperCase()) ||
    regionAlpha3.has(trimmed.toUpperCase()) ||
    scripts.has(trimmed.toLowerCase())
  );
}

/**
 * Languages whose usual script runs right to left; a language's rtl flag starts from this and can be
 * changed per dictionary. (Writing direction is a property of the script; ISO 639 does not record it.)
 */
const RIGHT_TO_LEFT = new Set([
  'ara',
  'heb',
  'fas',
  'urd',
  'pus',
  'snd',
  'yid',
  'div',
  'syr',
  'uig',
  'ckb',
  'arc',
  'sam',
  'nqo',
]);

export const isRightToLeft = (code3: string): boolean => RIGHT_TO_LEFT.has(code3.toLowerCase());
