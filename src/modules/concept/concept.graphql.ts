/**
 * Concepts and terms over GraphQL, one file per type in ./graphql/ with its query and mutation fields.
 * Importing this file registers them all on the shared builder (src/graphql/schema.ts does).
 */
import './graphql/field-value.type.js';
import './graphql/named-summary.type.js';
import './graphql/comment.type.js';
import './graphql/ref-link.type.js';
import './graphql/concept-lock.type.js';
import './graphql/history-item.type.js';
import './graphql/concept-relation.type.js';
import './graphql/term.type.js';
import './graphql/concept.type.js';
import './graphql/concept-connection.type.js';
import './graphql/concept.mutations.js';

export { loadConcept } from './graphql/concept-loader.js';
export { ConceptRef } from './graphql/refs.js';
