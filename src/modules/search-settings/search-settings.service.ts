import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config.js';
import { withoutRestCoercion } from '../../rest/rest-coercion.js';
import { AppError, notFound } from '../../shared/errors.js';
import { type Actor, isClientAdmin, type Scope } from '../../shared/scope.js';
import type { Sql } from '../../shared/sql.js';
import { assertVersion } from '../../shared/versioning.js';
import { GuestSettings } from '../guest/guest-settings.entity.js';
import type { User } from '../user/user.entity.js';
import { loadVisibleUser } from '../user/user.service.js';
import { UserSearchSettings } from './search-settings.entity.js';
import {
  SETTING_NAMES,
  type SearchSettingsDto,
  type SearchSettingsUpdateInput,
  type SearchSettingValues,
  type SettingName,
  type SingleSettingInput,
  searchSettingsShape,
} from './search-settings.schema.js';
import { withLanguageCodes } from './search-settings-languages.js';

/** What a user starts with; ALWAYS_WILDCARD makes substring search the default. */
export function defaultSearchSettings(config: Config): SearchSettingValues {
  return {
    defaultDictionaryIds: [],
    sourceLanguage: null,
    targetLanguages: [],
    searchMode: config.ALWAYS_WILDCARD ? 'SUBSTRING' : 'PREFIX',
    normalized: true,
    fuzzy: false,
    fuzziness: 1,
    pageSize: Math.min(20, config.MAX_PAGE_SIZE),
    multiAllFields: false,
    sectionOids: [],
    resultColumns: [], // result-columns
  };
}

/** Stored values over the defaults; a stored value no longer valid (a lowered MAX_PAGE_SIZE...) falls back. */
function effectiveValues(config: Config, stored: Partial<SearchSettingValues>): SearchSettingValues {
  const values: Record<string, unknown> = { ...defaultSearchSettings(config) };
  for (const name of SETTING_NAMES) {
    // These schemas are REST inputs too: inside a REST call they would coerce, and a setting missing
    // from the stored row (never changed) would read as false instead of its default (normalized).
    const parsed = withoutRestCoercion(() => searchSettingsShape[name].safeParse(stored[name]));
    if (parsed.success && (name !== 'pageSize' || (parsed.data as number) <= config.MAX_PAGE_SIZE)) {
      values[name] = parsed.data;
    }
  }
  return values as SearchSettingValues;
}

/**
 * The user whose settings are meant: the caller by default; another user only for administrators,
 * within what they can see. Anyone else asking for another user gets 404, as if it did not exist.
 */
async function targetUser(scope: Scope, requested: number | undefined): Promise<User> {
  const self = requested === undefined || requested === scope.actor.userId;
  if (self) return loadVisibleUser(scope, scope.actor.userId);
  if (!isClientAdmin(scope.actor)) throw notFound('User', requested);
  // The guest account is no listed user, but its settings are what every guest session starts with.
  const guest = await scope.em.findOne(
    GuestSettings,
    { client: scope.actor.clientId },
    { populate: ['user'] },
  );
  const guestAccount = guest?.user?.getEntity();
  if (guestAccount && guestAccount.id === requested) return guestAccount;
  return loadVisibleUser(scope, requested);
}

/** A guest session works on its own copy, so visitors sharing the guest account never meet. */
const guestSessionOf = (scope: Scope, user: User): number | null =>
  scope.actor.guest && user.id === scope.actor.userId ? scope.actor.sessionId : null;

/** Guests change search settings only when the client's guest settings allow search modes. */
async function assertMayChange(scope: Scope): Promise<void> {
  if (!scope.actor.guest) return;
  const guest = await scope.em.findOne(GuestSettings, { client: scope.actor.clientId });
  if (!guest?.enableSearchModes) {
    throw new AppError('FORBIDDEN', 'Guests of this client cannot change search settings');
  }
}

/** The account's row in the acting client, created with the defaults on first use. */
async function accountRow(scope: Scope, em: EntityManager, user: User): Promise<UserSearchSettings> {
  const clientId = scope.actor.clientId;
  await em.execute(
    `insert into user_search_settings (user_id, client_id, session_id, version, settings, changed_at)
     values (?, ?, null, 1, cast(? as jsonb), now())
     on conflict (user_id, client_id) where session_id is null do nothing`,
    [user.id, clientId, JSON.stringify(defaultSearchSettings(scope.config))],
  );
  return em.findOneOrFail(UserSearchSettings, { user: user.id, client: clientId, sessionId: null });
}

