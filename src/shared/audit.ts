import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuditedRow } from '../db/common.properties.js';
import { User } from '../modules/user/user.entity.js';
import type { AuditInfo } from './common.schema.js';

export type AuditUsers = Map<number, { username: string; fullName: string | null }>;

/** Loads the creators and changers of a page of rows in one query, whatever their tenant. */
export async function loadAuditUsers(em: EntityManager, rows: readonly AuditedRow[]): Promise<AuditUsers> {
  const ids = new Set<number>();
  for (const row of rows) {
    if (row.createdById) ids.add(row.createdById);
    if (row.changedById) ids.add(row.changedById);
  }
  const users: AuditUsers = new Map();
  if (ids.size === 0) return users;
  const found = await em.find(
    User,
    { id: { $in: [...ids] } },
    { fields: ['id', 'username', 'fullName'], filters: false },
  );
  for (const user of found) users.set(user.id, { username: user.username, fullName: user.fullName ?? null });
  return users;
}

export function auditInfo(userId: number | null | undefined, time: Date, users: AuditUsers): AuditInfo {
  const user = userId ? users.get(userId) : undefined;
  return {
    id: userId ?? null,
    name: user?.username ?? null,
    fullName: user?.fullName ?? null,
    time: time.getTime(),
    oid: null,
  };
}

/** The common attributes of the spec for one row. */
export function commonDto(row: AuditedRow, clientId: number, users: AuditUsers) {
  return {
    id: row.id,
    oid: row.oid ?? null,
    version: row.version,
    clientId,
    deleted: row.deleted,
    created: auditInfo(row.createdById, row.createdAt, users),
    changed: auditInfo(row.changedById, row.changedAt, users),
  };
}
