/**
 * Who may fire a transition and whether an entry meets its condition and validations. No administrator
 * bypass: a transition names the groups and roles that fire it, and holding ADMIN or SYSADMIN counts only
 * where the transition lists that role.
 */

import type { Actor } from '../../shared/scope.js';
import type { FieldValues } from '../concept/concept.entity.js';
import type { Dictionary } from '../dictionary/dictionary.entity.js';
import { dictionaryAdminRole } from '../role/role.service.js';
import type { FieldCondition, WorkflowTransition } from './workflow-definition.js';

/** The fields an entry shows to conditions: its concept's, and its terms' (the governed term, or the language's). */
export interface EntryFields {
  concept: FieldValues;
  terms: FieldValues[];
}

/** Whether the actor is among those the transition names (groups the actor belongs to, roles it holds). */
export function mayFire(
  actor: Actor,
  groupIds: ReadonlySet<number>,
  dictionary: Pick<Dictionary, 'id' | 'oid'>,
  transition: WorkflowTransition,
  languageCode: string,
): boolean {
  if (actor.guest) return false;
  if (transition.languages.length && languageCode && !transition.languages.includes(languageCode))
    return false;
  if (transition.groupIds.some((id) => groupIds.has(id))) return true;
  return transition.roles.some((role) => {
    if (role === 'USER') return true;
    if (role === 'DICTIONARY_ADMIN') return actor.roles.includes(dictionaryAdminRole(dictionary));
    return actor.roles.includes(role);
  });
}

const filled = (values: string[] | undefined) => (values ?? []).some((value) => value.trim() !== '');

function holds(condition: FieldCondition, fields: EntryFields): boolean {
  const maps = condition.level === 'CONCEPT' ? [fields.concept] : fields.terms;
  const matches = maps.some((map) => {
    const values = map[condition.fieldOid];
    if (!filled(values)) return false;
    return condition.equals === undefined || values!.some((value) => condition.equals!.includes(value));
  });
  return condition.present ? matches : !matches;
}

/** Whether every condition of the transition holds (a transition whose condition fails is not offered). */
export const conditionHolds = (transition: WorkflowTransition, fields: EntryFields): boolean =>
  transition.condition.every((condition) => holds(condition, fields));

/** The required fields the entry leaves empty, as `level:fieldOid`. */
export function missingFields(transition: WorkflowTransition, fields: EntryFields): string[] {
  return transition.requiredFields
    .filter((required) => !holds({ ...required, present: true }, fields))
    .map((required) => `${required.level}:${required.fieldOid}`);
}
