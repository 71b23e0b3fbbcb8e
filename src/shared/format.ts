import { z } from 'zod';

/** Response formats of the spec: ID (id only), SHORT (basics), FULL (all, default), EDIT (FULL plus editing extras). */
export const FormatSchema = z.enum(['ID', 'SHORT', 'FULL', 'EDIT']).default('FULL');
export type Format = z.infer<typeof FormatSchema>;

/** Reduces a FULL/EDIT object to what the format asks for. */
export function applyFormat<T extends { id: number }>(
  dto: T,
  format: Format,
  shortKeys: readonly (keyof T)[],
): Partial<T> & { id: number } {
  if (format === 'ID') return { id: dto.id } as Partial<T> & { id: number };
  if (format === 'SHORT') {
    const short = { id: dto.id } as Partial<T> & { id: number };
    for (const key of shortKeys) short[key] = dto[key];
    return short;
  }
  return dto;
}
