/**
 * The dictionary operations that may take long and so run as job tasks: copy, empty, reindex and
 * language replace. Each checks permissions before the job starts (so refusals are plain 403/404) and
 * does its writes in one transaction inside the job.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { lowerOf } from '../../db/sql.js';
import { AppError } from '../../shared/errors.js';
import { newOid } from '../../shared/oid.js';
import { isClientAdmin, type Scope } from '../../shared/scope.js';
import { copyLanguageFields, moveLanguageFields } from '../concept/concept-language-fields.js'; // language-fields
import { Domain } from '../domain/domain.entity.js';
import { Field, PicklistItem, SystemDataCategories } from '../field/field.entity.js';
import { runAsJob } from '../jobs/job-runner.js';
import { searchRuntimeOf } from '../search/search-runtime.js';

export type { AsyncOutcome as JobOutcome } from '../jobs/job-runner.js';

import { copySerialCounters } from '../concept/concept-serials.js';
import { Language, LanguageVariant } from '../language/language.entity.js';
import { allowLongPendingLists, mergeSearchPendingLists } from '../search/postgres-search.js';
import { Section } from '../section/section.entity.js';
import { copyStemmingSettings } from '../stemming/stemming.service.js';
import { View } from '../view/view.entity.js';
import { Dictionary } from './dictionary.entity.js';
import { administrableDictionary, readableDictionary } from './dictionary-access.js';

const NO_TENANT = { tenant: false } as const;
type IdMap = Map<number, number>;
const SYSTEM_ATTRIBUTES: ReadonlySet<string> = new Set(SystemDataCategories);

/** "Copy of X", then "Copy of X (2)"...: the first name no live dictionary of the client uses. */
async function freeName(em: EntityManager, clientId: number, wanted: string): Promise<string> {
  for (let n = 1; ; n++) {
    const name = n === 1 ? wanted : `${wanted} (${n})`;
    const clash = await em.count(
      Dictionary,
      { client: clientId, [lowerOf('name')]: name.toLowerCase() },
      { filters: NO_TENANT },
    );
    if (clash === 0) return name;
  }
}

async function assertCopyNameFree(em: EntityManager, clientId: number, name: string) {
  const clash = await em.count(
    Dictionary,
    { client: clientId, [lowerOf('name')]: name.toLowerCase() },
    { filters: NO_TENANT },
  );
  if (clash) throw new AppError('UNPROCESSABLE', `A dictionary named "${name}" already exists`);
}

