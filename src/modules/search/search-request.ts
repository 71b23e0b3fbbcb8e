/**
 * Turns a term search request into a SearchPlan: who may read what, which sections, domains and
 * filters apply, and the texts as the database folds them. Settles everything engines must not decide.
 */
import { AppError, notFound } from '../../shared/errors.js';
import type { Scope } from '../../shared/scope.js';
import { boundRows, jsonRows, type Sql, selectEach } from '../../shared/sql.js';
import {
  type AccessSubject,
  accessIn,
  type DictionaryRow,
  dictionaryRowsSql,
  isDictionaryAdmin,
  primeAccessSubject,
  type SubjectGroupRow,
  structureFrom,
  subjectFrom,
  subjectGroupsSql,
} from '../access/access.service.js';
import { accessCacheOf } from '../access/access-cache.js';
import { fieldsOf } from '../field/field.service.js';
import { getFilter } from '../filter/filter.service.js';
import { type FilterCriteria, FilterCriteriaSchema } from '../filter/filter-criteria.js';
import { criteriaSql, unknownStates } from '../filter/filter-sql.js';
import { isoLanguage, normalLanguageCode } from '../language/iso-codes.js';
import type { SearchSettingValues } from '../search-settings/search-settings.schema.js';
import { settingValuesFrom, storedSettingsSql } from '../search-settings/search-settings.service.js';
import { checkLanguageCodes } from '../stemming/language-codes.js';
import { enabledWorkflowsSql, type GoverningWorkflow } from '../workflow/workflow-effects.js';
import type { TermSearchInput } from './search.schema.js';
import { FUZZY_MAX_LENGTH, type SearchPlan, type TextMatch } from './search-plan.js';
import { stateSourcesOf, workflowScopeOf } from './search-workflow.js';

/** A filter's criteria and the dictionary it is bound to (null: any dictionary). */
interface Restriction {
  dictionaryId: number | null;
  criteria: FilterCriteria;
}

/**
 * What a search needs to know about the caller in its dictionaries, loaded once per request: the
 * dictionaries and live sections (with their schemes), the readable ones, and the caller's groups.
 */
export interface SearchAccess {
  dictionaryIds: number[];
  access: ReturnType<typeof accessIn>;
  subject: AccessSubject;
  /** Readable live sections; every dictionary has at least one (otherwise 404, like an unknown one). */
  readable: { id: number; oid: string | null; dictionaryId: number }[];
  /** The enabled workflows of the dictionaries (docs/workflows.md), read in the same statement. */
  workflows: GoverningWorkflow[];
}

/** A request's texts as the database lowers, folds and splits them. */
interface TextKeys {
  lower: string;
  folded: string;
  words: string[];
  /** The text's stem key under each dictionary's settings, in the order of the request's ids. */
  stems: string[];
}

/** What the context statement reads about the caller and the dictionaries (cached per session). */
interface AccessRow {
  settings: Partial<SearchSettingValues> | null;
  groups: SubjectGroupRow[];
  dictionaries: DictionaryRow[];
  workflows: GoverningWorkflow[];
  code: string | null;
}

type ContextRow = AccessRow & Partial<TextKeys>;

/** Texts longer than this are not kept in the access cache. */
const MAX_CACHED_TEXT = 200;

/** The context statement: everything loadSearchContext reads, in one round trip. */
function contextSql(
  actor: Scope['actor'],
  requestedIds: number[],
  iso: boolean,
  wanted: string,
  name: string,
) {
  const settings = storedSettingsSql(actor);
  return selectEach({
    settings: { text: `(${settings.text})`, params: settings.params },
    groups: jsonRows(subjectGroupsSql(actor)),
    dictionaries: jsonRows(dictionaryRowsSql(requestedIds, actor.clientId)),
    workflows: jsonRows(enabledWorkflowsSql(requestedIds)),
    code: {
      text: `(select code from languages where dictionary_id = any(?::int[]) and not deleted and (custom or ?)
                and ? in (lower(code), lower(coalesce(code2, '')), lower(coalesce(code3, ''))) limit 1)`,
      params: [requestedIds, iso, wanted],
    },
    ...(name
      ? {
          lower: { text: 'polyterm_lower(?)', params: [name] },
          folded: { text: 'polyterm_fold(?)', params: [name] },
          words: { text: 'polyterm_words(?)', params: [name] },
          stems: {
            text: '(select array_agg(polyterm_stem_key(d, ?, ?) order by o) from unnest(?::int[]) with ordinality u(d, o))',
            params: [wanted, name, requestedIds],
          },
        }
      : {}),
  });
}

