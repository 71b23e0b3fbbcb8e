import { PasswordReset } from '../modules/auth/password-reset.entity.js';
import { Session } from '../modules/auth/session.entity.js';
import { Client } from '../modules/client/client.entity.js';
import { Comment } from '../modules/comment/comment.entity.js';
import { Concept, ConceptDomain, ConceptRelation, RefLink, Term } from '../modules/concept/concept.entity.js';
import { ConceptLock } from '../modules/concept/concept-lock.entity.js';
import { Dictionary } from '../modules/dictionary/dictionary.entity.js';
import { DefinitionImport } from '../modules/dictionary-definition/definition-import.entity.js';
import { Domain } from '../modules/domain/domain.entity.js';
import { EventDraft } from '../modules/events/event.entity.js';
import { ExportSettings } from '../modules/export-settings/export-settings.entity.js';
import { Feedback, FeedbackAnswer } from '../modules/feedback/feedback.entity.js';
import { Field, PicklistItem } from '../modules/field/field.entity.js';
import { Filter } from '../modules/filter/filter.entity.js';
import { Group, GroupMember } from '../modules/group/group.entity.js';
import { GuestSettings } from '../modules/guest/guest-settings.entity.js';
import { ConceptHistory } from '../modules/history/history.entity.js';
import { JobTask } from '../modules/jobs/job-task.entity.js';
import { Language, LanguageVariant } from '../modules/language/language.entity.js';
import { License } from '../modules/license/license.entity.js';
import { PermissionScheme } from '../modules/permission/permission-scheme.entity.js';
import { UserSearchSettings } from '../modules/search-settings/search-settings.entity.js';
import { Section } from '../modules/section/section.entity.js';
import { StagingArea, StagingDecision } from '../modules/staging/staging.entity.js';
import { SyncSettings } from '../modules/sync-settings/sync-settings.entity.js';
import { User, UserClient } from '../modules/user/user.entity.js';
import { View } from '../modules/view/view.entity.js';
import { Workflow } from '../modules/workflow/workflow.entity.js';

/** Every entity the ORM knows; one list shared by the server, the migration scripts and tests. */
export const entities = [
  Client,
  User,
  UserClient,
  Session,
  PasswordReset,
  JobTask,
  Group,
  GroupMember,
  GuestSettings,
  PermissionScheme,
  Dictionary,
  Section,
  License,
  View,
  Language,
  LanguageVariant,
  Field,
  PicklistItem,
  Domain,
  Filter,
  ExportSettings,
  Concept,
  ConceptDomain,
  Term,
  ConceptRelation,
  RefLink,
  Comment,
  ConceptLock,
  ConceptHistory,
  UserSearchSettings,
  SyncSettings,
  DefinitionImport,
  Workflow,
  Feedback,
  FeedbackAnswer,
  EventDraft,
  StagingArea,
  StagingDecision,
];