/** Copies the structure; returns the id maps the data copy needs. */
async function copyStructure(em: EntityManager, source: Dictionary, name: string, actorId: number) {
  const audit = { createdById: actorId, changedById: actorId };
  const target = em.create(Dictionary, {
    client: source.client,
    oid: newOid(),
    name,
    description: source.description ?? null,
    emailRecipientId: source.emailRecipientId ?? null,
    sortIndex: source.sortIndex,
    domainPresentation: source.domainPresentation,
    permissionScheme: source.permissionScheme ?? null,
    ...audit,
  });
  const languages = await em.find(
    Language,
    { dictionary: source.id },
    { filters: NO_TENANT, orderBy: { id: 'ASC' } },
  );
  const variants = languages.length
    ? await em.find(
        LanguageVariant,
        { language: { $in: languages.map((l) => l.id) } },
        { orderBy: { id: 'ASC' } },
      )
    : [];
  for (const language of languages) {
    const copy = em.create(Language, {
      client: source.client,
      dictionary: target,
      name: language.name,
      code: language.code,
      code2: language.code2 ?? null,
      code3: language.code3 ?? null,
      iso: language.iso,
      custom: language.custom,
      rtl: language.rtl,
      sortIndex: language.sortIndex,
      ...audit,
    });
    for (const variant of variants.filter((v) => v.language.id === language.id)) {
      const { name: variantName, type, code, predefined, sortIndex } = variant;
      em.create(LanguageVariant, {
        language: copy,
        name: variantName,
        type,
        code,
        predefined,
        sortIndex,
        ...audit,
      });
    }
  }
  const fieldOids = new Map<string, string>();
  const fields = await em.find(
    Field,
    { dictionary: source.id },
    { filters: NO_TENANT, orderBy: { id: 'ASC' } },
  );
  const items = fields.length
    ? await em.find(PicklistItem, { field: { $in: fields.map((f) => f.id) } }, { orderBy: { id: 'ASC' } })
    : [];
  for (const field of fields) {
    const oid = newOid();
    fieldOids.set(field.oid ?? String(field.id), oid);
    const { name: fieldName, specifiedName, dataCategory, fieldType, level, sortIndex } = field;
    const { required, minLen, maxLen, regExp, number, unicode } = field;
    const copy = em.create(Field, {
      client: source.client,
      dictionary: target,
      oid,
      name: fieldName,
      specifiedName: specifiedName ?? null,
      dataCategory,
      fieldType,
      level,
      sortIndex,
      required,
      minLen,
      maxLen,
      regExp: regExp ?? null,
      number,
      unicode,
      tbxElement: field.tbxElement ?? null,
      ...audit,
    });
    for (const item of items.filter((i) => i.field.id === field.id)) {
      em.create(PicklistItem, {
        field: copy,
        oid: newOid(),
        name: item.name ?? null,
        tbxName: item.tbxName ?? null,
        sortIndex: item.sortIndex,
      });
    }
  }
  const views = await em.find(
    View,
    { dictionary: source.id },
    { filters: NO_TENANT, orderBy: { id: 'ASC' } },
  );
  const viewCopies = new Map(
    views.map((view) => [
      view.id,
      em.create(View, {
        client: source.client,
        dictionary: target,
        name: view.name,
        // Live fields get their copies' oids; system attributes keep their names; deleted fields drop out.
        fields: view.fields.flatMap((oid) => fieldOids.get(oid) ?? (SYSTEM_ATTRIBUTES.has(oid) ? [oid] : [])),
        ...audit,
      }),
    ]),
  );
  const sections = await em.find(
    Section,
    { dictionary: source.id },
    { filters: NO_TENANT, orderBy: { id: 'ASC' } },
  );
  const sectionCopies = new Map(
    sections.map((section) => [
      section.id,
      em.create(Section, {
        client: source.client,
        dictionary: target,
        oid: newOid(),
        name: section.name,
        sortIndex: section.sortIndex,
        view: section.view ? (viewCopies.get(section.view.id) ?? null) : null,
        permissionScheme: section.permissionScheme ?? null,
        ...audit,
      }),
    ]),
  );
  const domains = await em.find(
    Domain,
    { dictionary: source.id },
    { filters: NO_TENANT, orderBy: { id: 'ASC' } },
  );
  const domainCopies = new Map(
    domains.map((domain) => [
      domain.id,
      em.create(Domain, {
        client: source.client,
        dictionary: target,
        oid: newOid(),
        name: domain.name,
        sortIndex: domain.sortIndex,
        ...audit,
      }),
    ]),
  );
  await em.flush();
  // Parents point at copies, which have ids only now.
  for (const domain of domains) {
    if (domain.parentId)
      domainCopies.get(domain.id)!.parentId = domainCopies.get(domain.parentId)?.id ?? null;
  }
  await em.flush();
  const ids = (copies: Map<number, { id: number }>): IdMap =>
    new Map([...copies].map(([from, to]) => [from, to.id]));
  return { target, fieldOids, sections: ids(sectionCopies), domains: ids(domainCopies) };
}

const pairs = (map: IdMap) => JSON.stringify([...map].map(([from, to]) => ({ from, to })));

/**
 * Copies the live concepts, their domains and their live terms in a few set-based statements; field
 * values are re-keyed to the copied fields' oids.
 */
