import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../shared/errors.js';
import { Term } from '../concept/concept.entity.js';
import type { Dictionary } from '../dictionary/dictionary.entity.js';
import { isoLanguage, isoRegionName, isoScriptName, isRealCode, isRightToLeft } from './iso-codes.js';
import { Language, LanguageVariant } from './language.entity.js';
import type { LanguageDto, LanguageInput, LanguageVariantInput } from './language.schema.js';

const NO_TENANT = { tenant: false } as const;

/** The live languages (with live variants) of some dictionaries, in sort order. */
export async function languagesOf(em: EntityManager, dictionaryIds: readonly number[]) {
  if (dictionaryIds.length === 0) return { languages: [] as Language[], variants: [] as LanguageVariant[] };
  const languages = await em.find(
    Language,
    { dictionary: { $in: [...dictionaryIds] } },
    { orderBy: { sortIndex: 'ASC', id: 'ASC' }, filters: NO_TENANT },
  );
  const variants = languages.length
    ? await em.find(
        LanguageVariant,
        { language: { $in: languages.map((l) => l.id) } },
        { orderBy: { sortIndex: 'ASC', id: 'ASC' } },
      )
    : [];
  return { languages, variants };
}

export function languageDto(language: Language, variants: readonly LanguageVariant[]): LanguageDto {
  const own = variants.filter((variant) => variant.language.id === language.id);
  return {
    id: language.id,
    oid: language.oid ?? null,
    deleted: language.deleted,
    name: language.name,
    dictionaryId: language.dictionary.id,
    clientId: language.client.id,
    code: language.code,
    code2: language.code2 ?? null,
    code3: language.code3 ?? null,
    isIso: language.iso,
    iso: language.iso,
    custom: language.custom,
    idStr: [language.id, ...own.map((variant) => variant.id)].join('-'),
    rtl: language.rtl,
    sortIndex: language.sortIndex,
    variants: own.map((variant) => ({
      id: variant.id,
      oid: variant.oid ?? null,
      deleted: variant.deleted,
      name: variant.name,
      type: variant.type,
      variantType: variant.type,
      code: variant.code,
      variantCode: variant.code,
      predefined: variant.predefined,
      languageId: language.id,
      sortIndex: variant.sortIndex,
    })),
  };
}

interface ResolvedLanguage {
  code: string;
  code2: string | null;
  code3: string | null;
  iso: boolean;
  custom: boolean;
  name: string;
  rtl: boolean;
}

/** ISO codes map to their 639-2/T form; a custom language must be marked so and use no real code. */
function resolveLanguage(input: LanguageInput): ResolvedLanguage {
  if (input.custom) {
    if (isRealCode(input.code)) {
      throw new AppError(
        'BAD_REQUEST',
        `"${input.code}" is a real language, region or script code; a custom language needs another code`,
      );
    }
    if (!input.name) throw new AppError('BAD_REQUEST', `Custom language "${input.code}" needs a name`);
    return {
      code: input.code,
      code2: null,
      code3: null,
      iso: false,
      custom: true,
      name: input.name,
      rtl: input.rtl ?? false,
    };
  }
  const iso = isoLanguage(input.code);
  if (!iso) {
    throw new AppError(
      'BAD_REQUEST',
      `"${input.code}" is not an ISO 639-2 or 639-1 language code; send custom: true for a custom language`,
    );
  }
  return {
    code: iso.code3,
    code2: iso.code2,
    code3: iso.code3,
    iso: true,
    custom: false,
    name: input.name || iso.name,
    rtl: input.rtl ?? isRightToLeft(iso.code3),
  };
}

function resolveVariant(input: LanguageVariantInput) {
  const type = (input.type ?? input.variantType) as 0 | 1;
  const rawCode = (input.code ?? input.variantCode) as string;
  const isoName = type === 0 ? isoRegionName(rawCode) : isoScriptName(rawCode);
  // Regions are upper case (US), scripts lower case (hira), as the spec's examples write them.
  const code = isoName ? (type === 0 ? rawCode.toUpperCase() : rawCode.toLowerCase()) : rawCode;
  const name = input.name || isoName;
  if (!name) throw new AppError('BAD_REQUEST', `Custom variant "${rawCode}" needs a name`);
  return { type, code, name, predefined: isoName !== undefined };
}

/** Terms that use a language (or one of its variants) block its removal: move them first. */
async function assertUnused(
  em: EntityManager,
  dictionaryId: number,
  where: Record<string, unknown>,
  what: string,
) {
  const used = await em.count(Term, { dictionary: dictionaryId, ...where }, { filters: { tenant: false } });
  if (used > 0) {
    throw new AppError(
      'BAD_REQUEST',
      `${what} is used by ${used} terms; move them with language-replace before removing it`,
    );
  }
}

/** Each id may be sent once: two entries claiming one row would silently lose one of them. */
function assertIdsOnce(ids: readonly (number | undefined)[], what: string) {
  const sent = ids.filter((id): id is number => id !== undefined);
  const twice = sent.find((id, index) => sent.indexOf(id) !== index);
  if (twice !== undefined) throw new AppError('BAD_REQUEST', `${what} ${twice} is listed twice`);
}

/**
 * Pairs each input with the row it updates: by id first, then an unclaimed row with the same key.
 * Unpaired inputs are new rows; unclaimed rows are the ones to remove.
 */
