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

/**
 * Makes a dictionary's languages what the input lists: sent ids (or codes) update, new ones are created,
 * missing ones are deleted (refused while terms use them). Returns whether anything changed.
 */
export async function syncLanguages(
  em: EntityManager,
  dictionary: Dictionary,
  inputs: readonly LanguageInput[],
  actorId: number,
): Promise<void> {
  const { languages, variants } = await languagesOf(em, [dictionary.id]);
  const resolved = inputs.map((input) => ({ input, language: resolveLanguage(input) }));
  const codes = resolved.map((r) => r.language.code.toLowerCase());
  const duplicate = codes.find((code, index) => codes.indexOf(code) !== index);
  if (duplicate) throw new AppError('BAD_REQUEST', `Language "${duplicate}" is listed twice`);

  const kept = new Set<number>();
  for (const [index, { input, language: values }] of resolved.entries()) {
    let language = input.id
      ? languages.find((l) => l.id === input.id)
      : languages.find((l) => l.code.toLowerCase() === values.code.toLowerCase());
    if (input.id && !language)
      throw new AppError('BAD_REQUEST', `Language ${input.id} is not in this dictionary`);
    if (language && language.code.toLowerCase() !== values.code.toLowerCase()) {
      await assertUnused(em, dictionary.id, { languageCode: language.code }, `Language "${language.code}"`);
    }
    if (!language) {
      language = em.create(Language, {
        client: dictionary.client,
        dictionary,
        ...values,
        sortIndex: input.sortIndex ?? index,
        createdById: actorId,
        changedById: actorId,
      });
    } else {
      Object.assign(language, values, { sortIndex: input.sortIndex ?? index, changedById: actorId });
    }
    kept.add(language.id);
    await syncVariants(em, dictionary.id, language, variants, input.variants ?? [], actorId);
  }
  for (const language of languages) {
    if (kept.has(language.id)) continue;
    await assertUnused(em, dictionary.id, { languageCode: language.code }, `Language "${language.code}"`);
    language.deleted = true;
    language.deletedAt = new Date();
    language.deletedById = actorId;
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
  const own = existing.filter((variant) => variant.language.id === language.id);
  const resolved = inputs.map((input) => ({ input, variant: resolveVariant(input) }));
  const keys = resolved.map((r) => `${r.variant.type}:${r.variant.code.toLowerCase()}`);
  const duplicate = keys.find((key, index) => keys.indexOf(key) !== index);
  if (duplicate)
    throw new AppError(
      'BAD_REQUEST',
      `Variant "${duplicate.slice(2)}" of "${language.code}" is listed twice`,
    );
  const kept = new Set<number>();
  for (const [index, { input, variant: values }] of resolved.entries()) {
    let variant = input.id
      ? own.find((v) => v.id === input.id)
      : own.find((v) => v.type === values.type && v.code.toLowerCase() === values.code.toLowerCase());
    if (input.id && !variant) {
      throw new AppError('BAD_REQUEST', `Variant ${input.id} is not a variant of "${language.code}"`);
    }
    if (!variant) {
      variant = em.create(LanguageVariant, {
        language,
        ...values,
        sortIndex: input.sortIndex ?? index,
        createdById: actorId,
        changedById: actorId,
      });
    } else {
      Object.assign(variant, values, { sortIndex: input.sortIndex ?? index, changedById: actorId });
    }
    kept.add(variant.id);
  }
  for (const variant of own) {
    if (kept.has(variant.id)) continue;
    const column = variant.type === 0 ? 'regionCode' : 'scriptCode';
    await assertUnused(
      em,
      dictionaryId,
      { languageCode: language.code, [column]: variant.code },
      `Variant "${variant.code}" of "${language.code}"`,
    );
    variant.deleted = true;
    variant.deletedAt = new Date();
    variant.deletedById = actorId;
  }
}
