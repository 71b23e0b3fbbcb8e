import { Migration } from '@mikro-orm/migrations';

const common = `"id" serial primary key, "oid" varchar(64) null, "version" int not null default 1, "deleted" boolean not null default false, "deleted_at" timestamptz null, "deleted_by_id" int null references "users" ("id") on delete set null, "created_at" timestamptz not null, "created_by_id" int null references "users" ("id") on delete set null, "changed_at" timestamptz not null, "changed_by_id" int null references "users" ("id") on delete set null`;
const tenant = `"client_id" int not null references "clients" ("id") on update cascade`;
const ofDictionary = `"dictionary_id" int not null references "dictionaries" ("id") on update cascade on delete cascade`;
const enumOf = (column: string, values: readonly string[], fallback?: string) =>
  `"${column}" text check ("${column}" in (${values.map((v) => `'${v}'`).join(', ')})) not null${fallback ? ` default '${fallback}'` : ''}`;

const FIELD_TYPES = ['SINGLELINE', 'MULTILINE', 'NUMBER', 'DATE', 'PICKLIST', 'MULTISELECT', 'INCREMENTAL'];
const DATA_CATEGORIES = [
  'GENERIC',
  'DEFINITION',
  'EXAMPLE',
  'GRAMMATICAL_GENDER',
  'GRAMMATICAL_NUMBER',
  'PROCESS_STATUS',
  'SOURCE',
  'SOURCE_LANGUAGE',
  'USAGE_NOTE',
  'CONTEXT',
  'USAGE_STATUS',
  'TERM_TYPE',
  'CONCEPT_ORIGIN',
  'CUSTOMER_SUBSET',
  'ENVIRONMENT_SUBSET',
  'EXPLANATION',
  'PRODUCT_SUBSET',
  'PROJECT_SUBSET',
  'ANIMACY',
  'PART_OF_SPEECH',
  'SAMPLE_SENTENCE',
  'TERM_LOCATION',
  'DOM',
  'DICT',
  'SECT',
  'SUBC',
  'CONID',
  'CREBY',
  'CREDATE',
  'CHGBY',
  'CHGDATE',
  'TERM',
  'LANG',
  'GVAR',
  'OVAR',
  'TERM_CONFIG',
  'TCREBY',
  'TCREDATE',
  'TCHGBY',
  'TCHGDATE',
  'TERM_ID',
];

/**
 * Dictionary structure: languages and variants, fields with their models and picklists, domains, views,
 * filters, export settings, and the concept and term rows that dictionary operations count, copy, move
 * and clear (the concepts issue extends them).
 */
