import { lazy } from 'react';
import type { AdminPageRoute } from './admin-page';

/**
 * The identity pages of the administration (docs/ui.md, "Administration"): users, groups, permission
 * schemes and roles, guest access, clients and the licence, one's own profile and password. Each page
 * loads on demand.
 */
export const pages: AdminPageRoute[] = [
  { pattern: '/admin/users', page: lazy(() => import('./identity/UsersPage')) },
  { pattern: '/admin/users/new', page: lazy(() => import('./identity/UserPage')) },
  { pattern: '/admin/users/transfer', page: lazy(() => import('./identity/UserTransferPage')) },
  { pattern: '/admin/users/guest', page: lazy(() => import('./identity/GuestPage')) },
  { pattern: '/admin/users/:id', page: lazy(() => import('./identity/UserPage')) },
  { pattern: '/admin/groups', page: lazy(() => import('./identity/GroupsPage')) },
  { pattern: '/admin/groups/:id', page: lazy(() => import('./identity/GroupPage')) },
  { pattern: '/admin/permission-schemes', page: lazy(() => import('./identity/PermissionSchemesPage')) },
  { pattern: '/admin/permission-schemes/:id', page: lazy(() => import('./identity/PermissionSchemePage')) },
  { pattern: '/admin/roles', page: lazy(() => import('./identity/RolesPage')) },
  { pattern: '/admin/clients', page: lazy(() => import('./identity/ClientsPage')) },
  { pattern: '/admin/clients/:id', page: lazy(() => import('./identity/ClientPage')) },
  { pattern: '/admin/settings/mail', page: lazy(() => import('./settings/MailSettingsPage')) },
  { pattern: '/admin/license', page: lazy(() => import('./identity/LicensePage')) },
  { pattern: '/admin/profile', page: lazy(() => import('./identity/ProfilePage')) },
  { pattern: '/admin/profile/password', page: lazy(() => import('./identity/PasswordPage')) },
  // The menu's search settings are the Preferences screen's (the same per-user search settings).
  { pattern: '/admin/search-settings', page: lazy(() => import('../PreferencesScreen')) },
];
