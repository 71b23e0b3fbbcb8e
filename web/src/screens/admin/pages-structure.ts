import { lazy } from 'react';
import type { AdminPageRoute } from './admin-page';

/**
 * The structure pages of the administration (docs/ui.md, "Dictionary administration"): dictionaries and
 * what each holds, the definition import and the statistics. Each page loads on demand.
 */
const statistics = () => import('./structure/StatisticsPages');

export const pages: AdminPageRoute[] = [
  { pattern: '/admin/dictionaries', page: lazy(() => import('./structure/DictionariesPage')) },
  { pattern: '/admin/dictionaries/:id/languages', page: lazy(() => import('./structure/LanguagesPage')) },
  { pattern: '/admin/dictionaries/:id/fields', page: lazy(() => import('./structure/FieldsPage')) },
  { pattern: '/admin/dictionaries/:id/sections', page: lazy(() => import('./structure/SectionsPage')) },
  { pattern: '/admin/dictionaries/:id/domains', page: lazy(() => import('./structure/DomainsPage')) },
  { pattern: '/admin/dictionaries/:id/views', page: lazy(() => import('./structure/ViewsPage')) },
  { pattern: '/admin/dictionaries/:id/stemming', page: lazy(() => import('./structure/StemmingPage')) },
  {
    pattern: '/admin/dictionaries/:id/statistics',
    page: lazy(() => import('./structure/DictionaryStatisticsPage')),
  },
  { pattern: '/admin/dictionaries/import', page: lazy(() => import('./structure/DefinitionImportPage')) },
  { pattern: '/admin/statistics', page: lazy(() => statistics().then((m) => ({ default: m.SummaryPage }))) },
  {
    pattern: '/admin/statistics/online-users',
    page: lazy(() => statistics().then((m) => ({ default: m.OnlineUsersPage }))),
  },
  {
    pattern: '/admin/statistics/month',
    page: lazy(() => statistics().then((m) => ({ default: m.MonthPage }))),
  },
];
