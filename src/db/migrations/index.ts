import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121054202 } from './Migration20261121054202_platform.js';
import { Migration20261121060642 } from './Migration20261121060642_identity.js';
import { Migration20261121064900 } from './Migration20261121064900_license.js';
import { Migration20261121110000 } from './Migration20261121110000_structure.js';
import { Migration20261121130000 } from './Migration20261121130000_system_ui.js';
import { Migration20261121150000 } from './Migration20261121150000_sync_settings.js';
import { Migration20261121151000 } from './Migration20261121151000_definition_import.js';
import { Migration20261121170000 } from './Migration20261121170000_concepts.js';
import { Migration20261122090000 } from './Migration20261122090000_search.js';
import { Migration20261123090000 } from './Migration20261123090000_search_keys.js';
import { Migration20261124090000 } from './Migration20261124090000_word_functions.js';
import { Migration20261125090000 } from './Migration20261125090000_search_grams.js';
import { Migration20261126090000 } from './Migration20261126090000_job_heartbeat.js';
import { Migration20261127090000 } from './Migration20261127090000_dictionary_search_outbox.js';
import { Migration20261128090000 } from './Migration20261128090000_search_document_version.js';
import { Migration20261129090000 } from './Migration20261129090000_login_throttle.js';
import { Migration20261130090000 } from './Migration20261130090000_dictionary_names.js';
import { Migration20261201090000 } from './Migration20261201090000_client_api_key_hash.js';
import { Migration20261202090000 } from './Migration20261202090000_workflows.js';
import { Migration20261203090000 } from './Migration20261203090000_stemming.js';
import { Migration20261203100000 } from './Migration20261203100000_stem_first.js';
import { Migration20261204090000 } from './Migration20261204090000_field_tbx_element.js';
import { Migration20261207090000 } from './Migration20261207090000_workflow_search.js'; // workflow-search
import { Migration20261209090000 } from './Migration20261209090000_concept_language_fields.js'; // language-fields
import { Migration20261211090000 } from './Migration20261211090000_saved_queries.js'; // saved-queries
import { Migration20261216090000 } from './Migration20261216090000_term_workflow_state.js'; // term-workflow-state
import { Migration20261217090000 } from './Migration20261217090000_idempotency_keys.js'; // idempotency-keys
import { Migration20261217100000 } from './Migration20261217100000_client_api_key_hint.js'; // api-key-hint
import { Migration20261218090000 } from './Migration20261218090000_field_parts.js'; // field-parts
import { Migration20261221090000 } from './Migration20261221090000_stem_fold_first.js'; // decoration
import { Migration20261230140000 as Migration20261230140000Isl } from './Migration20261230140000_isl.js'; // isl
import { Migration20261230140000 as Migration20261230140000Mail } from './Migration20261230140000_mail_settings.js'; // mail-settings
import { Migration20261230140000 as Migration20261230140000Tbx } from './Migration20261230140000_tbx_provenance_mapping.js';
import { Migration20270101090000 as Migration20270101090000Projects } from './Migration20270101090000_projects.js'; // projects
import { Migration20270102090000 as Migration20270102090000Storage } from './Migration20270102090000_storage.js'; // storage
import { Migration20270102100000 as Migration20270102100000Attachments } from './Migration20270102100000_attachments.js'; // attachments
import { Migration20270103090000 } from './Migration20270103090000_feedback.js'; // feedback
import { Migration20270104090000 } from './Migration20270104090000_lemma_keys.js'; // decoration
import { Migration20270105090000 } from './Migration20270105090000_bulk_import_writes.js'; // bulk-import-writes
import { Migration20270106090000 } from './Migration20270106090000_term_lemma_keys.js'; // decoration
import { Migration20270106120000 } from './Migration20270106120000_staging_areas.js'; // staging
import { Migration20270106140000 } from './Migration20270106140000_events.js'; // events
import { Migration20270106150000 } from './Migration20270106150000_webhooks.js'; // webhooks
import { Migration20270107110000 } from './Migration20270107110000_staging_relations.js';
import { Migration20270107120000 } from './Migration20270107120000_event_wakeups.js'; // event-wakeups
import { Migration20270107140000 } from './Migration20270107140000_access_notify.js'; // perfs43
import { Migration20270107170000 } from './Migration20270107170000_lemma_citation_keys.js'; // lemma-citation-keys

