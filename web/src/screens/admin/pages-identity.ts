import type { AdminPageRoute } from './admin-page';

/** The identity pages of the administration view (users, groups, permissions, clients, own account). */
export const pages: AdminPageRoute[] = [];