async function copyData(
  em: EntityManager,
  sourceId: number,
  copy: Awaited<ReturnType<typeof copyStructure>>,
  actorId: number,
) {
  await allowLongPendingLists(em);
  const fieldPairs = JSON.stringify([...copy.fieldOids].map(([from, to]) => ({ from, to })));
  const rekeyed = (column: string) =>
    `(select coalesce(jsonb_object_agg(f."to", e.value), '{}'::jsonb)
        from jsonb_each(${column}) e join jsonb_to_recordset(?::jsonb) as f("from" text, "to" text) on f."from" = e.key)`;
  await em.execute(
    `create temp table concept_copy on commit drop as
       select s.from_id, nextval(pg_get_serial_sequence('concepts', 'id'))::int as to_id
         from (select c.id as from_id from concepts c where c.dictionary_id = ? and not c.deleted order by c.id) s`,
    [sourceId],
  );
  await em.execute(
    `insert into concepts (id, client_id, dictionary_id, section_id, cid, field_map, created_at, created_by_id, changed_at, changed_by_id)
     select m.to_id, c.client_id, ?, s."to", c.cid, ${rekeyed('c.field_map')}, now(), ?, now(), ?
       from concepts c join concept_copy m on m.from_id = c.id
       join jsonb_to_recordset(?::jsonb) as s("from" int, "to" int) on s."from" = c.section_id`,
    [copy.target.id, fieldPairs, actorId, actorId, pairs(copy.sections)],
  );
  await em.execute(
    `insert into concept_domains (concept_id, domain_id)
     select m.to_id, d."to" from concept_domains cd join concept_copy m on m.from_id = cd.concept_id
       join jsonb_to_recordset(?::jsonb) as d("from" int, "to" int) on d."from" = cd.domain_id`,
    [pairs(copy.domains)],
  );
  await em.execute(
    `insert into terms (client_id, dictionary_id, concept_id, name, language_code, region_code, script_code, tid, field_map, created_at, created_by_id, changed_at, changed_by_id)
     select t.client_id, ?, m.to_id, t.name, t.language_code, t.region_code, t.script_code, t.tid, ${rekeyed('t.field_map')}, now(), ?, now(), ?
       from terms t join concept_copy m on m.from_id = t.concept_id where not t.deleted`,
    [copy.target.id, fieldPairs, actorId, actorId],
  );
  await copyLanguageFields(em, copy.target.id, rekeyed('l.field_map'), fieldPairs); // language-fields
  await em.execute(
    `insert into concept_relations (client_id, dictionary_id, source_concept_id, target_concept_id, type, attribute, text, relation_id, created_at, created_by_id)
     select r.client_id, ?, s.to_id, t.to_id, r.type, r.attribute, r.text, r.relation_id, now(), ?
       from concept_relations r join concept_copy s on s.from_id = r.source_concept_id
       join concept_copy t on t.from_id = r.target_concept_id`,
    [copy.target.id, actorId],
  );
  // The copies keep their cid, tid and relationId, so the new dictionary continues the source's counters.
  await copySerialCounters(em, sourceId, copy.target.id);
  await mergeSearchPendingLists(em);
}

/**
 * Copies a dictionary (administrators): its structure, and with copyData its concepts and terms.
 * The result is the new dictionary's id.
 */
export async function copyDictionary(scope: Scope, id: number, name: string | undefined, withData: boolean) {
  const source = await readableDictionary(scope, id);
  if (!isClientAdmin(scope.actor)) throw new AppError('FORBIDDEN', 'Only administrators copy dictionaries');
  // Checked before the job starts so a clash is a plain 422; the job checks again (a name may be taken meanwhile).
  if (name?.trim()) await assertCopyNameFree(scope.em, source.client.id, name.trim());
  return runAsJob(scope, 'dictionaries.copy', (em) =>
    em.transactional(async (tem) => {
      const from = await tem.findOneOrFail(Dictionary, { id: source.id }, { filters: NO_TENANT });
      const wanted = name?.trim() || `Copy of ${from.name}`;
      if (name?.trim()) {
        const clash = await tem.count(
          Dictionary,
          { client: from.client.id, [lowerOf('name')]: wanted.toLowerCase() },
          { filters: NO_TENANT },
        );
        if (clash) throw new AppError('UNPROCESSABLE', `A dictionary named "${wanted}" already exists`);
      }
      const copy = await copyStructure(
        tem,
        from,
        await freeName(tem, from.client.id, wanted),
        scope.actor.userId,
      );
      // Settings first: the copied terms' stem keys are computed on insert under them.
      await copyStemmingSettings(tem, from.id, copy.target.id, scope.actor.userId);
      if (withData) await copyData(tem, from.id, copy, scope.actor.userId);
      return copy.target.id;
    }),
  );
}

