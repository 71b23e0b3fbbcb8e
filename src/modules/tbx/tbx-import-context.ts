/**
 * What the phases of a TBX import share: its transaction, the dictionary it writes to and its actor,
 * the summary and errors it reports, and the SQL helper they all write with.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Scope } from '../../shared/scope.js';
import { boundRows } from '../../shared/sql.js';
import type { EarlyIndexer } from '../search/early-indexer.js';
import type { TbxMergeMode } from './tbx-import-merge.js';
import type { ImportWorkflow } from './tbx-import-workflow.js';
import { DEFAULT_STATUS_MAPPING, type StatusMapping } from './tbx-status-mapping.js';

export const NO_TENANT = { tenant: false } as const;
/** Errors kept in the summary (errorCount counts them all). */
export const MAX_ERRORS = 1000;

/** Runs SQL with bound parameters in the entity manager's transaction (see boundRows). */
export const sql = <T extends unknown[] = unknown[]>(
  em: EntityManager,
  text: string,
  params: readonly unknown[] = [],
) => boundRows<object>(em, { text, params: [...params] }) as Promise<unknown[]> as Promise<T>;

/** The dictionary and section an import writes to, and the sections whose concepts it may merge into. */
export interface ImportPlace {
  dictionaryId: number;
  sectionId: number;
  importableSectionIds: Set<number>;
}

/** One import's shared state, inside the job's transaction. */
export class ImportContext {
  readonly summary = { concepts: 0, terms: 0, updated: 0, skipped: 0 };
  readonly errors: { line: number; message: string }[] = [];
  errorCount = 0;
  /** New concepts are indexed batch by batch (only for a dictionary this import creates). */
  earlyIndexer: EarlyIndexer | null = null;
  /** The dictionary's enabled workflow: processStatus values set entry states (tbx-import-workflow.ts). */
  workflow: ImportWorkflow | null = null;
  /** Administrative status -> term status: the request's, over the dictionary's, over the default. */
  statusMapping: StatusMapping = DEFAULT_STATUS_MAPPING;
  readonly clientId: number;
  readonly dictionaryId: number;
  readonly sectionId: number;
  readonly importableSectionIds: Set<number>;

  constructor(
    readonly scope: Scope,
    readonly em: EntityManager,
    place: ImportPlace,
    readonly merge: TbxMergeMode,
  ) {
    this.clientId = scope.actor.clientId;
    this.dictionaryId = place.dictionaryId;
    this.sectionId = place.sectionId;
    this.importableSectionIds = place.importableSectionIds;
  }

  /** A problem of the file at a line: reported in the summary, and the import goes on. */
  error(line: number, message: string) {
    this.errorCount++;
    if (this.errors.length < MAX_ERRORS) this.errors.push({ line, message });
  }
}
