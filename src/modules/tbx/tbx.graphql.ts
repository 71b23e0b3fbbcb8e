/**
 * A dictionary's TBX settings over GraphQL: the same procedures as GET/PUT
 * /api/v4/dictionaries/tbx-settings/{id} (docs/tbx.md, Administrative statuses). Files are imported and
 * exported over REST (multipart upload, streamed download); GraphQL imports files too (tbx-files.graphql.ts).
 */
import { builder } from '../../graphql/builder.js';
import type { TbxSettings } from './tbx-settings.js';
import { ADMINISTRATIVE_STATUSES } from './tbx-status-mapping.js';

type Mapping = TbxSettings['statusMapping'];

const TbxStatusMappingRef = builder.objectRef<Mapping>('TbxStatusMapping').implement({
  description:
    'Each TBX administrative status -> the term status (preferred, admitted, deprecated, forbidden) it stands for.',
  fields: (t) => ({
    preferredTerm: t.exposeString('preferredTerm'),
    admittedTerm: t.exposeString('admittedTerm'),
    deprecatedTerm: t.exposeString('deprecatedTerm'),
    supersededTerm: t.exposeString('supersededTerm'),
  }),
});

const TbxSettingsRef = builder.objectRef<TbxSettings>('TbxSettings').implement({
  description: "A dictionary's TBX settings.",
  fields: (t) => ({
    dictionaryId: t.exposeInt('dictionaryId'),
    statusMapping: t.field({
      type: TbxStatusMappingRef,
      description: 'the mapping in effect: the dictionary’s, the built-in rule for statuses it does not name',
      resolve: (settings) => settings.statusMapping,
    }),
  }),
});

export const TbxStatusMappingInputRef = builder.inputType('TbxStatusMappingInput', {
  description: 'Statuses left out follow the built-in rule; a term status other than the four is refused.',
  fields: (t) =>
    Object.fromEntries(ADMINISTRATIVE_STATUSES.map((status) => [status, t.string({ required: false })])) as {
      [K in (typeof ADMINISTRATIVE_STATUSES)[number]]: ReturnType<typeof t.string>;
    },
});

builder.queryFields((t) => ({
  tbxSettings: t.field({
    type: TbxSettingsRef,
    description: 'As GET /api/v4/dictionaries/tbx-settings/{id}.',
    args: { dictionaryId: t.arg.int({ required: true }) },
    resolve: (_, args, context) => context.api.tbx.settings({ dictionaryId: args.dictionaryId }),
  }),
}));

builder.mutationFields((t) => ({
  setTbxSettings: t.field({
    type: TbxSettingsRef,
    description: 'As PUT /api/v4/dictionaries/tbx-settings/{id}: replaces the status mapping.',
    args: {
      dictionaryId: t.arg.int({ required: true }),
      statusMapping: t.arg({ type: TbxStatusMappingInputRef, required: true }),
    },
    resolve: (_, args, context) =>
      context.api.tbx.updateSettings({
        dictionaryId: args.dictionaryId,
        // Absent and null alike: the built-in rule; anything else is validated by the procedure.
        statusMapping: Object.fromEntries(
          Object.entries(args.statusMapping).filter(([, value]) => value !== null && value !== undefined),
        ) as Parameters<typeof context.api.tbx.updateSettings>[0]['statusMapping'],
      }),
  }),
}));