/** The row in force for the user: a guest session's own one when it has one, else the account's. */
async function currentRow(scope: Scope, em: EntityManager, user: User): Promise<UserSearchSettings> {
  const sessionId = guestSessionOf(scope, user);
  const own = sessionId
    ? await em.findOne(UserSearchSettings, { client: scope.actor.clientId, sessionId })
    : null;
  return own ?? accountRow(scope, em, user);
}

function toDto(scope: Scope, user: User, row: UserSearchSettings): SearchSettingsDto {
  return {
    userId: user.id,
    userOid: user.oid ?? null,
    clientId: scope.actor.clientId,
    version: row.version,
    ...effectiveValues(scope.config, row.settings),
  };
}

/** Search settings of the caller (or, for administrators, of `user-id`); created with defaults on first read. */
export async function getSearchSettings(
  scope: Scope,
  userId: number | undefined,
): Promise<SearchSettingsDto> {
  const user = await targetUser(scope, userId);
  return toDto(scope, user, await currentRow(scope, scope.em, user));
}

/**
 * The stored settings in force for the caller (a guest session's copy, else the account's row), as a
 * query of at most one row with one column, `settings`. Searching reads them and never writes: the row
 * is created by getSearchSettings.
 */
export function storedSettingsSql(actor: Actor): Sql {
  const account = 'user_id = ? and client_id = ? and session_id is null';
  return actor.guest
    ? {
        text: `select settings from user_search_settings where session_id = ? or (${account})
                order by session_id nulls last limit 1`,
        params: [actor.sessionId, actor.userId, actor.clientId],
      }
    : {
        text: `select settings from user_search_settings where ${account}`,
        params: [actor.userId, actor.clientId],
      };
}

/** The values in force: stored ones (null: none stored) over the defaults. */
export function settingValuesFrom(config: Config, stored: Partial<SearchSettingValues> | null) {
  return effectiveValues(config, stored ?? {});
}

/** Refuses dictionaries and sections that are not live objects of the acting client (400). */
async function assertReferencesExist(
  scope: Scope,
  em: EntityManager,
  values: SearchSettingValues,
): Promise<void> {
  const clientId = scope.actor.clientId;
  const dictionaryIds = [...new Set(values.defaultDictionaryIds)];
  if (dictionaryIds.length) {
    const found = await em.execute<{ id: number }[]>(
      'select id from dictionaries where client_id = ? and not deleted and id in (?)',
      [clientId, dictionaryIds],
    );
    const missing = dictionaryIds.filter((id) => !found.some((row) => row.id === id));
    if (missing.length) throw new AppError('BAD_REQUEST', `Unknown dictionaries: ${missing.join(', ')}`);
  }
  const sectionOids = [...new Set(values.sectionOids)];
  if (sectionOids.length) {
    const found = await em.execute<{ oid: string }[]>(
      'select oid from sections where client_id = ? and not deleted and oid in (?)',
      [clientId, sectionOids],
    );
    const missing = sectionOids.filter((oid) => !found.some((row) => row.oid === oid));
    if (missing.length) throw new AppError('BAD_REQUEST', `Unknown sections: ${missing.join(', ')}`);
  }
}

function assertPageSize(config: Config, values: SearchSettingValues): void {
  if (values.pageSize > config.MAX_PAGE_SIZE) {
    throw new AppError('BAD_REQUEST', `pageSize may be at most ${config.MAX_PAGE_SIZE}`);
  }
}

/**
 * Writes new values for the user. With a version it must match the row in force (409 otherwise). A guest
 * session's first change copies nothing back to the guest account: it gets a row of its own.
 */
