import type { z } from 'zod';
import { UserDataSchema } from '../modules/auth/user-data.js';
import { ClientOutputSchema } from '../modules/client/client.schema.js';
import {
  CommentDtoSchema,
  ConceptOutputSchema,
  ConceptPermissionMapSchema,
  ConceptRelationDtoSchema,
  FieldMapSchema,
  RefLinkDtoSchema,
  TermDtoSchema,
  TermPermissionMapSchema,
} from '../modules/concept/concept.schema.js';
import { DictionaryOutputSchema } from '../modules/dictionary/dictionary.schema.js';
import {
  DisplayConceptSchema,
  DisplayFieldSchema,
  DisplayTermSchema,
} from '../modules/display/display.schema.js';
import { DomainOutputSchema } from '../modules/domain/domain.schema.js';
import { FilterOutputSchema } from '../modules/filter/filter.schema.js';
import { GroupOutputSchema } from '../modules/group/group.schema.js';
import { HistoryItemOutputSchema } from '../modules/history/history.schema.js';
import { JobTaskSchema } from '../modules/jobs/job.schema.js';
import { PermissionSchemeOutputSchema } from '../modules/permission/permission-scheme.schema.js';
import { SectionOutputSchema } from '../modules/section/section.schema.js';
import { SyncSettingsOutputSchema } from '../modules/sync-settings/sync-settings.schema.js';
import { UserOutputSchema } from '../modules/user/user.schema.js';
import { ViewOutputSchema } from '../modules/view/view.schema.js';
import { ErrorBodySchema, ImportSummarySchema, InvocationResultSchema } from '../shared/common.schema.js';

/**
 * Named component schemas of the OpenAPI document. zod-openapi puts each of these zod schemas (matched by
 * identity) once under components.schemas and refers to it everywhere it occurs, so a generated client
 * has one type per object instead of a copy per operation (the document and its type file shrink).
 */
export const openApiComponents: Record<string, z.ZodType> = {
  Error: ErrorBodySchema,
  InvocationResult: InvocationResultSchema,
  ImportSummary: ImportSummarySchema,
  JobTask: JobTaskSchema,
  Client: ClientOutputSchema,
  User: UserOutputSchema,
  UserData: UserDataSchema,
  Group: GroupOutputSchema,
  PermissionScheme: PermissionSchemeOutputSchema,
  Dictionary: DictionaryOutputSchema,
  Section: SectionOutputSchema,
  Domain: DomainOutputSchema,
  View: ViewOutputSchema,
  Filter: FilterOutputSchema,
  SyncSettings: SyncSettingsOutputSchema,
  Concept: ConceptOutputSchema,
  ConceptPermissions: ConceptPermissionMapSchema,
  ConceptRelation: ConceptRelationDtoSchema,
  Term: TermDtoSchema,
  TermPermissions: TermPermissionMapSchema,
  RefLink: RefLinkDtoSchema,
  FieldMap: FieldMapSchema,
  Comment: CommentDtoSchema,
  DisplayConcept: DisplayConceptSchema,
  DisplayTerm: DisplayTermSchema,
  DisplayField: DisplayFieldSchema,
  HistoryItem: HistoryItemOutputSchema,
};
