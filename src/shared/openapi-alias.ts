import type { z } from 'zod';

/** Marks an input member that only repeats another under an older spelling (see undocumentedAlias). */
export const ALIAS_OF = 'x-alias-of';

/**
 * An input member still accepted under another spelling for existing callers, but left out of the OpenAPI
 * parameters: two spellings of one parameter make generators (orval) declare the same name twice.
 */
export const undocumentedAlias = <T extends z.ZodType>(
  schema: T,
  of: string,
  description = `the same as ${of}`,
): T => schema.meta({ [ALIAS_OF]: of, description });