/** Every migration in order. `npm run db:migration:create` writes a new file; add it here. */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261121054202_platform', class: Migration20261121054202 },
  { name: 'Migration20261121060642_identity', class: Migration20261121060642 },
  { name: 'Migration20261121064900_license', class: Migration20261121064900 },
  { name: 'Migration20261121110000_structure', class: Migration20261121110000 },
  { name: 'Migration20261121130000_system_ui', class: Migration20261121130000 },
  { name: 'Migration20261121150000_sync_settings', class: Migration20261121150000 },
  { name: 'Migration20261121151000_definition_import', class: Migration20261121151000 },
  { name: 'Migration20261121170000_concepts', class: Migration20261121170000 },
  { name: 'Migration20261122090000_search', class: Migration20261122090000 },
  { name: 'Migration20261123090000_search_keys', class: Migration20261123090000 },
  { name: 'Migration20261124090000_word_functions', class: Migration20261124090000 },
  { name: 'Migration20261125090000_search_grams', class: Migration20261125090000 },
  { name: 'Migration20261126090000_job_heartbeat', class: Migration20261126090000 },
  { name: 'Migration20261127090000_dictionary_search_outbox', class: Migration20261127090000 },
  { name: 'Migration20261128090000_search_document_version', class: Migration20261128090000 },
  { name: 'Migration20261129090000_login_throttle', class: Migration20261129090000 },
  { name: 'Migration20261130090000_dictionary_names', class: Migration20261130090000 },
  { name: 'Migration20261201090000_client_api_key_hash', class: Migration20261201090000 },
  { name: 'Migration20261202090000_workflows', class: Migration20261202090000 },
  { name: 'Migration20261203090000_stemming', class: Migration20261203090000 },
  { name: 'Migration20261203100000_stem_first', class: Migration20261203100000 },
  { name: 'Migration20261204090000_field_tbx_element', class: Migration20261204090000 },
  { name: 'Migration20261207090000_workflow_search', class: Migration20261207090000 }, // workflow-search
  { name: 'Migration20261209090000_concept_language_fields', class: Migration20261209090000 }, // language-fields
  { name: 'Migration20261211090000_saved_queries', class: Migration20261211090000 }, // saved-queries
  { name: 'Migration20261216090000_term_workflow_state', class: Migration20261216090000 }, // term-workflow-state
  { name: 'Migration20261217090000_idempotency_keys', class: Migration20261217090000 }, // idempotency-keys
  { name: 'Migration20261217100000_client_api_key_hint', class: Migration20261217100000 }, // api-key-hint
  { name: 'Migration20261218090000_field_parts', class: Migration20261218090000 }, // field-parts
  { name: 'Migration20261221090000_stem_fold_first', class: Migration20261221090000 }, // decoration
  { name: 'Migration20261230140000_isl', class: Migration20261230140000Isl }, // isl
  { name: 'Migration20261230140000_tbx_provenance_mapping', class: Migration20261230140000Tbx }, // tbx
  { name: 'Migration20261230140000_mail_settings', class: Migration20261230140000Mail }, // mail-settings
  { name: 'Migration20270101090000_projects', class: Migration20270101090000Projects }, // projects
  { name: 'Migration20270102090000_storage', class: Migration20270102090000Storage }, // storage
  { name: 'Migration20270102100000_attachments', class: Migration20270102100000Attachments }, // attachments
  { name: 'Migration20270103090000_feedback', class: Migration20270103090000 }, // feedback
  { name: 'Migration20270104090000_lemma_keys', class: Migration20270104090000 }, // decoration
  { name: 'Migration20270105090000_bulk_import_writes', class: Migration20270105090000 }, // bulk-import-writes
  { name: 'Migration20270106090000_term_lemma_keys', class: Migration20270106090000 }, // decoration
  { name: 'Migration20270106120000_staging_areas', class: Migration20270106120000 }, // staging
  { name: 'Migration20270106140000_events', class: Migration20270106140000 }, // events
  { name: 'Migration20270106150000_webhooks', class: Migration20270106150000 }, // webhooks
  { name: 'Migration20270107110000_staging_relations', class: Migration20270107110000 }, // staging
  { name: 'Migration20270107120000_event_wakeups', class: Migration20270107120000 }, // event-wakeups
  { name: 'Migration20270107140000_access_notify', class: Migration20270107140000 }, // perfs43
  { name: 'Migration20270107170000_lemma_citation_keys', class: Migration20270107170000 }, // lemma-citation-keys
];
