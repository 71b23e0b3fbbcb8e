import { lexicographicSortSchema, printSchema } from 'graphql';
import { builder } from './builder.js';
import { boundRootFields } from './pool-share.js';
import './common.graphql.js';
import '../modules/auth/auth.graphql.js';
import '../modules/user/user.graphql.js';
import '../modules/client/client.graphql.js';
import '../modules/group/group.graphql.js';
import '../modules/access/access.graphql.js';
import '../modules/dictionary/dictionary.graphql.js';
import '../modules/concept/concept.graphql.js';
import '../modules/attachment/attachment.graphql.js'; // attachments
import '../modules/workflow/workflow.graphql.js';
import '../modules/workflow/workflow-preview.graphql.js';
import '../modules/project/project.graphql.js'; // projects
import '../modules/project/project-mutations.graphql.js'; // projects
import '../modules/statistics/statistics.graphql.js'; // dictionary-statistics-26
import '../modules/search/search.graphql.js';
import '../modules/stemming/stemming.graphql.js';
import '../modules/decoration/decoration.graphql.js';
import '../modules/tbx/tbx.graphql.js';
import '../modules/tbx/tbx-files.graphql.js';
import '../modules/mail/mail-settings.graphql.js'; // mail-settings
import '../modules/feedback/feedback.graphql.js'; // feedback
import '../modules/staging/staging.graphql.js'; // staging
import '../modules/events/event.graphql.js'; // events
import '../modules/events/webhooks/webhook.graphql.js'; // webhooks

/** The GraphQL schema: one file per type registers its fields on the shared builder. */
export const schema = boundRootFields(builder.toSchema());

/** The SDL committed as schema/schema.graphql. */
export const printSdl = (): string => `${printSchema(lexicographicSortSchema(schema))}\n`;
