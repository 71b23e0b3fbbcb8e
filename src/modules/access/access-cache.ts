/**
 * What a warm request needs to know about its caller, held in memory: the session behind a token and a
 * search's context (settings, groups, dictionaries with sections and schemes, workflows, language) and
 * the keys of its text. A warm search then costs no database round trip before its engine runs.
 *
 * Never a stale permission: every write to a table these come from notifies `polyterm_access` from a
 * statement trigger (Migration20270107140000_access_notify), and PostgreSQL delivers it to every server
 * on the database at the writer's commit; any notification empties the cache. Entries are served only
 * while the shared LISTEN connection is up (`PgListener.connected`); a drop empties the cache, and so
 * does the reconnection (notifications in between are lost). A fill that began before an invalidation
 * is not stored (the epoch). This server's own successful mutations empty it too, before they answer,
 * so the writer's next request never waits for the notification to come round. Entries also expire
 * after MAX_AGE_MS, a bound on a bug's reach rather than part of the protocol. Time-bound rights are
 * checked on every hit (a session's expiry, the user's expiry date): a hit past them is a miss.
 */
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { type PgListener, pgListenerFor } from '../../db/pg-listener.js';

export const ACCESS_CHANNEL = 'polyterm_access';
const MAX_AGE_MS = 60_000;
const MAX_ENTRIES = 10_000;

interface Entry<T> {
  value: T;
  storedAt: number;
}

/** A map bounded in size (the oldest insertion goes first) and in age. */
class BoundedMap<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(private readonly maxEntries: number) {}

  get(key: string, now: number): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (now - entry.storedAt > MAX_AGE_MS) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: T, now: number) {
    if (this.entries.size >= this.maxEntries && !this.entries.has(key)) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, storedAt: now });
  }

  delete(key: string) {
    this.entries.delete(key);
  }

  clear() {
    this.entries.clear();
  }

  get size() {
    return this.entries.size;
  }
}

/** One of the cache's maps, as its users see it: fills are stored only if nothing changed meanwhile. */
export interface CacheRegion<T> {
  get(key: string): T | undefined;
  /** The epoch to hand to `set` once the value is read from the database. */
  begin(): number;
  set(key: string, value: T, epoch: number): void;
  delete(key: string): void;
}

export class AccessCache {
  private epoch = 0;
  private readonly maps: BoundedMap<unknown>[] = [];
  private readonly regions = new Map<string, CacheRegion<unknown>>();
  /** Invalidations seen (notifications, resets, own writes): for tests and the log. */
  invalidations = 0;

  constructor(private readonly listener: Pick<PgListener, 'connected'>) {}

  /** Serving and storing both need trusted notifications. */
  get live(): boolean {
    return this.listener.connected;
  }

  /** The region called `name` (one per kind of entry: sessions, search contexts, text keys). */
  region<T>(name: string, maxEntries = MAX_ENTRIES): CacheRegion<T> {
    let region = this.regions.get(name);
    if (!region) {
      region = this.newRegion<unknown>(maxEntries);
      this.regions.set(name, region);
    }
    return region as CacheRegion<T>;
  }

  private newRegion<T>(maxEntries: number): CacheRegion<T> {
    const map = new BoundedMap<T>(maxEntries);
    this.maps.push(map as BoundedMap<unknown>);
    return {
      get: (key) => (this.live ? map.get(key, Date.now()) : undefined),
      begin: () => this.epoch,
      set: (key, value, epoch) => {
        if (epoch === this.epoch && this.live) map.set(key, value, Date.now());
      },
      delete: (key) => map.delete(key),
    };
  }

  clear() {
    this.epoch++;
    this.invalidations++;
    for (const map of this.maps) map.clear();
  }

  /** Entries held, all regions together. */
  get size(): number {
    return this.maps.reduce((sum, map) => sum + map.size, 0);
  }
}

const caches = new WeakMap<object, AccessCache>();

interface CacheLog {
  warn(object: unknown, message?: string): void;
}

/**
 * Makes the server's cache and subscribes it to the access notifications; resolves once listening (or
 * once the first attempt failed: the cache then serves nothing until the listener connects).
 */
export async function startAccessCache(orm: MikroORM, log?: CacheLog): Promise<AccessCache> {
  const listener = pgListenerFor(orm, log);
  const cache = new AccessCache(listener);
  caches.set(orm.config, cache);
  listener.onReset(() => cache.clear());
  await listener.listen(ACCESS_CHANNEL, () => cache.clear());
  return cache;
}

/**
 * The cache of the server behind `em`; null where none was started (scripts, direct calls), and inside
 * a transaction, which may have changed what the cache holds and must read its own writes.
 */
export function accessCacheOf(em: EntityManager): AccessCache | null {
  if (em.isInTransaction()) return null;
  return caches.get(em.config) ?? null;
}