/** Everything a search reads before its engine runs. */
export interface SearchContext {
  settings: SearchSettingValues;
  searchAccess: SearchAccess;
  /** The language code as the dictionaries hold it. */
  languageCode: string;
  /** null when nothing is searched for (no name, or a list opened at a term). */
  keys: TextKeys | null;
}

/**
 * The caller's search settings, groups, dictionaries with sections and schemes, the language code
 * and the keys of the searched text, in one statement: round trips, not the queries, are what a search
 * costs on a small machine. `langCode` is an ISO 639 code, two or three letters in any case (the contract
 * spells eng), or the code of a custom language of the dictionaries (which may be any code); anything
 * else is 400.
 */
export async function loadSearchContext(
  scope: Scope,
  input: TermSearchInput,
  options: { skipUnreadable?: boolean } = {},
): Promise<SearchContext> {
  const { actor } = scope;
  const requestedIds = [...new Set(input.dictionaryIds)];
  // Two- and three-letter ISO codes alike (en, eng, ger): the dictionaries hold the 639-2/T code.
  const iso = isoLanguage(input.langCode) !== undefined;
  const wanted = normalLanguageCode(input.langCode).toLowerCase();
  // A list opened at a term is browsed, not searched.
  const name = input.termOid ? '' : (input.name ?? '').trim();
  const cache = accessCacheOf(scope.em);
  const contexts = cache?.region<AccessRow>('search-contexts');
  const texts = cache?.region<TextKeys>('search-text-keys');
  const ids = requestedIds.join(',');
  const accessKey = `${actor.sessionId}|${actor.userId}|${actor.clientId}|${ids}|${iso}|${wanted}`;
  const textKey = `${wanted}|${ids}|${name}`;
  let stored = contexts?.get(accessKey);
  let keys = name ? texts?.get(textKey) : undefined;
  if (!stored || (name && !keys)) {
    const epochs = { access: contexts?.begin(), text: texts?.begin() };
    const [row] = await boundRows<ContextRow>(scope.em, contextSql(actor, requestedIds, iso, wanted, name), {
      prepared: true,
    });
    const { lower, folded, words, stems, ...rest } = row!;
    stored = rest;
    if (epochs.access !== undefined) contexts!.set(accessKey, stored, epochs.access);
    if (name) {
      keys = { lower: lower ?? '', folded: folded ?? '', words: words ?? [], stems: stems ?? [] };
      // Long texts are rare and would crowd out the rest.
      if (epochs.text !== undefined && name.length <= MAX_CACHED_TEXT) texts!.set(textKey, keys, epochs.text);
    }
  }
  const row = stored;
  const subject = subjectFrom(actor, row!.groups);
  primeAccessSubject(scope, subject);
  const access = accessIn(actor, subject, requestedIds, structureFrom(requestedIds, row!.dictionaries));
  const readable = access.sections
    .filter((section) => access.readableSections.has(section.id))
    .map((section) => ({ id: section.id, oid: section.oid, dictionaryId: section.dictionaryId }));
  const hasReadableSection = (id: number) => readable.some((section) => section.dictionaryId === id);
  // Skipping (dictionaries not named by the caller): one without a readable section holds nothing to find.
  const dictionaryIds = options.skipUnreadable ? requestedIds.filter(hasReadableSection) : requestedIds;
  for (const id of dictionaryIds) {
    if (!hasReadableSection(id)) throw notFound('Dictionary', id);
  }
  if (!iso && row!.code === null) {
    throw new AppError(
      'BAD_REQUEST',
      'langCode must be an ISO 639 language code (eng or en) or the code of a custom language of these dictionaries',
    );
  }
  return {
    settings: settingValuesFrom(scope.config, row!.settings),
    searchAccess: { dictionaryIds, access, subject, readable, workflows: row!.workflows },
    languageCode: (row!.code ?? wanted).toLowerCase(),
    keys:
      name && keys
        ? { ...keys, stems: keys.stems.filter((_, index) => dictionaryIds.includes(requestedIds[index]!)) }
        : null,
  };
}

function chosenSectionIds(
  searchAccess: SearchAccess,
  requested: readonly string[],
  preferred: readonly string[],
): number[] {
  const readable = searchAccess.readable;
  if (requested.length) {
    const all = searchAccess.access.sections;
    const unknown = requested.filter((oid) => !all.some((s) => s.oid === oid));
    if (unknown.length) {
      throw new AppError(
        'BAD_REQUEST',
        `sectionOids: no section ${unknown.join(', ')} in these dictionaries`,
      );
    }
    // Unreadable sections are left out silently, as if they held nothing.
    return readable.filter((s) => s.oid !== null && requested.includes(s.oid)).map((s) => s.id);
  }
  // The search settings' sections, where they belong to these dictionaries; otherwise all readable.
  const preferredHere = readable.filter((s) => s.oid !== null && preferred.includes(s.oid));
  return (preferredHere.length ? preferredHere : readable).map((s) => s.id);
}

