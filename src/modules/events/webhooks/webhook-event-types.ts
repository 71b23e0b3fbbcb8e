import { EventTypes } from '../event-types.js';

/** Whether a subscription's pattern (concept.updated, project.*, *) takes this type. */
export function typeMatches(pattern: string, type: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) return type.startsWith(pattern.slice(0, -1));
  return pattern === type;
}

/**
 * The event types a subscription's patterns take, for the dispatcher's `type = any(...)`; empty: every
 * type. `unknown`: a pattern that takes no known type (an input error).
 */
export function matchedTypes(patterns: readonly string[]): { types: string[]; unknown: string | null } {
  if (patterns.length === 0 || patterns.includes('*')) return { types: [], unknown: null };
  const unknown = patterns.find((pattern) => !EventTypes.some((type) => typeMatches(pattern, type))) ?? null;
  return {
    types: EventTypes.filter((type) => patterns.some((pattern) => typeMatches(pattern, type))),
    unknown,
  };
}
