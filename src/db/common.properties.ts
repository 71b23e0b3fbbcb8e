import { p } from '@mikro-orm/core';

/**
 * Columns shared by every top-level object of the spec: id, legacy oid, optimistic-lock version,
 * soft deletion and who/when of creation and last change. A function, so each entity gets fresh builders.
 * Audit users are plain ids (foreign keys in SQL); their names are resolved in one batched query per page.
 */
export const commonProperties = () => ({
  id: p.integer().primary(),
  oid: p.string().length(64).nullable(),
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
});

/** Soft-deleted rows are hidden unless a caller allowed to see them lifts this filter. */
export const notDeletedFilter = {
  notDeleted: { name: 'notDeleted', cond: { deleted: false }, default: true },
};

/**
 * Tenant isolation: on by default, so a query made without a bound client (authed requests bind the
 * session's client) fails instead of returning another tenant's rows.
 */
export const tenantFilter = {
  tenant: {
    name: 'tenant',
    cond: (args: { clientId: number }) => ({ client: args.clientId }),
    default: true,
  },
};

export interface AuditedRow {
  id: number;
  oid?: string | null;
  version: number;
  deleted: boolean;
  createdAt: Date;
  createdById?: number | null;
  changedAt: Date;
  changedById?: number | null;
}
