/**
 * Staging areas and their decisions as MikroORM entities (docs/staging.md), with the invariants that
 * belong to them: an area's name is unique (case-insensitive) among its dictionary's live areas, and a
 * staged entry gets one final decision (ACCEPTED or REJECTED; EDITED only while PENDING). A partial
 * unique index backs each (staging_areas_name_unique; staging_decisions_final_unique), so two requests
 * racing past the check still end in 409. The entries themselves (staged_entries) and the bulk paths stay
 * set-based SQL: a bulk accept or reject writes up to 5,000 entries and their decisions in a few
 * statements inside the import's run, which a unit of work of 5,000 entities would slow several-fold.
 */
import { defineEntity, type EntityManager, type InferEntity, p } from '@mikro-orm/core';
import { tenantFilter } from '../../db/common.properties.js';
import { AppError } from '../../shared/errors.js';
import { Client } from '../client/client.entity.js';

// As staging.schema.ts and tbx-import-merge.ts say them; repeated so that the entity list (db/entities.ts)
// does not load the import's modules.
const DECISION_KINDS = ['ACCEPTED', 'REJECTED', 'EDITED'] as const;
const MERGE_MODES = ['ENTRY_ID', 'TERM', 'NONE'] as const;

export const StagingArea = defineEntity({
  name: 'StagingArea',
  tableName: 'staging_areas',
  filters: { ...tenantFilter },
  properties: {
    id: p.integer().primary(),
    client: () => p.manyToOne(Client).ref(),
    dictionaryId: p.integer(),
    name: p.string().length(255),
    description: p.text().nullable(),
    openToReaders: p.boolean().default(false),
    version: p.integer().version(),
    deleted: p.boolean().default(false),
    deletedAt: p.datetime().nullable(),
    deletedById: p.integer().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    createdById: p.integer().nullable(),
    changedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
    changedById: p.integer().nullable(),
  },
});
export type StagingArea = InferEntity<typeof StagingArea>;

/** One decision on a staged entry; never changed. */
export const StagingDecision = defineEntity({
  name: 'StagingDecision',
  tableName: 'staging_decisions',
  filters: { ...tenantFilter },
  properties: {
    id: p.integer().primary(),
    client: () => p.manyToOne(Client).ref(),
    stagingAreaId: p.integer(),
    stagedEntryId: p.integer(),
    decision: p.enum([...DECISION_KINDS]),
    reason: p.text().nullable(),
    conceptId: p.integer().nullable(),
    workflowState: p.string().length(255).nullable(),
    merge: p.enum([...MERGE_MODES]).nullable(),
    decidedById: p.integer().nullable(),
    decidedAt: p.datetime().onCreate(() => new Date()),
  },
});
export type StagingDecision = InferEntity<typeof StagingDecision>;

const likeExact = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The name invariant: no other live area of the dictionary has it (case-insensitive); 409 otherwise. */
export async function assertAreaNameFree(
  em: EntityManager,
  area: Pick<StagingArea, 'dictionaryId' | 'name'> & { id?: number },
): Promise<void> {
  const taken = await em.count(
    StagingArea,
    {
      dictionaryId: area.dictionaryId,
      deleted: false,
      name: { $ilike: likeExact(area.name) },
      ...(area.id !== undefined ? { id: { $ne: area.id } } : {}),
    },
    { filters: false },
  );
  if (taken) throw areaNameTaken(area.name);
}

export const areaNameTaken = (name: string) =>
  new AppError('CONFLICT', `A staging area named "${name}" already exists`);

/**
 * The decision invariant: a decision is taken on a PENDING entry only (the caller holds its row lock);
 * an entry ACCEPTED or REJECTED already is 409. Persists the decision (flushed with the transaction).
 */
export function decide(
  em: EntityManager,
  entry: { id: number; status: string; stagingAreaId: number; clientId: number },
  decision: Pick<StagingDecision, 'decision'> &
    Partial<Pick<StagingDecision, 'reason' | 'conceptId' | 'workflowState' | 'merge'>>,
  decidedById: number,
): StagingDecision {
  if (entry.status !== 'PENDING') {
    throw new AppError('CONFLICT', `Staged entry ${entry.id} is ${entry.status} already`);
  }
  return em.create(StagingDecision, {
    client: entry.clientId,
    stagingAreaId: entry.stagingAreaId,
    stagedEntryId: entry.id,
    decision: decision.decision,
    reason: decision.reason ?? null,
    conceptId: decision.conceptId ?? null,
    workflowState: decision.workflowState ?? null,
    merge: decision.merge ?? null,
    decidedById,
  });
}

/** A unique index of these tables refused the write: the invariant's own 409. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; name?: string };
  return e.code === '23505' || e.name === 'UniqueConstraintViolationException';
}