/** Erases every concept and term of a dictionary (hard delete, no history); the structure stays. */
export async function emptyDictionary(scope: Scope, id: number) {
  const dictionary = await administrableDictionary(scope, id, { permission: 'DICT_DELETE' });
  return runAsJob(scope, 'dictionaries.empty', (em) =>
    em.transactional(async (tem) => {
      await tem.execute('delete from concepts where dictionary_id = ?', [dictionary.id]);
      return true;
    }),
  );
}

export interface LanguageSelector {
  language: string;
  region: string | null;
  script: string | null;
}

/** `<lang_var>[;[region];[script]]`, e.g. `eng`, `eng;US`, `jpn;;hira`. */
export function parseLanguageSelector(text: string, what: string): LanguageSelector {
  const parts = text.split(';').map((part) => part.trim());
  if (parts.length > 3 || !parts[0]) {
    throw new AppError('BAD_REQUEST', `${what} must be <language>[;[region];[script]], e.g. eng;US`);
  }
  return { language: parts[0], region: parts[1] || null, script: parts[2] || null };
}

/** The selector as the dictionary defines it (codes in their stored spelling), or 400. */
async function resolveSelector(
  em: EntityManager,
  dictionaryId: number,
  selector: LanguageSelector,
  what: string,
) {
  const language = await em.findOne(
    Language,
    { dictionary: dictionaryId, [lowerOf('code')]: selector.language.toLowerCase() },
    { filters: NO_TENANT },
  );
  if (!language)
    throw new AppError('BAD_REQUEST', `${what}: "${selector.language}" is not a language of the dictionary`);
  const variant = async (type: 0 | 1, code: string | null) => {
    if (!code) return null;
    const found = await em.findOne(LanguageVariant, {
      language: language.id,
      type,
      [lowerOf('code')]: code.toLowerCase(),
    });
    if (!found) {
      throw new AppError(
        'BAD_REQUEST',
        `${what}: "${code}" is not a ${type === 0 ? 'region' : 'script'} of "${language.code}"`,
      );
    }
    return found.code;
  };
  return {
    language: language.code,
    region: await variant(0, selector.region),
    script: await variant(1, selector.script),
  };
}

/**
 * Moves the terms of one language variant to another (exact match: `eng` moves the terms without region
 * and script). The result is the number of moved terms.
 */
export async function replaceLanguage(scope: Scope, dictionaryId: number, fromText: string, toText: string) {
  const dictionary = await administrableDictionary(scope, dictionaryId);
  const from = await resolveSelector(
    scope.em,
    dictionary.id,
    parseLanguageSelector(fromText, 'from-id'),
    'from-id',
  );
  const to = await resolveSelector(scope.em, dictionary.id, parseLanguageSelector(toText, 'to-id'), 'to-id');
  return runAsJob(scope, 'dictionaries.language-replace', (em) =>
    em.transactional(async (tem) => {
      const [row] = await tem.execute<{ moved: number }[]>(
        `with moved as (update terms set language_code = ?, region_code = ?, script_code = ?, changed_at = now(), changed_by_id = ?, version = version + 1
          where dictionary_id = ? and not deleted and language_code = ?
            and region_code is not distinct from ? and script_code is not distinct from ?
          returning 1)
         select count(*)::int as moved from moved`,
        [
          to.language,
          to.region,
          to.script,
          scope.actor.userId,
          dictionary.id,
          from.language,
          from.region,
          from.script,
        ],
      );
      await moveLanguageFields(tem, dictionary.id, from, to); // language-fields
      return row?.moved ?? 0;
    }),
  );
}

/**
 * Rebuilds the dictionary's search documents from PostgreSQL with the bulk API (docs/search.md). On the
 * PostgreSQL engine search reads the tables themselves, so there is nothing to rebuild.
 */
export async function reindexDictionary(scope: Scope, id: number) {
  const dictionary = await administrableDictionary(scope, id);
  return runAsJob(scope, 'dictionaries.reindex', async (em, progress) => {
    const terms = await em.execute<{ n: number }[]>(
      'select count(*)::int as n from terms where dictionary_id = ? and not deleted',
      [dictionary.id],
    );
    const total = terms[0]?.n ?? 0;
    await progress(0, total);
    let reported = Promise.resolve();
    await searchRuntimeOf(em).rebuildDictionary(em.fork(), dictionary.id, (done) => {
      reported = reported.then(() => progress(done, total));
    });
    await reported;
    await progress(total, total);
    return true;
  });
}