async function domainIdsOf(scope: Scope, dictionaryIds: number[], oids: readonly string[] | undefined) {
  if (!oids?.length) return null;
  const domains = await scope.em.execute<{ id: number; oid: string | null; parent_id: number | null }[]>(
    'select id, oid, parent_id from domains where dictionary_id in (?) and not deleted',
    [dictionaryIds],
  );
  const unknown = oids.filter((oid) => !domains.some((d) => d.oid === oid));
  if (unknown.length) throw new AppError('BAD_REQUEST', `domainOids: no domain ${unknown.join(', ')}`);
  const chosen = new Set(domains.filter((d) => d.oid !== null && oids.includes(d.oid)).map((d) => d.id));
  // Subdomains belong to their parents' selection.
  for (let grown = true; grown; ) {
    grown = false;
    for (const domain of domains) {
      if (domain.parent_id !== null && chosen.has(domain.parent_id) && !chosen.has(domain.id)) {
        chosen.add(domain.id);
        grown = true;
      }
    }
  }
  return [...chosen];
}

/** The requested filter, the quick filter, and the filters the caller's groups impose. */
async function restrictionsOf(
  scope: Scope,
  searchAccess: SearchAccess,
  input: TermSearchInput,
): Promise<Restriction[][]> {
  // Each inner list is one requirement; its members are alternatives (OR).
  const required: Restriction[][] = [];
  if (input.filterId != null) {
    const filter: { id: number; dictionaryId?: number | null; criteria?: FilterCriteria } = await getFilter(
      scope,
      input.filterId,
      'FULL',
      false,
    );
    if (filter.criteria)
      required.push([{ dictionaryId: filter.dictionaryId ?? null, criteria: filter.criteria }]);
  }
  if (input.quickFilter) {
    const parsed = FilterCriteriaSchema.safeParse(input.quickFilter);
    if (!parsed.success) throw new AppError('BAD_REQUEST', `quickFilter: ${parsed.error.issues[0]?.message}`);
    // As `workflowStates`: a key no enabled workflow of the searched dictionaries has is 400.
    const workflows = searchAccess.workflows.filter((w) =>
      searchAccess.dictionaryIds.includes(w.dictionaryId),
    );
    const unknown = unknownStates(parsed.data.workflowStates, workflows);
    if (unknown.length) {
      throw new AppError(
        'BAD_REQUEST',
        `quickFilter.workflowStates: no state ${unknown.join(', ')} in the enabled workflows of these dictionaries`,
      );
    }
    // As a term search's langCode: ISO 639 (read as the three-letter code) or a custom language of the
    // searched dictionaries, else 400 rather than nothing found.
    await checkLanguageCodes(
      scope,
      'quickFilter.languages',
      parsed.data.languages.map((selector) => selector.split(';')[0]!),
      searchAccess.dictionaryIds,
    );
    required.push([{ dictionaryId: null, criteria: parsed.data }]);
  }
  // Group filters (filterMap) bind members, not the dictionaries' administrators.
  const bound = searchAccess.access.dictionaries
    .filter((d) => !isDictionaryAdmin(scope.actor, d))
    .map((d) => d.id);
  if (bound.length) {
    const groups = searchAccess.subject.groups;
    for (const dictionaryId of bound) {
      const filterIds = [
        ...new Set(
          groups.flatMap((g) =>
            g.filterMap[String(dictionaryId)] ? [g.filterMap[String(dictionaryId)]!] : [],
          ),
        ),
      ];
      if (filterIds.length === 0) continue;
      const rows = await scope.em.execute<{ criteria: FilterCriteria }[]>(
        'select criteria from filters where id in (?) and client_id = ? and not deleted',
        [filterIds, scope.actor.clientId],
      );
      // Several groups' filters widen each other: a term passes when one of them selects it.
      required.push(
        rows.map((row) => ({ dictionaryId, criteria: FilterCriteriaSchema.parse(row.criteria ?? {}) })),
      );
    }
  }
  return required;
}

