import { AppError } from '../../shared/errors.js';
import { isClientAdmin, isSysadmin, type Scope } from '../../shared/scope.js';
import { actorOfUser, scopeOfActor } from '../events/event-visibility.js';
import { unreadableFeedbackIds } from '../feedback/feedback-hidden.js';
import type { UserLogItem } from '../user/user.schema.js';
import type {
  MonthQuery,
  MonthStatistics,
  MonthSummary,
  OnlineUser,
  StatisticsQuery,
  Summary,
} from './statistics.schema.js';

const DAY_MS = 86_400_000;

/** Statistics are for administrators: client administrators see their client, system administrators any. */
function assertMayReadStatistics(scope: Scope): void {
  if (!isClientAdmin(scope.actor)) throw new AppError('FORBIDDEN', 'Only administrators read statistics');
}

/** The client the figures cover, or null for the whole installation (system administrators asking for it). */
function coveredClient(scope: Scope, allClients: boolean): number | null {
  return allClients && isSysadmin(scope.actor) ? null : scope.actor.clientId;
}

/** "3 h 12 min"; below an hour "12 min". */
export function formatDuration(seconds: number): string {
  const minutes = Math.floor(Math.max(0, seconds) / 60);
  const hours = Math.floor(minutes / 60);
  return hours > 0 ? `${hours} h ${minutes % 60} min` : `${minutes} min`;
}

/** A per-day average with at most two decimals, e.g. "2.5"; "0" when no day of the period has begun. */
export function formatAverage(total: number, days: number): string {
  return days > 0 ? String(Math.round((total / days) * 100) / 100) : '0';
}

/**
 * Seconds of one session: login to logout; a session that expired without logout ends at its last use,
 * a live one now. Two `now` parameters, bound in this order.
 */
const SESSION_SECONDS = `extract(epoch from (greatest(coalesce(s.ended_at,
  case when s.expires_at > cast(? as timestamptz) then cast(? as timestamptz) else s.last_used_at end),
  s.created_at) - s.created_at))`;

interface Aggregate {
  visits: number;
  users: number;
  api_users: number;
  api_visits: number;
  api_requests: number;
  seconds: number;
}

/** Every figure of a set of sessions in one aggregate query. */
async function aggregate(
  scope: Scope,
  clientId: number | null,
  period: { from: Date; to: Date } | null,
  now: Date,
): Promise<Aggregate> {
  const where: string[] = [];
  const params: unknown[] = [now, now];
  if (clientId !== null) {
    where.push('s.client_id = ?');
    params.push(clientId);
  }
  if (period) {
    where.push('s.created_at >= ? and s.created_at < ?');
    params.push(period.from, period.to);
  }
  const [row] = await scope.em.execute<Aggregate[]>(
    `select count(*)::int as visits,
            count(distinct s.user_id)::int as users,
            count(distinct s.user_id) filter (where s.api_login)::int as api_users,
            count(*) filter (where s.api_login)::int as api_visits,
            coalesce(sum(s.api_requests), 0)::float8 as api_requests,
            coalesce(sum(${SESSION_SECONDS}), 0)::float8 as seconds
     from sessions s ${where.length ? `where ${where.join(' and ')}` : ''}`,
    params,
  );
  return row ?? { visits: 0, users: 0, api_users: 0, api_visits: 0, api_requests: 0, seconds: 0 };
}

const ms = (value: Date | string): number => new Date(value).getTime();

/**
 * Feedback waiting for an answer (OPEN) in live dictionaries that the caller would see in the
 * administration list: feedback on a section they do not read or a term in an unpublished state they
 * do not review is left out (feedback-hidden.ts), their own is counted. Over all clients (system
 * administrators), each client's feedback is counted as the caller would see it acting there.
 */
async function openFeedbackCount(scope: Scope, clientId: number | null): Promise<number> {
  const rows = await scope.em.execute<{ client_id: number; dictionary_id: number; open: number }[]>(
    `select f.client_id, f.dictionary_id, count(*)::int as open
       from feedback f join dictionaries d on d.id = f.dictionary_id and not d.deleted
      where f.status = 'OPEN'${clientId === null ? '' : ' and f.client_id = ?'}
      group by f.client_id, f.dictionary_id`,
    clientId === null ? [] : [clientId],
  );
  let total = 0;
  for (const client of new Set(rows.map((row) => row.client_id))) {
    const actor =
      client === scope.actor.clientId ? scope.actor : await actorOfUser(scope.em, scope.actor.userId, client);
    if (!actor) continue;
    const dictionaries = rows.filter((row) => row.client_id === client);
    total += dictionaries.reduce((sum, row) => sum + row.open, 0);
    const acting = actor === scope.actor ? scope : scopeOfActor(scope.em, actor, scope.config, scope.log);
    const hidden = await unreadableFeedbackIds(
      acting,
      dictionaries.map((row) => row.dictionary_id),
    );
    if (hidden.size === 0) continue;
    const [row] = await scope.em.execute<{ hidden: number }[]>(
      `select count(*)::int as hidden from feedback
        where id in (?) and status = 'OPEN' and not coalesce(sender_id = ? and not sender_guest, false)`,
      [[...hidden], actor.userId],
    );
    total -= row?.hidden ?? 0;
  }
  return total;
}

