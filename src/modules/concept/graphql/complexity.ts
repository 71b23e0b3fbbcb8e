/**
 * Cost estimates of the concept fields for the complexity limit (src/graphql/builder.ts): items a nested
 * list usually holds, and what a load through a DataLoader adds.
 */

export const PER_CONCEPT = 5;
/** A concept loaded through the DataLoader costs more than a member of an object already in memory. */
export const LOAD_COST = 2;

export const perConcept = { field: 1, multiplier: PER_CONCEPT };