/** Restrictions as one SQL condition; a filter bound to one dictionary leaves the others alone. */
async function restrictionSql(scope: Scope, dictionaryIds: number[], required: Restriction[][]) {
  if (required.length === 0) return null;
  const parts: Sql[] = [];
  for (const alternatives of required) {
    const options: Sql[] = [];
    for (const dictionaryId of dictionaryIds) {
      const applying = alternatives.filter((r) => r.dictionaryId === null || r.dictionaryId === dictionaryId);
      if (applying.length === 0) {
        // The requirement is about other dictionaries: this one's terms pass it.
        options.push({ text: 't.dictionary_id = ?', params: [dictionaryId] });
        continue;
      }
      for (const restriction of applying) {
        const conceptWhere: Sql[] = [];
        const termWhere: Sql[] = [];
        await criteriaSql(scope.em, dictionaryId, restriction.criteria, conceptWhere, termWhere);
        const all = [{ text: 't.dictionary_id = ?', params: [dictionaryId] }, ...conceptWhere, ...termWhere];
        options.push({
          text: all.map((c) => `(${c.text})`).join(' and '),
          params: all.flatMap((c) => c.params),
        });
      }
    }
    parts.push({
      text: options.length ? options.map((o) => `(${o.text})`).join(' or ') : 'false',
      params: options.flatMap((o) => o.params),
    });
  }
  return { text: parts.map((p) => `(${p.text})`).join(' and '), params: parts.flatMap((p) => p.params) };
}

async function fieldOidsOf(scope: Scope, dictionaryIds: number[], input: TermSearchInput) {
  const options = input.searchOptions ?? {};
  const requested = (options.fields ?? []).map((field) => (typeof field === 'string' ? field : field.oid));
  if (!requested.length) return null;
  const { fields } = await fieldsOf(scope.em, dictionaryIds);
  const unknown = requested.filter((oid) => !fields.some((field) => field.oid === oid));
  if (unknown.length)
    throw new AppError('BAD_REQUEST', `searchOptions.fields: no field ${unknown.join(', ')}`);
  return requested;
}

async function textMatchOf(
  scope: Scope,
  dictionaryIds: number[],
  input: TermSearchInput,
  settings: SearchSettingValues,
  keys: TextKeys | null,
): Promise<TextMatch | null> {
  if (!keys) return null;
  const options = input.searchOptions ?? {};
  const normalized = options.normalized ?? settings.normalized;
  const fuzzy = options.fuzzy ?? settings.fuzzy;
  const distance = options.fuzziness ?? settings.fuzziness;
  const multiAll = options.multiAllFields ?? settings.multiAllFields;
  const multi = multiAll || options.multiEnabled === true;
  const foldedLength = [...keys.folded].length;
  return {
    name: {
      mode: options.mode ?? settings.searchMode,
      on: normalized ? 'folded' : 'lower',
      text: normalized ? keys.folded : keys.lower,
    },
    // A text folding to nothing (a lone combining mark) has no fuzzy part.
    fuzzy:
      fuzzy && distance > 0 && foldedLength > 0 && foldedLength <= FUZZY_MAX_LENGTH
        ? { text: keys.folded, distance }
        : null,
    stems: options.stemmed
      ? dictionaryIds.flatMap((dictionaryId, index) => {
          const key = keys.stems[index] ?? '';
          return key ? [{ dictionaryId, key }] : [];
        })
      : null,
    values: multi
      ? { words: keys.words, fieldOids: multiAll ? null : await fieldOidsOf(scope, dictionaryIds, input) }
      : null,
  };
}

/** The plan of a request, or null when no section is left to search (no results, no error). */
export async function planSearch(
  scope: Scope,
  context: SearchContext,
  input: TermSearchInput,
): Promise<SearchPlan | null> {
  const { searchAccess, settings } = context;
  const dictionaryIds = searchAccess.dictionaryIds;
  const sectionIds = chosenSectionIds(searchAccess, input.sectionOids, settings.sectionOids);
  const domainIds = await domainIdsOf(scope, dictionaryIds, input.domainOids);
  const restriction = await restrictionSql(
    scope,
    dictionaryIds,
    await restrictionsOf(scope, searchAccess, input),
  );
  if (sectionIds.length === 0) return null;
  return {
    clientId: scope.actor.clientId,
    dictionaryIds,
    sectionIds,
    domainIds,
    languageCode: context.languageCode,
    regionCode: input.regionCode?.trim() ? input.regionCode.trim().toLowerCase() : null,
    scriptCode: input.scriptCode?.trim() ? input.scriptCode.trim().toLowerCase() : null,
    text: await textMatchOf(scope, dictionaryIds, input, settings, context.keys),
    restriction,
    // Workflow states are part of the search (docs/workflows.md): none without an enabled workflow.
    workflow: workflowScopeOf(
      scope.actor,
      searchAccess.subject.groupIds,
      dictionaryIds,
      searchAccess.workflows,
      input.workflowStates,
    ),
    // The hits carry their states, so the list's style needs no statement of its own.
    stateSources: stateSourcesOf(dictionaryIds, searchAccess.workflows),
  };
}
