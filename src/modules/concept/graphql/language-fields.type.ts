/** LanguageFields: a concept's values for one language as a whole (TBX language-level values). */
import { builder } from '../../../graphql/builder.js';
import type { LanguageFieldsDto } from '../concept-language-fields.js';

export const LanguageFieldsRef = builder.objectRef<LanguageFieldsDto>('LanguageFields').implement({
  description: "A concept's values for one language as a whole (docs/concepts.md, Language fields).",
  fields: (t) => ({
    languageCode: t.exposeString('languageCode'),
    regionCode: t.exposeString('regionCode', { nullable: true }),
    scriptCode: t.exposeString('scriptCode', { nullable: true }),
    fieldMap: t.field({
      type: 'JSON',
      description: 'TERM-level field oid to values',
      resolve: (entry) => entry.fieldMap,
    }),
  }),
});

export const LanguageFieldsInputRef = builder.inputType('LanguageFieldsInput', {
  description: "A concept's values for one language tag, as a write sends them (docs/concepts.md).",
  fields: (t) => ({
    languageCode: t.string({ required: true }),
    regionCode: t.string(),
    scriptCode: t.string(),
    fieldMap: t.field({
      type: 'JSON',
      required: true,
      description: 'TERM-level field oid to a value or an array of values (null removes a field)',
    }),
  }),
});
