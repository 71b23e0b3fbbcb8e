/**
 * Cost estimates of the concept fields for the complexity limit (src/graphql/builder.ts). The cost follows
 * the work a selection causes: a concept's member lists (terms, fields, comments, links, relations) are in
 * memory once the concept is, so an item costs what it outputs; a field that loads through a DataLoader
 * (section, domains, a relation's ends, related concepts, history) costs LOAD_COST per loaded object, and
 * lists of loaded objects count the items they usually hold (PER_CONCEPT).
 */

export const PER_CONCEPT = 5;
/** A concept loaded through the DataLoader costs more than a member of an object already in memory. */
export const LOAD_COST = 2;

/** A list member of a concept or term in memory: each item counts its own selection once. */
export const perConcept = { field: 1, multiplier: 1 };
