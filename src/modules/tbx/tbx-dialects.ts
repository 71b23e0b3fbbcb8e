/**
 * The TBX vocabulary the reader (tbx-reader.ts) turns into one model: the element names of TBX v2 and v3
 * (DCA and DCT), the spellings of administrativeStatus values, and transaction dates.
 */

/** Entry, language section and term group elements, by their TBX v2 and v3 names. */
export const ENTRY = new Set(['termEntry', 'conceptEntry']);
export const LANGUAGE = new Set(['langSet', 'langSec']);
export const TERM_GROUP = new Set(['tig', 'ntig', 'termSec']);
/** Grouping elements whose children belong to the enclosing level; the value is the DCT element kind hint. */
export const GROUPS = new Map<string, string | null>([
  ['termGrp', null],
  ['descripGrp', 'descrip'],
  ['adminGrp', 'admin'],
  ['termNoteGrp', 'termNote'],
  ['termCompList', 'termComp'],
  ['termCompGrp', 'termComp'],
]);

/**
 * DCT writes the data category as the element name (`<basic:definition>`); the DCA element it stands
 * for is kept so a writer can give it back in DCA or v2 form.
 */
export const DCT_ELEMENT: Record<string, string> = {
  definition: 'descrip',
  context: 'descrip',
  subjectField: 'descrip',
  explanation: 'descrip',
  example: 'descrip',
  partOfSpeech: 'termNote',
  termType: 'termNote',
  administrativeStatus: 'termNote',
  grammaticalGender: 'termNote',
  grammaticalNumber: 'termNote',
  geographicalUsage: 'termNote',
  termLocation: 'termNote',
  usageNote: 'termNote',
  source: 'admin',
  customerSubset: 'admin',
  projectSubset: 'admin',
  crossReference: 'ref',
  externalCrossReference: 'xref',
  xGraphic: 'xref',
};

/** administrativeStatus values written without their `-admn-sts` suffix, keyed by lower-case letters. */
const STATUS_VALUES = new Map<string, string>();
for (const status of [
  'preferred',
  'admitted',
  'deprecated',
  'superseded',
  'standardized',
  'legal',
  'regulated',
]) {
  const canonical = `${status}Term-admn-sts`;
  STATUS_VALUES.set(status, canonical);
  STATUS_VALUES.set(`${status}term`, canonical);
}

/**
 * The sourceDesc of Polyterm's exports. Their values are written exactly as stored (no pretty-printing
 * inside text), and since the core schemas allow `xml:space` nowhere, this tells the reader to keep the
 * whitespace of such a file instead of collapsing it.
 */
export const POLYTERM_SOURCE_DESC = 'Exported from Polyterm';

/** Transaction types that record an entry's creation; any other records a change. */
export const CREATED_TRANSACTIONS = new Set(['origination', 'creation', 'input']);

/** An administrativeStatus value in its canonical `-admn-sts` spelling. */
export function normalizeStatus(value: string): string {
  if (value.endsWith('-admn-sts')) return value;
  return STATUS_VALUES.get(value.toLowerCase().replace(/[^a-z]/g, '')) ?? value;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
/** ISO 8601 basic format (`20010507`, `20010507T105725Z`) and its mixes (`20010507T10:57:25Z`). */
const COMPACT_DATE =
  /^(\d{4})(\d{2})(\d{2})(?:T(\d{2}):?(\d{2})(?::?(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * An ISO 8601 date or date-time, extended or basic format; a date-time without zone is taken as UTC,
 * so the result is the same anywhere.
 */
export function parseDate(text: string): Date | null {
  const trimmed = text.trim();
  const compact = COMPACT_DATE.exec(trimmed);
  if (compact) {
    const [, y, mo, d, h, mi, sec, frac, zone] = compact;
    const time = h === undefined ? '' : `T${h}:${mi}:${sec ?? '00'}${frac ?? ''}${zone ?? ''}`;
    return parseDate(`${y}-${mo}-${d}${time}`);
  }
  const match = ISO_DATE.exec(trimmed);
  if (!match) return null;
  let iso = trimmed.replace(' ', 'T');
  if (iso.includes('T') && match[1] === undefined) iso += 'Z';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}