async function write(
  scope: Scope,
  user: User,
  version: number | null | undefined | 'unchecked',
  change: (current: SearchSettingValues) => SearchSettingValues,
): Promise<SearchSettingsDto> {
  await assertMayChange(scope);
  const row = await scope.em.transactional(async (em) => {
    const current = await currentRow(scope, em, user);
    if (version !== 'unchecked') assertVersion(current, version, 'Search settings');
    const before = effectiveValues(scope.config, current.settings);
    const values = await withLanguageCodes(scope, before, change(before));
    assertPageSize(scope.config, values);
    await assertReferencesExist(scope, em, values);
    const sessionId = guestSessionOf(scope, user);
    if (sessionId && current.sessionId !== sessionId) {
      // Rows of guest sessions that are over are no longer read: drop them while adding one.
      await em.execute(
        `delete from user_search_settings r using sessions s where r.session_id = s.id and r.client_id = ?
         and (s.ended_at is not null or s.expires_at < now())`,
        [scope.actor.clientId],
      );
      return em.create(UserSearchSettings, {
        user: user.id,
        client: scope.actor.clientId,
        sessionId,
        settings: values,
      });
    }
    current.settings = values;
    return current;
  });
  return toDto(scope, user, row);
}

/** Replaces every attribute (missing or null ones take their default); needs the version read. */
export async function updateSearchSettings(
  scope: Scope,
  input: SearchSettingsUpdateInput,
): Promise<SearchSettingsDto> {
  if (input['user-id'] !== undefined && input.userId !== undefined && input['user-id'] !== input.userId) {
    throw new AppError('BAD_REQUEST', 'user-id and userId name different users');
  }
  const user = await targetUser(scope, input['user-id'] ?? input.userId);
  const defaults = defaultSearchSettings(scope.config);
  const values: Record<string, unknown> = {};
  for (const name of SETTING_NAMES) values[name] = input[name] ?? defaults[name];
  return write(scope, user, input.version, () => values as SearchSettingValues);
}

const single = (name: string, values: string[]): string => {
  if (values.length !== 1) throw new AppError('BAD_REQUEST', `${name} takes exactly one value`);
  return values[0]!;
};
const integer = (name: string, value: string): number => {
  if (!/^-?\d+$/.test(value.trim())) throw new AppError('BAD_REQUEST', `${name}: "${value}" is not a number`);
  return Number(value);
};
const flag = (name: string, value: string): boolean => {
  const word = value.trim().toLowerCase();
  if (word !== 'true' && word !== 'false') throw new AppError('BAD_REQUEST', `${name} takes true or false`);
  return word === 'true';
};

/** How the strings of the single-setting body become each attribute's value. */
const fromStrings: Record<SettingName, (values: string[]) => unknown> = {
  defaultDictionaryIds: (values) => values.map((value) => integer('defaultDictionaryIds', value)),
  sourceLanguage: (values) => (values.length === 0 ? null : single('sourceLanguage', values)),
  targetLanguages: (values) => values,
  searchMode: (values) => single('searchMode', values).trim().toUpperCase(),
  normalized: (values) => flag('normalized', single('normalized', values)),
  fuzzy: (values) => flag('fuzzy', single('fuzzy', values)),
  fuzziness: (values) => integer('fuzziness', single('fuzziness', values)),
  pageSize: (values) => integer('pageSize', single('pageSize', values)),
  multiAllFields: (values) => flag('multiAllFields', single('multiAllFields', values)),
  sectionOids: (values) => values,
  resultColumns: (values) => values, // result-columns
};

const isSettingName = (name: string): name is SettingName => (SETTING_NAMES as string[]).includes(name);

/** Sets one attribute from an array of strings; an unknown attribute name is 400. No version needed. */
export async function updateSingleSetting(
  scope: Scope,
  input: SingleSettingInput,
): Promise<SearchSettingsDto> {
  const user = await targetUser(scope, input['user-id']);
  return write(scope, user, 'unchecked', (current) => {
    const name = input.setting;
    if (!isSettingName(name)) {
      throw new AppError(
        'BAD_REQUEST',
        `Unknown search setting "${name}"; settings: ${SETTING_NAMES.join(', ')}`,
      );
    }
    const parsed = searchSettingsShape[name].safeParse(fromStrings[name](input.values));
    if (!parsed.success) {
      const reason = parsed.error.issues.map((issue) => issue.message).join('; ');
      throw new AppError('BAD_REQUEST', `Invalid value for ${name}: ${reason}`);
    }
    return { ...current, [name]: parsed.data };
  });
}
