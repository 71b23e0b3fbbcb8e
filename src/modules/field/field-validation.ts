import { type FieldType, MAX_TEXT_LENGTH } from './field.entity.js';

/** What validation needs to know of a field: its kind and its FieldModel settings. */
export interface FieldRules {
  oid: string;
  name: string;
  fieldType: FieldType;
  required: boolean;
  /** 0 = no limit. */
  minLen: number;
  /** 0 = no limit. */
  maxLen: number;
  regExp: string | null;
  number: boolean;
  unicode: boolean;
  /** Allowed values: item names and tbxNames. */
  picklistValues: readonly string[];
}

const TEXT_KINDS: ReadonlySet<FieldType> = new Set<FieldType>(['SINGLELINE', 'MULTILINE']);
const NUMERIC_KINDS: ReadonlySet<FieldType> = new Set<FieldType>(['NUMBER', 'INCREMENTAL']);
const CHOICE_KINDS: ReadonlySet<FieldType> = new Set<FieldType>(['PICKLIST', 'MULTISELECT']);

/** A plain decimal: optional minus, digits, optional fraction. No plus sign, exponent, or bare '.5'. */
const DECIMAL = /^-?\d+(?:\.\d+)?$/;
/** No leading zeros, so one number has one spelling and the uniqueness check can compare text. */
const NON_NEGATIVE_INTEGER = /^(?:0|[1-9]\d*)$/;
/** Attachment keys are UUIDs (src/modules/attachment). */
export const ATTACHMENT_KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const LINE_BREAK = /\r\n|\r|\n/g;

/** Line breaks stored as CR LF (\r\n), whatever the client sent (\n, \r, \r\n). Trims nothing else. */
export function normalizeLineBreaks(value: string): string {
  return value.replace(LINE_BREAK, '\r\n');
}

/**
 * Values as stored: line breaks normalized, blank values dropped. Only text values are rewritten: values
 * of the other kinds are identifiers (picklist names, numbers, dates) that are validated exactly as sent.
 */
export function normalizeFieldValues(field: FieldRules, values: readonly string[]): string[] {
  const kept = values.filter((value) => value.trim() !== '');
  return TEXT_KINDS.has(field.fieldType) ? kept.map(normalizeLineBreaks) : kept;
}

/**
 * Length as users see it: Unicode code points, with a line break (CR LF once stored) counting as one
 * character. So the count does not depend on how the client wrote its line breaks, a character outside
 * the BMP (most emoji) counts once, and the stored size stays bounded (grapheme clusters would not:
 * one cluster can carry any number of combining marks).
 */
export function visibleLength(value: string): number {
  let length = 0;
  let previous = '';
  for (const char of value) {
    if (!(char === '\n' && previous === '\r')) length++;
    previous = char;
  }
  return length;
}

/**
 * Problems of one field's values (empty array = valid); messages name the field: `Field "Definition": ...`.
 * Values are checked as they will be stored (see normalizeFieldValues), so blank values are ignored.
 */
export function fieldValueProblems(field: FieldRules, values: readonly string[] | undefined): string[] {
  const problems: string[] = [];
  const report = (message: string) => problems.push(`Field "${field.name}": ${message}`);
  const stored = normalizeFieldValues(field, values ?? []);
  const kind = field.fieldType;

  if (stored.length === 0) {
    if (field.required) report('a value is required');
    return problems;
  }
  if (kind === 'MULTISELECT' || kind === 'ATTACHMENT') {
    for (const duplicate of duplicatesOf(stored)) report(`value ${quote(duplicate)} is given more than once`);
  } else if (stored.length > 1) {
    report(`takes one value, ${stored.length} were given`);
  }

  // The model's pattern only matters once there is a value to test, so a broken pattern never blocks
  // saving an entry that leaves the field empty.
  const pattern = compilePattern(field, report);
  const allowed = CHOICE_KINDS.has(kind) ? new Set(field.picklistValues) : undefined;

  for (const value of stored) {
    let testPattern = true;
    if (TEXT_KINDS.has(kind)) testPattern = checkText(field, value, report);
    if (kind === 'NUMBER' && !DECIMAL.test(value)) {
      report(`${quote(value)} is not a decimal number (e.g. 42 or -1.5)`);
    }
    if (kind === 'INCREMENTAL' && !isNonNegativeInteger(value)) {
      report(`${quote(value)} is not a whole number of 0 or more`);
    }
    if (kind === 'ATTACHMENT' && !ATTACHMENT_KEY.test(value)) {
      report(`${quote(value)} is not an attachment key (upload the file first: docs/attachments.md)`);
    }
    if (kind === 'DATE' && !isIsoDate(value)) {
      report(`${quote(value)} is not a calendar date in the form yyyy-MM-dd`);
    }
    if (allowed && !allowed.has(value)) report(`${quote(value)} is not one of the field's picklist values`);
    if (field.number && !NUMERIC_KINDS.has(kind) && !DECIMAL.test(value)) {
      report(`${quote(value)} must be a decimal number`);
    }
    if (pattern && testPattern && !pattern.test(value)) {
      report(`${quote(value)} does not match the pattern ${quote(field.regExp ?? '')}`);
    }
  }
  return problems;
}

