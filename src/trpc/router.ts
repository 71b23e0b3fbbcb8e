import { accessRouter } from '../modules/access/access.router.js';
import { attachmentRouter } from '../modules/attachment/attachment.router.js';
import { authRouter } from '../modules/auth/auth.router.js';
import { clientRouter } from '../modules/client/client.router.js';
import { commentRouter } from '../modules/comment/comment.router.js';
import { conceptRouter } from '../modules/concept/concept.router.js';
import { decorationRouter } from '../modules/decoration/decoration.router.js';
import { dictionaryRouter } from '../modules/dictionary/dictionary.router.js';
import { dictionaryDefinitionRouter } from '../modules/dictionary-definition/definition.router.js';
import { displayConceptRouter } from '../modules/display/display-concept.router.js';
import { domainRouter } from '../modules/domain/domain.router.js';
import { eventRouter } from '../modules/events/event.router.js'; // events
import { webhookRouter } from '../modules/events/webhooks/webhook.router.js'; // webhooks
import { exportSettingsRouter } from '../modules/export-settings/export-settings.router.js';
import { feedbackRouter } from '../modules/feedback/feedback.router.js'; // feedback
import { fieldRouter } from '../modules/field/field.router.js';
import { filterRouter } from '../modules/filter/filter.router.js';
import { groupRouter } from '../modules/group/group.router.js';
import { guestRouter } from '../modules/guest/guest.router.js';
import { historyRouter } from '../modules/history/history.router.js';
import { jobRouter } from '../modules/jobs/job.router.js';
import { licenseRouter } from '../modules/license/license.router.js';
import { mailSettingsRouter } from '../modules/mail/mail-settings.router.js'; // mail-settings
import { multitermRouter } from '../modules/multiterm/multiterm.router.js';
import { permissionSchemeRouter } from '../modules/permission/permission-scheme.router.js';
import { profileRouter } from '../modules/profile/profile.router.js';
import { projectRouter } from '../modules/project/project.router.js'; // projects
import { roleRouter } from '../modules/role/role.router.js';
import { savedQueryRouter } from '../modules/saved-query/saved-query.router.js'; // saved-queries
import { searchRouter } from '../modules/search/search.router.js';
import { searchSettingsRouter } from '../modules/search-settings/search-settings.router.js';
import { sectionRouter } from '../modules/section/section.router.js';
import { skosRouter } from '../modules/skos/skos.router.js';
import { spreadsheetRouter } from '../modules/spreadsheet/spreadsheet.router.js';
import { stagingRouter } from '../modules/staging/staging.router.js'; // staging
import { statisticsRouter } from '../modules/statistics/statistics.router.js';
import { stemmingRouter } from '../modules/stemming/stemming.router.js';
import { syncSettingsRouter } from '../modules/sync-settings/sync-settings.router.js';
import { systemRouter } from '../modules/system/system.router.js';
import { tbxRouter } from '../modules/tbx/tbx.router.js';
import { uiRouter } from '../modules/ui/ui.router.js';
import { userRouter } from '../modules/user/user.router.js';
import { viewRouter } from '../modules/view/view.router.js';
import { workflowRouter } from '../modules/workflow/workflow.router.js';
import { router } from './trpc.js';

/** Every procedure of the API: served at /trpc, and at /api/v4 where it has `meta.openapi`. */
export const appRouter = router({
  auth: authRouter,
  system: systemRouter,
  clients: clientRouter,
  users: userRouter,
  guests: guestRouter,
  groups: groupRouter,
  roles: roleRouter,
  permissionSchemes: permissionSchemeRouter,
  access: accessRouter,
  license: licenseRouter,
  mailSettings: mailSettingsRouter, // mail-settings
  dictionaries: dictionaryRouter,
  dictionaryDefinitions: dictionaryDefinitionRouter,
  sections: sectionRouter,
  fields: fieldRouter,
  domains: domainRouter,
  views: viewRouter,
  filters: filterRouter,
  exportSettings: exportSettingsRouter,
  jobs: jobRouter,
  statistics: statisticsRouter,
  ui: uiRouter,
  profile: profileRouter,
  searchSettings: searchSettingsRouter,
  savedQueries: savedQueryRouter, // saved-queries
  syncSettings: syncSettingsRouter,
  concepts: conceptRouter,
  displayConcepts: displayConceptRouter,
  comments: commentRouter,
  feedback: feedbackRouter, // feedback
  staging: stagingRouter, // staging
  attachments: attachmentRouter,
  events: eventRouter, // events
  history: historyRouter,
  tbx: tbxRouter,
  spreadsheet: spreadsheetRouter,
  multiterm: multitermRouter,
  skos: skosRouter,
  terms: searchRouter,
  stemming: stemmingRouter,
  termDecoration: decorationRouter,
  workflows: workflowRouter,
  projects: projectRouter, // projects
  webhooks: webhookRouter, // webhooks
});

export type AppRouter = typeof appRouter;
