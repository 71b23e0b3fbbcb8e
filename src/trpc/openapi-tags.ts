/**
 * The tags of the OpenAPI document, each one area of the API, in the order the docs page lists them.
 * Every tag an operation names must be here (test/clients/openapi-document.test.ts).
 */
export const openApiTags = [
  {
    name: 'authentication',
    description: 'Sign in and out, check and extend a token, reset a password',
  },
  { name: 'system', description: 'Features, licence and what the server offers before and after sign-in' },
  { name: 'clients', description: 'Tenants: their limits and API keys (system administrators)' },
  {
    name: 'users',
    description: 'User accounts of a client, guests, client mappings and the users XML transfer',
  },
  { name: 'groups', description: 'Groups of users, which carry roles, views and API access' },
  {
    name: 'roles and permissions',
    description: 'Roles and the permission schemes of dictionaries and sections',
  },
  {
    name: 'dictionaries',
    description: 'Dictionaries with their languages and fields, copies, TBX and definition import and export',
  },
  { name: 'sections', description: 'Sections of a dictionary, each with its own permission scheme' },
  { name: 'fields', description: 'Field helpers: incremental values and picklists proposed from values' },
  { name: 'domains', description: 'The domain tree of a dictionary and how it is presented' },
  { name: 'views', description: 'Named sets of fields a section or group shows' },
  { name: 'filters', description: 'Saved search filters: own, of a group, or public' },
  { name: 'export settings', description: 'Saved export settings (read-only)' },
  { name: 'concepts', description: 'Concepts with their terms, fields, links and relations; printing' },
  { name: 'terms', description: 'Term search, duplicates and the term list' },
  { name: 'display concepts', description: 'Concepts laid out for display by the fields of a view' },
  { name: 'comments and history', description: 'Comments on concepts and terms, change history and undo' },
  {
    name: 'feedback',
    description: 'Feedback of readers on dictionaries, concepts and terms; answers; the attachment',
  },
  {
    name: 'staging',
    description:
      'Staging areas: imported entries and suggestions waiting for review; diff, accept, edit, reject, decisions',
  },
  {
    name: 'attachments',
    description:
      'Files and images in ATTACHMENT fields of concepts and terms: upload, list, download, thumbnails',
  },
  { name: 'workflows', description: 'Review workflows: states, transitions, inbox, statistics and e-mail' },
  {
    name: 'projects',
    description: 'Terminology projects: entries, candidate terms, assignments, progress (docs/projects.md)',
  }, // projects
  {
    name: 'events',
    description:
      'The change feed: events after a sequence, and the same as Server-Sent Events (docs/events.md)',
  }, // events
  {
    name: 'webhooks',
    description:
      'Webhook subscriptions: signed deliveries of events to a URL, their delivery log and redelivery (docs/events.md)',
  }, // webhooks
  { name: 'stemming', description: 'Snowball stemmers per language and dictionary, and text analysis' },
  { name: 'decoration', description: 'Marks the terms of a dictionary in a text' },
  { name: 'sync settings', description: 'API synchronization settings of dictionaries' },
  {
    name: 'user interface',
    description: 'Session data, menus, profile and search settings of the web application',
  },
  {
    name: 'mail',
    description: "Mail settings: the installation's SMTP server, each client's sender, and a test message",
  },
  { name: 'job tasks', description: 'Long operations answered 202: their state, progress and result' },
] as const;
