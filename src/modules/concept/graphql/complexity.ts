/**
 * Cost estimates of the concept fields for the complexity limit (src/graphql/cost.ts). The cost follows
 * the work a selection causes: a concept's member lists (terms, fields, comments, links, relations) are in
 * memory once the concept is, so an item costs what it outputs; a field that loads through a DataLoader
 * (section, domains, a relation's ends, related concepts, history) costs LOAD_COST per loaded object, and
 * lists of loaded objects count the items they usually hold (PER_CONCEPT).
 */

import { IN_MEMORY_LIST_COST, LOAD_COST } from '../../../graphql/cost.js';

export { LOAD_COST };

export const PER_CONCEPT = 5;

/** A list member of a concept or term in memory: each item counts its own selection once. */
export const perConcept = IN_MEMORY_LIST_COST;