export class Migration20261121110000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "job_tasks" add column "processed" int not null default 0, add column "total" int null;`,
    );
    this.addSql(`create index "job_tasks_user_created_index" on "job_tasks" ("user_id", "created_at");`);
    this.addSql(
      `alter table "dictionaries" add column "description" text null, add column "email_recipient_id" int null references "users" ("id") on delete set null, add column "sort_index" int not null default 0, add column ${enumOf('domain_presentation', ['FLAT', 'HIERARCHICAL', 'HORIZONTAL'], 'FLAT')}, add column "structure_changed_at" timestamptz not null default now();`,
    );
    this.addSql(`update "dictionaries" set "oid" = gen_random_uuid()::text where "oid" is null;`);
    this.addSql(`update "sections" set "oid" = gen_random_uuid()::text where "oid" is null;`);
    this.addSql(
      `create index "dictionaries_client_name_index" on "dictionaries" ("client_id", lower("name"));`,
    );
    this.addSql(`create unique index "dictionaries_oid_unique" on "dictionaries" ("oid");`);

    this.addSql(
      `create table "views" (${common}, ${tenant}, ${ofDictionary}, "name" varchar(255) not null, "fields" text[] not null default '{}');`,
    );
    this.addSql(`create index "views_dictionary_id_index" on "views" ("dictionary_id");`);
    this.addSql(`create index "views_client_name_index" on "views" ("client_id", lower("name"));`);

    this.addSql(
      `alter table "sections" add column "view_id" int null references "views" ("id") on update cascade on delete set null, add column "sort_index" int not null default 0;`,
    );
    this.addSql(`create unique index "sections_oid_unique" on "sections" ("oid");`);
    this.addSql(`create index "sections_client_name_index" on "sections" ("client_id", lower("name"));`);
    this.addSql(`create index "sections_view_id_index" on "sections" ("view_id");`);

    this.addSql(
      `create table "languages" (${common}, ${tenant}, ${ofDictionary}, "name" varchar(255) not null, "code" varchar(64) not null, "code2" varchar(2) null, "code3" varchar(3) null, "iso" boolean not null default true, "custom" boolean not null default false, "rtl" boolean not null default false, "sort_index" int not null default 0);`,
    );
    // One live language per code in a dictionary.
    this.addSql(
      `create unique index "languages_dictionary_code_unique" on "languages" ("dictionary_id", lower("code")) where not "deleted";`,
    );
    this.addSql(
      `create table "language_variants" (${common}, "language_id" int not null references "languages" ("id") on update cascade on delete cascade, "name" varchar(255) not null, "type" smallint not null check ("type" in (0, 1)), "code" varchar(64) not null, "predefined" boolean not null default false, "sort_index" int not null default 0);`,
    );
    this.addSql(
      `create unique index "language_variants_code_unique" on "language_variants" ("language_id", "type", lower("code")) where not "deleted";`,
    );

    this.addSql(
      `create table "fields" (${common}, ${tenant}, ${ofDictionary}, "name" varchar(255) not null, "specified_name" varchar(255) null, ${enumOf('data_category', DATA_CATEGORIES, 'GENERIC')}, ${enumOf('field_type', FIELD_TYPES)}, ${enumOf('level', ['CONCEPT', 'TERM'])}, "sort_index" int not null default 0, "required" boolean not null default false, "min_len" int not null default 0, "max_len" int not null default 0, "reg_exp" varchar(1024) null, "number" boolean not null default false, "unicode" boolean not null default false);`,
    );
    this.addSql(
      `create index "fields_dictionary_id_index" on "fields" ("dictionary_id", "level", "sort_index");`,
    );
    this.addSql(`create unique index "fields_oid_unique" on "fields" ("oid");`);
    this.addSql(
      `create table "picklist_items" ("id" serial primary key, "oid" varchar(64) not null, "field_id" int not null references "fields" ("id") on update cascade on delete cascade, "name" varchar(255) null, "tbx_name" varchar(255) null, "sort_index" int not null default 0);`,
    );
    this.addSql(
      `create index "picklist_items_field_id_index" on "picklist_items" ("field_id", "sort_index");`,
    );

    this.addSql(
      `create table "domains" (${common}, ${tenant}, ${ofDictionary}, "name" varchar(255) not null, "parent_id" int null references "domains" ("id") on delete set null, "sort_index" int not null default 0);`,
    );
    this.addSql(`create index "domains_dictionary_id_index" on "domains" ("dictionary_id", lower("name"));`);
    this.addSql(`create index "domains_parent_id_index" on "domains" ("parent_id");`);
    this.addSql(`create unique index "domains_oid_unique" on "domains" ("oid");`);

    this.addSql(
      `create table "filters" (${common}, ${tenant}, ${ofDictionary}, "name" varchar(255) not null, "description" text null, "owner_id" int not null references "users" ("id") on delete cascade, ${enumOf('visibility', ['PRIVATE', 'GROUP', 'PUBLIC'], 'PRIVATE')}, "group_id" int null references "groups" ("id") on delete set null, "criteria" jsonb not null);`,
    );
    this.addSql(`create index "filters_dictionary_id_index" on "filters" ("dictionary_id");`);
    this.addSql(`create index "filters_client_name_index" on "filters" ("client_id", lower("name"));`);
    this.addSql(`create index "filters_owner_id_index" on "filters" ("owner_id");`);

    this.addSql(
      `create table "export_settings" (${common}, ${tenant}, ${ofDictionary}, "name" varchar(255) not null, ${enumOf('visibility', ['PRIVATE', 'PUBLIC'], 'PRIVATE')}, "user_id" int null references "users" ("id") on delete set null, ${enumOf('file_format', ['TBX', 'TBX_V2', 'XLSX', 'CSV'], 'TBX')}, "file_name" varchar(255) null, "export_permalinks" boolean not null default false, "export_attachments" boolean not null default false, "export_one_sheet" boolean not null default false, "filter_id" int null references "filters" ("id") on delete set null, "selected_languages" text[] not null default '{}', "selected_concept_fields" text[] not null default '{}', "selected_term_fields" text[] not null default '{}', "order_term_by_field" varchar(64) null, "never_launched" boolean not null default true);`,
    );
    this.addSql(`create index "export_settings_dictionary_id_index" on "export_settings" ("dictionary_id");`);
    this.addSql(
      `create index "export_settings_client_name_index" on "export_settings" ("client_id", lower("name"));`,
    );

    this.addSql(
      `create table "concepts" (${common}, ${tenant}, ${ofDictionary}, "section_id" int not null references "sections" ("id") on update cascade, "cid" varchar(64) not null, "field_map" jsonb not null default '{}');`,
    );
    this.addSql(
      `create index "concepts_dictionary_id_index" on "concepts" ("dictionary_id") where not "deleted";`,
    );
    this.addSql(`create index "concepts_section_id_index" on "concepts" ("section_id") where not "deleted";`);
    this.addSql(
      `create table "concept_domains" ("concept_id" int not null references "concepts" ("id") on update cascade on delete cascade, "domain_id" int not null references "domains" ("id") on update cascade on delete cascade, constraint "concept_domains_pkey" primary key ("concept_id", "domain_id"));`,
    );
    this.addSql(`create index "concept_domains_domain_id_index" on "concept_domains" ("domain_id");`);
    this.addSql(
      `create table "terms" (${common}, ${tenant}, ${ofDictionary}, "concept_id" int not null references "concepts" ("id") on update cascade on delete cascade, "name" varchar(1024) not null, "language_code" varchar(64) not null, "region_code" varchar(64) null, "script_code" varchar(64) null, "tid" int not null, "field_map" jsonb not null default '{}');`,
    );
    this.addSql(`create index "terms_concept_id_index" on "terms" ("concept_id");`);
    this.addSql(
      `create index "terms_dictionary_language_index" on "terms" ("dictionary_id", "language_code", "region_code", "script_code");`,
    );
  }

  override async down(): Promise<void> {
    for (const table of [
      'terms',
      'concept_domains',
      'concepts',
      'export_settings',
      'filters',
      'domains',
      'picklist_items',
      'fields',
      'language_variants',
      'languages',
    ]) {
      this.addSql(`drop table if exists "${table}" cascade;`);
    }
    this.addSql(`alter table "sections" drop column "view_id", drop column "sort_index";`);
    this.addSql(`drop index if exists "job_tasks_user_created_index";`);
    this.addSql(`alter table "job_tasks" drop column "processed", drop column "total";`);
    this.addSql(`drop table if exists "views" cascade;`);
    this.addSql(`drop index if exists "sections_oid_unique";`);
    this.addSql(`drop index if exists "sections_client_name_index";`);
    this.addSql(`drop index if exists "dictionaries_oid_unique";`);
    this.addSql(`drop index if exists "dictionaries_client_name_index";`);
    this.addSql(
      `alter table "dictionaries" drop column "description", drop column "email_recipient_id", drop column "sort_index", drop column "domain_presentation", drop column "structure_changed_at";`,
    );
  }
}