/** Checks of SINGLELINE and MULTILINE values; false when the value is too long to test the pattern on. */
function checkText(field: FieldRules, value: string, report: (message: string) => void): boolean {
  if (field.fieldType === 'SINGLELINE' && /[\r\n]/.test(value)) {
    report(`${quote(value)} must not contain line breaks`);
  }
  const length = visibleLength(value);
  if (length > MAX_TEXT_LENGTH) {
    report(`a value is ${length} characters long; at most ${MAX_TEXT_LENGTH} are allowed`);
    return false;
  }
  if (field.maxLen > 0 && length > field.maxLen) {
    report(`a value is ${length} characters long; at most ${field.maxLen} are allowed`);
  }
  if (field.minLen > 0 && length < field.minLen) {
    report(`a value is ${length} characters long; at least ${field.minLen} are required`);
  }
  return true;
}

/** The model's pattern anchored to the whole value, or null when there is none or it does not compile. */
function compilePattern(field: FieldRules, report: (message: string) => void): RegExp | null {
  const source = field.regExp;
  if (source === null || source === '') return null;
  const flags = field.unicode ? 'u' : '';
  try {
    // Compiled alone first: only a pattern that is valid by itself can be wrapped safely ('a)|(b' is not).
    new RegExp(source, flags);
    return new RegExp(`^(?:${source})$`, flags);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    report(`the field's pattern ${quote(source)} is not a valid regular expression (${reason})`);
    return null;
  }
}

function duplicatesOf(values: readonly string[]): string[] {
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const value of values) {
    if (seen.has(value)) duplicates.add(value);
    seen.add(value);
  }
  return [...duplicates];
}

function isNonNegativeInteger(value: string): boolean {
  // Beyond 2^53 numbers stop being exact, and "the next number after the highest" breaks.
  return NON_NEGATIVE_INTEGER.test(value) && Number.isSafeInteger(Number(value));
}

function isIsoDate(value: string): boolean {
  const match = ISO_DATE.exec(value);
  return match !== null && isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]));
}

function isCalendarDate(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function quote(value: string): string {
  const shown = value.length > 60 ? `${value.slice(0, 60)}…` : value;
  return JSON.stringify(shown);
}

const FILTER_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2})(?::(\d{2}))?)?$/;
const FILTER_COMPACT_DATE = /^(\d{4})(\d{2})(\d{2})$/;

/**
 * A filter condition's date: 'yyyy-MM-dd HH:mm:ss', 'yyyy-MM-dd HH:mm', 'yyyy-MM-dd' or 'yyyyMMdd', in UTC
 * (the server time zone). Surrounding spaces are ignored; anything else, or an impossible date or time,
 * gives null.
 */
export function parseFilterDate(text: string): Date | null {
  const trimmed = text.trim();
  const match = FILTER_DATE_TIME.exec(trimmed) ?? FILTER_COMPACT_DATE.exec(trimmed);
  if (!match) return null;
  const [year, month, day, hour = 0, minute = 0, second = 0] = match
    .slice(1)
    .map((part) => (part === undefined ? undefined : Number(part)));
  if (year === undefined || month === undefined || day === undefined) return null;
  if (!isCalendarDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return null;
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not map years 0-99 to 1900-1999.
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  return date;
}