/** Installation-wide totals (or the caller's client): visits, users, API use and session time. */
export async function statisticsSummary(scope: Scope, input: StatisticsQuery): Promise<Summary> {
  assertMayReadStatistics(scope);
  const totals = await aggregate(scope, coveredClient(scope, input['all-clients']), null, new Date());
  const [install] = await scope.em.execute<{ install_date: Date | null }[]>(
    'select min(created_at) as install_date from clients',
  );
  const covered = coveredClient(scope, input['all-clients']);
  const openFeedback = await openFeedbackCount(scope, covered);
  return {
    visits: totals.visits,
    users: totals.users,
    apiUsers: totals.api_users,
    apiRequests: Math.round(totals.api_requests),
    totalTime: formatDuration(totals.seconds),
    installDate: install?.install_date ? ms(install.install_date) : null,
    openFeedback,
  };
}

/** Days of the month that have begun by `now`: all of a past month, none of a future one. */
export function daysBegun(year: number, month: number, now: Date): number {
  const start = Date.UTC(year, month - 1, 1);
  const end = Date.UTC(year, month, 1);
  if (now.getTime() < start) return 0;
  if (now.getTime() >= end) return Math.round((end - start) / DAY_MS);
  return now.getUTCDate();
}

/**
 * One month (UTC) of the sessions that started in it: totals, per-day averages over the days begun,
 * and every login of the month as UserLogItems.
 */
export async function monthStatistics(scope: Scope, input: MonthQuery): Promise<MonthStatistics> {
  assertMayReadStatistics(scope);
  const now = new Date();
  const clientId = coveredClient(scope, input['all-clients']);
  const period = {
    from: new Date(Date.UTC(input.year, input.month - 1, 1)),
    to: new Date(Date.UTC(input.year, input.month, 1)),
  };
  const totals = await aggregate(scope, clientId, period, now);
  const days = daysBegun(input.year, input.month, now);
  const summary: MonthSummary = {
    month: input.month,
    year: input.year,
    visits: totals.visits,
    users: totals.users,
    apiVisits: totals.api_visits,
    apiRequests: Math.round(totals.api_requests),
    totalTime: formatDuration(totals.seconds),
    averageVisits: formatAverage(totals.visits, days),
    averageApiVisits: formatAverage(totals.api_visits, days),
    averageApiRequests: formatAverage(totals.api_requests, days),
    averageTime: formatDuration(days > 0 ? totals.seconds / days : 0),
  };
  return { ...summary, onlineUsers: await loginsOf(scope, clientId, period) };
}

interface LogRow {
  user_id: number;
  username: string;
  login_name: string;
  created_at: Date;
  ended_at: Date | null;
  last_used_at: Date;
  ip_address: string | null;
  part_id: string;
  api_login: boolean;
  api_requests: number;
}

const LOG_COLUMNS = `s.user_id, u.username, c.login_name, s.created_at, s.ended_at, s.last_used_at,
  s.ip_address, s.part_id, s.api_login, s.api_requests
  from sessions s join users u on u.id = s.user_id join clients c on c.id = s.client_id`;

async function loginsOf(
  scope: Scope,
  clientId: number | null,
  period: { from: Date; to: Date },
): Promise<UserLogItem[]> {
  const rows = await scope.em.execute<LogRow[]>(
    `select ${LOG_COLUMNS}
     where s.created_at >= ? and s.created_at < ? ${clientId === null ? '' : 'and s.client_id = ?'}
     order by s.created_at desc, s.id desc`,
    clientId === null ? [period.from, period.to] : [period.from, period.to, clientId],
  );
  return rows.map((row) => ({
    userLogin: row.username,
    userId: row.user_id,
    clientLogin: row.login_name,
    loginTime: ms(row.created_at),
    logoutTime: row.ended_at ? ms(row.ended_at) : null,
    ipAddress: row.ip_address,
    apiLogin: row.api_login,
    apiRequests: row.api_requests,
  }));
}

/**
 * Sessions online now: not ended, not expired, and still usable (the conditions of authentication: the
 * user active, not deleted, not past expDate; the client active and not deleted). Newest login first.
 */
export async function onlineUsers(scope: Scope, input: StatisticsQuery): Promise<OnlineUser[]> {
  assertMayReadStatistics(scope);
  const clientId = coveredClient(scope, input['all-clients']);
  const now = new Date();
  const rows = await scope.em.execute<LogRow[]>(
    `select ${LOG_COLUMNS}
     where s.ended_at is null and s.expires_at > ? ${clientId === null ? '' : 'and s.client_id = ?'}
       and u.active and not u.deleted and (u.exp_date is null or u.exp_date > ?)
       and c.active and not c.deleted
     order by s.created_at desc, s.id desc`,
    clientId === null ? [now, now] : [now, clientId, now],
  );
  return rows.map((row) => ({
    userLogin: row.username,
    userId: row.user_id,
    clientLogin: row.login_name,
    loginTime: ms(row.created_at),
    lastUsageTime: ms(row.last_used_at),
    ipAddress: row.ip_address,
    partId: row.part_id,
    apiLogin: row.api_login,
    apiRequests: row.api_requests,
  }));
}
