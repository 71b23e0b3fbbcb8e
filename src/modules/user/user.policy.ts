/**
 * Who may do what with users: the spec's matrix in one place. Services ask these functions and never
 * decide on their own; test/users/user-policy.test.ts has one test per rule.
 */
import { AppError } from '../../shared/errors.js';
import { type Actor, isClientAdmin, isSysadmin } from '../../shared/scope.js';

export const UserFields = [
  'username',
  'fullName',
  'email',
  'title',
  'password',
  'forcePasswordChange',
  'expDate',
  'active',
  'roles',
  'clientIds',
  'groups',
] as const;
export type UserField = (typeof UserFields)[number];

/** The user being acted on, as far as the rules need it. */
export interface UserTarget {
  id: number;
  homeClientId: number;
  roles: readonly string[];
}

/** Rule 1: every user edits these on their own account (API users included). */
const OWN_FIELDS: readonly UserField[] = [
  'username',
  'fullName',
  'email',
  'title',
  'password',
  'forcePasswordChange',
];
/** Rules 3 and 4: what administrators and user editors manage on accounts they may manage. */
const MANAGED_FIELDS: readonly UserField[] = [...OWN_FIELDS, 'expDate', 'active'];

const isUserEditor = (actor: Actor): boolean => actor.roles.includes('USEREDITOR');
const targetIsSysadmin = (target: UserTarget): boolean => target.roles.includes('SYSADMIN');
const targetIsAdmin = (target: UserTarget): boolean =>
  targetIsSysadmin(target) || target.roles.includes('ADMIN');
/** Administrators of a client manage the accounts whose home is that client. */
const ownsAccount = (actor: Actor, target: UserTarget): boolean => target.homeClientId === actor.clientId;

/** The attributes the actor may change on the target; empty when none. */
export function editableUserFields(actor: Actor, target: UserTarget): ReadonlySet<UserField> {
  const self = actor.userId === target.id;
  const fields = new Set<UserField>(self ? OWN_FIELDS : []);
  if (isSysadmin(actor)) {
    // Rule 2: everything, except own clients and roles.
    for (const field of UserFields) {
      if (!self || (field !== 'clientIds' && field !== 'roles')) fields.add(field);
    }
    return fields;
  }
  if (isClientAdmin(actor) && ownsAccount(actor, target) && !targetIsSysadmin(target)) {
    // Rule 3: administrators and regular users of the client; never own roles, never clients.
    for (const field of MANAGED_FIELDS) fields.add(field);
    fields.add('groups');
    if (!self) fields.add('roles');
    return fields;
  }
  if (isUserEditor(actor) && ownsAccount(actor, target) && !targetIsAdmin(target)) {
    // Rule 4: non-administrator accounts only.
    for (const field of MANAGED_FIELDS) fields.add(field);
  }
  return fields;
}

/** Refuses a change of any attribute the actor may not change on the target (403 naming them). */
export function assertMayChange(actor: Actor, target: UserTarget, changed: readonly UserField[]): void {
  const editable = editableUserFields(actor, target);
  const refused = changed.filter((field) => !editable.has(field));
  if (refused.length > 0) {
    throw new AppError('FORBIDDEN', `You may not change ${refused.join(', ')} of user ${target.id}`);
  }
}

/** Only administrators create users (rule 4: user editors cannot; rule 5: ordinary users cannot). */
export function assertMayCreateUsers(actor: Actor): void {
  if (!isClientAdmin(actor)) throw new AppError('FORBIDDEN', 'Only administrators create users');
}

/** Importing and exporting users is for administrators (rule 4 excludes user editors). */
export function assertMayImportExportUsers(actor: Actor): void {
  if (!isClientAdmin(actor)) throw new AppError('FORBIDDEN', 'Only administrators import or export users');
}

/**
 * Rule 7 and rule 3: nobody deletes self; only administrators delete; a client administrator never
 * deletes a system administrator or an account of another client. `remainingAdmins` counts the other
 * live client administrators of the target's client.
 */
export function assertMayDeleteUser(actor: Actor, target: UserTarget, remainingAdmins: number): void {
  if (actor.userId === target.id) throw new AppError('BAD_REQUEST', 'You cannot delete yourself');
  if (!isClientAdmin(actor)) throw new AppError('FORBIDDEN', 'Only administrators delete users');
  if (!isSysadmin(actor) && (targetIsSysadmin(target) || !ownsAccount(actor, target))) {
    throw new AppError('FORBIDDEN', 'A client administrator cannot delete this user');
  }
  if (target.roles.includes('ADMIN') && remainingAdmins === 0) {
    throw new AppError('BAD_REQUEST', 'The last client administrator cannot be deleted');
  }
}

/** Rule 3: only system administrators assign SYSADMIN; rule 2/3: nobody assigns roles they may not edit. */
export function assertMayAssignRoles(actor: Actor, added: readonly string[]): void {
  if (added.length === 0) return;
  if (!isClientAdmin(actor)) throw new AppError('FORBIDDEN', 'Only administrators assign roles');
  if (added.includes('SYSADMIN') && !isSysadmin(actor)) {
    throw new AppError('FORBIDDEN', 'Only system administrators assign the SYSADMIN role');
  }
}

/** Rule 6: only system administrators map users to clients. */
export function assertMayMapClients(actor: Actor): void {
  if (!isSysadmin(actor)) {
    throw new AppError('FORBIDDEN', 'Only system administrators change the clients of users');
  }
}

/** E-mail, expiry and login history are for the user, administrators and user editors. */
export function maySeeUserDetails(actor: Actor, target: { id: number }): boolean {
  return actor.userId === target.id || isClientAdmin(actor) || isUserEditor(actor);
}

/** Ending another user's session is for administrators (client administrators: own client only). */
export function assertMayLogOutUser(actor: Actor, target: UserTarget): void {
  if (!isClientAdmin(actor)) throw new AppError('FORBIDDEN', 'Only administrators end sessions of others');
  if (!isSysadmin(actor) && (targetIsSysadmin(target) || !ownsAccount(actor, target))) {
    throw new AppError('FORBIDDEN', 'A client administrator cannot end this session');
  }
}
