import { lazy } from 'react';
import type { AdminPageRoute } from './admin-page';

/** The feedback pages of the administration (docs/feedback.md): the list and one feedback. */
export const pages: AdminPageRoute[] = [
  { pattern: '/admin/feedback', page: lazy(() => import('./feedback/FeedbackListPage')) },
  { pattern: '/admin/feedback/:id', page: lazy(() => import('./feedback/FeedbackPage')) },
];
