import { trpc } from '../../../api';
import { forgetCachedData } from '../../../data';

export type FullDictionary = Awaited<ReturnType<typeof trpc.dictionaries.get.query>>;
type UpdateInput = Parameters<typeof trpc.dictionaries.update.mutate>[0];
export type LanguageInput = NonNullable<UpdateInput['languages']>[number];
export type FieldInput = NonNullable<UpdateInput['conceptFields']>[number];
export type FieldDto = NonNullable<FullDictionary['conceptFields']>[number];
export type LanguageDto = NonNullable<FullDictionary['languages']>[number];

export function loadDictionary(id: number): Promise<FullDictionary> {
  return trpc.dictionaries.get.query({ id, format: 'FULL', 'include-deleted': false });
}

export function languageInputOf(language: LanguageDto): LanguageInput {
  return {
    id: language.id,
    code: language.code,
    name: language.name,
    custom: language.custom,
    rtl: language.rtl,
    sortIndex: language.sortIndex,
    variants: language.variants
      .filter((variant) => !variant.deleted)
      .map((variant) => ({
        id: variant.id,
        name: variant.name,
        type: variant.type,
        code: variant.code,
        sortIndex: variant.sortIndex,
      })),
  };
}

export function fieldInputOf(field: FieldDto): FieldInput {
  const { model } = field;
  return {
    id: field.id,
    name: field.name,
    specifiedName: field.specifiedName,
    dataCategory: field.dataCategory,
    fieldType: field.fieldType,
    sortIndex: field.sortIndex,
    model: {
      required: model.required,
      minLen: model.minLen,
      maxLen: model.maxLen,
      regExp: model.regExp,
      number: model.number,
      unicode: model.unicode,
      picklistItems: model.picklistItems.map((item) => ({
        id: item.id,
        name: item.name,
        tbxName: item.tbxName,
        sortIndex: item.sortIndex,
      })),
    },
  };
}

/** The structure as it is, in the shape an update takes (an update replaces all of it). */
export interface Structure {
  name: string;
  description: string | null;
  languages: LanguageInput[];
  conceptFields: FieldInput[];
  termFields: FieldInput[];
}

export function structureOf(dictionary: FullDictionary): Structure {
  const live = <T extends { deleted: boolean }>(list: T[] | undefined) =>
    (list ?? []).filter((x) => !x.deleted);
  return {
    name: dictionary.name ?? '',
    description: dictionary.description ?? null,
    languages: live(dictionary.languages).map(languageInputOf),
    conceptFields: live(dictionary.conceptFields).map(fieldInputOf),
    termFields: live(dictionary.termFields).map(fieldInputOf),
  };
}

/**
 * Writes `structure` over the dictionary at `version` (a stale version answers 409), keeping what the
 * structure pages do not edit (e-mail recipient, order, domain presentation, permission scheme).
 */
export async function saveStructure(
  dictionary: FullDictionary,
  structure: Structure,
  version = dictionary.version,
): Promise<FullDictionary> {
  const saved = await trpc.dictionaries.update.mutate({
    id: dictionary.id,
    version,
    format: 'FULL',
    ...structure,
    emailRecipientId: dictionary.emailRecipientId ?? null,
    sortIndex: dictionary.sortIndex,
    domainPresentation: dictionary.domainPresentation,
    permissionSchemeId: dictionary.permissionSchemeId ?? null,
  });
  // The search screens cache the dictionaries with their languages and fields.
  forgetCachedData();
  return saved;
}
