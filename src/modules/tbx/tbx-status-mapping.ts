/**
 * How TBX administrative statuses become Polyterm term statuses (issue 38). TBX-Basic knows four
 * statuses and no "forbidden"; tools such as memoQ and Pontoon write their forbidden terms as
 * `deprecatedTerm-admn-sts`. An import may therefore say, per status, which term status it stands for
 * (a dictionary may keep a default: tbx-settings.ts); the export writes the reverse, so a round trip
 * keeps each term's status. Term statuses are decoration's (decoration/term-status.ts), decided from the
 * stored usage-status value by one rule, so the import stores a value that rule reads as the status.
 */
import { z } from 'zod';
import { AppError } from '../../shared/errors.js';
import { TERM_STATUSES, type TermStatus, termStatusOf } from '../decoration/term-status.js';

export const ADMINISTRATIVE_STATUSES = [
  'preferredTerm',
  'admittedTerm',
  'deprecatedTerm',
  'supersededTerm',
] as const;
export type AdministrativeStatus = (typeof ADMINISTRATIVE_STATUSES)[number];
export type StatusMapping = Record<AdministrativeStatus, TermStatus>;
export type PartialStatusMapping = Partial<StatusMapping>;

/** Today's rule, the default: each status stands for its namesake; a superseded term is deprecated. */
export const DEFAULT_STATUS_MAPPING: Readonly<StatusMapping> = {
  preferredTerm: 'preferred',
  admittedTerm: 'admitted',
  deprecatedTerm: 'deprecated',
  supersededTerm: 'deprecated',
};

/** The value an import stores for a term status the file's own value does not already mean. */
const STORED_VALUE: Record<TermStatus, string> = {
  preferred: 'preferredTerm-admn-sts',
  admitted: 'admittedTerm-admn-sts',
  deprecated: 'deprecatedTerm-admn-sts',
  // Not a TBX value: Polyterm's own, read as forbidden; TBX-Basic exports write it as deprecatedTerm.
  forbidden: 'forbiddenTerm-admn-sts',
};

export const StatusMappingSchema = z
  .object(
    Object.fromEntries(
      ADMINISTRATIVE_STATUSES.map((status) => [status, z.enum(TERM_STATUSES).optional()]),
    ) as {
      [K in AdministrativeStatus]: z.ZodOptional<z.ZodEnum<{ [S in TermStatus]: S }>>;
    },
  )
  .strict()
  .describe(
    'administrative status (preferredTerm, admittedTerm, deprecatedTerm, supersededTerm) -> term status (preferred, admitted, deprecated, forbidden); statuses left out keep the default',
  );

/** The administrative status a value names (`deprecatedTerm-admn-sts`, `deprecatedTerm`), if one of the four. */
export function administrativeStatusOf(value: string): AdministrativeStatus | undefined {
  const name = value
    .trim()
    .replace(/-admn-sts$/i, '')
    .toLowerCase();
  return ADMINISTRATIVE_STATUSES.find((status) => status.toLowerCase() === name);
}

/**
 * Reads the REST form `deprecatedTerm:forbidden,supersededTerm:deprecated` (the `-admn-sts` suffix and
 * case optional); an unknown status or term status is a 400 naming it.
 */
export function parseStatusMapping(text: string, parameter = 'status-mapping'): PartialStatusMapping {
  const mapping: PartialStatusMapping = {};
  for (const pair of text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const [from = '', to = '', ...rest] = pair.split(/[:=]/).map((part) => part.trim());
    const status = administrativeStatusOf(from);
    if (!status) {
      throw new AppError(
        'BAD_REQUEST',
        `${parameter}: "${from}" is not an administrative status (${ADMINISTRATIVE_STATUSES.join(', ')})`,
      );
    }
    const termStatus = TERM_STATUSES.find((candidate) => candidate === to.toLowerCase());
    if (!termStatus || rest.length > 0) {
      throw new AppError(
        'BAD_REQUEST',
        `${parameter}: "${to}" is not a term status (${TERM_STATUSES.join(', ')}); write status:termStatus`,
      );
    }
    mapping[status] = termStatus;
  }
  return mapping;
}

/** The mapping in effect: the given statuses over the dictionary's, over the default. */
export function effectiveMapping(...layers: (PartialStatusMapping | null | undefined)[]): StatusMapping {
  const mapping: StatusMapping = { ...DEFAULT_STATUS_MAPPING };
  for (const layer of layers) {
    for (const status of ADMINISTRATIVE_STATUSES) {
      const target = layer?.[status];
      if (target) mapping[status] = target;
    }
  }
  return mapping;
}

/**
 * Import: the value to store for a file's administrativeStatus value. A status whose mapping the
 * value already means is kept as the file wrote it (supersededTerm stays superseded); otherwise the
 * value of the mapped term status is stored. Values other than the four are kept.
 */
export function importedStatusValue(value: string, mapping: StatusMapping): string {
  const status = administrativeStatusOf(value);
  if (!status) return value;
  const target = mapping[status];
  return termStatusOf([value]) === target ? value : STORED_VALUE[target];
}

/** The values an import can store, with the term status each means. */
const STATUS_OF_STORED = new Map<string, TermStatus>([
  ...ADMINISTRATIVE_STATUSES.map((status) => [`${status}-admn-sts`, DEFAULT_STATUS_MAPPING[status]] as const),
  [STORED_VALUE.forbidden, 'forbidden'],
]);

/**
 * Export: the reverse. A stored value an import makes is written as an administrative status that the
 * mapping maps to the value's term status (itself when it does), so that importing the file with the
 * same mapping gives the same status. Other values, and statuses no entry maps to, are written as they are.
 */
export function exportedStatusValue(value: string, mapping: StatusMapping): string {
  const meaning = STATUS_OF_STORED.get(value.trim());
  if (!meaning) return value;
  const own = administrativeStatusOf(value);
  if (own && mapping[own] === meaning) return value;
  const status = ADMINISTRATIVE_STATUSES.find((candidate) => mapping[candidate] === meaning);
  return status ? `${status}-admn-sts` : value;
}

/** Whether the mapping is today's rule (the export then writes every value as stored). */
export const isDefaultMapping = (mapping: StatusMapping) =>
  ADMINISTRATIVE_STATUSES.every((status) => mapping[status] === DEFAULT_STATUS_MAPPING[status]);