function claim<R extends { id: number }, I extends { id?: number }>(
  rows: readonly R[],
  inputs: readonly I[],
  sameKey: (row: R, input: I) => boolean,
  missing: (input: I) => AppError,
) {
  const claimed = new Map<I, R>();
  const taken = new Set<number>();
  for (const input of inputs) {
    if (input.id === undefined) continue;
    const row = rows.find((r) => r.id === input.id);
    if (!row) throw missing(input);
    claimed.set(input, row);
    taken.add(row.id);
  }
  for (const input of inputs) {
    if (input.id !== undefined) continue;
    const row = rows.find((r) => !taken.has(r.id) && sameKey(r, input));
    if (row) {
      claimed.set(input, row);
      taken.add(row.id);
    }
  }
  return { claimed, unclaimed: rows.filter((row) => !taken.has(row.id)) };
}

/** Rows whose unique code changes get a placeholder first, so swaps and renames never collide mid-flush. */
const PLACEHOLDER = (id: number) => `~${id}`;

function markRemoved(
  row: { deleted: boolean; deletedAt?: Date | null; deletedById?: number | null },
  actorId: number,
) {
  row.deleted = true;
  row.deletedAt = new Date();
  row.deletedById = actorId;
}

/**
 * Makes a dictionary's languages what the input lists: sent ids (or codes) update, new ones are created,
 * missing ones are deleted. Languages and variants that terms use can be neither removed nor recoded.
 */
export async function syncLanguages(
  em: EntityManager,
  dictionary: Dictionary,
  inputs: readonly LanguageInput[],
  actorId: number,
): Promise<void> {
  assertIdsOnce(
    inputs.map((input) => input.id),
    'Language',
  );
  const { languages, variants } = await languagesOf(em, [dictionary.id]);
  const resolved = new Map(inputs.map((input) => [input, resolveLanguage(input)]));
  const codes = [...resolved.values()].map((language) => language.code.toLowerCase());
  const duplicate = codes.find((code, index) => codes.indexOf(code) !== index);
  if (duplicate) throw new AppError('BAD_REQUEST', `Language "${duplicate}" is listed twice`);

  const { claimed, unclaimed } = claim(
    languages,
    inputs,
    (row, input) => row.code.toLowerCase() === resolved.get(input)!.code.toLowerCase(),
    (input) => new AppError('BAD_REQUEST', `Language ${input.id} is not in this dictionary`),
  );
  for (const language of unclaimed) {
    await assertUnused(em, dictionary.id, { languageCode: language.code }, `Language "${language.code}"`);
    markRemoved(language, actorId);
  }
  for (const [input, language] of claimed) {
    if (language.code.toLowerCase() === resolved.get(input)!.code.toLowerCase()) continue;
    await assertUnused(em, dictionary.id, { languageCode: language.code }, `Language "${language.code}"`);
    language.code = PLACEHOLDER(language.id);
  }
  await em.flush();

  for (const [index, input] of inputs.entries()) {
    const values = { ...resolved.get(input)!, sortIndex: input.sortIndex ?? index, changedById: actorId };
    let language = claimed.get(input);
    if (language) Object.assign(language, values);
    else {
      language = em.create(Language, {
        client: dictionary.client,
        dictionary,
        ...values,
        createdById: actorId,
      });
    }
    await syncVariants(em, dictionary.id, language, variants, input.variants ?? [], actorId);
  }
}

async function syncVariants(
  em: EntityManager,
  dictionaryId: number,
  language: Language,
  existing: readonly LanguageVariant[],
  inputs: readonly LanguageVariantInput[],
  actorId: number,
) {
  assertIdsOnce(
    inputs.map((input) => input.id),
    'Variant',
  );
  const own = existing.filter((variant) => variant.language.id === language.id);
  const resolved = new Map(inputs.map((input) => [input, resolveVariant(input)]));
  const keys = [...resolved.values()].map((v) => `${v.type}:${v.code.toLowerCase()}`);
  const duplicate = keys.find((key, index) => keys.indexOf(key) !== index);
  if (duplicate) {
    throw new AppError(
      'BAD_REQUEST',
      `Variant "${duplicate.slice(2)}" of "${language.code}" is listed twice`,
    );
  }
  const { claimed, unclaimed } = claim(
    own,
    inputs,
    (row, input) => {
      const values = resolved.get(input)!;
      return row.type === values.type && row.code.toLowerCase() === values.code.toLowerCase();
    },
    (input) => new AppError('BAD_REQUEST', `Variant ${input.id} is not a variant of "${language.code}"`),
  );
  const assertVariantUnused = (variant: LanguageVariant) =>
    assertUnused(
      em,
      dictionaryId,
      { languageCode: language.code, [variant.type === 0 ? 'regionCode' : 'scriptCode']: variant.code },
      `Variant "${variant.code}" of "${language.code}"`,
    );
  for (const variant of unclaimed) {
    await assertVariantUnused(variant);
    markRemoved(variant, actorId);
  }
  for (const [input, variant] of claimed) {
    const values = resolved.get(input)!;
    if (variant.type === values.type && variant.code.toLowerCase() === values.code.toLowerCase()) continue;
    await assertVariantUnused(variant);
    variant.code = PLACEHOLDER(variant.id);
  }
  await em.flush();
  for (const [index, input] of inputs.entries()) {
    const values = { ...resolved.get(input)!, sortIndex: input.sortIndex ?? index, changedById: actorId };
    const variant = claimed.get(input);
    if (variant) Object.assign(variant, values);
    else em.create(LanguageVariant, { language, ...values, createdById: actorId });
  }
}
