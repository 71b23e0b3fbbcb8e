/**
 * FieldValues and FieldSummary: a concept's or a term's fieldMap as a list in its dictionary's field
 * order, each value with the field it belongs to (one field query per batch of dictionaries).
 */
import DataLoader from 'dataloader';
import { builder, type GraphQLContext } from '../../../graphql/builder.js';
import { Field } from '../../field/field.entity.js';
import { LOAD_COST } from './complexity.js';
import { ANY_STATE, domainCall, stateOf } from './request-state.js';

export interface FieldSummary {
  id: number;
  oid: string;
  name: string;
  fieldType: string;
  level: string;
  dataCategory: string;
  sortIndex: number;
}

interface FieldValuesShape {
  dictionaryId: number;
  fieldOid: string;
  values: string[];
}

/** The fields of the dictionaries of the concepts shown, by oid (deleted ones too: old values stay). */
function fieldLoader(context: GraphQLContext): DataLoader<number, Map<string, FieldSummary>> {
  const state = stateOf(context);
  state.fields ??= new DataLoader((dictionaryIds: readonly number[]) =>
    domainCall(context, async (scope) => {
      const fields = await scope.em.find(
        Field,
        { dictionary: { $in: [...dictionaryIds] } },
        { filters: ANY_STATE, orderBy: { deleted: 'ASC', sortIndex: 'ASC', id: 'ASC' } },
      );
      return dictionaryIds.map((dictionaryId) => {
        const map = new Map<string, FieldSummary>();
        for (const field of fields) {
          if (field.dictionary.id !== dictionaryId || !field.oid || map.has(field.oid)) continue;
          map.set(field.oid, {
            id: field.id,
            oid: field.oid,
            name: field.name,
            fieldType: field.fieldType,
            level: field.level,
            dataCategory: field.dataCategory,
            sortIndex: field.sortIndex,
          });
        }
        return map;
      });
    }),
  );
  return state.fields;
}

/** A fieldMap as a list in the dictionary's field order (fields unknown to the dictionary last). */
export async function fieldList(
  context: GraphQLContext,
  dictionaryId: number,
  map: Record<string, string[]>,
) {
  const fields = await fieldLoader(context).load(dictionaryId);
  const rank = (oid: string) => fields.get(oid)?.sortIndex ?? Number.MAX_SAFE_INTEGER;
  return Object.entries(map)
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([fieldOid, values]): FieldValuesShape => ({ dictionaryId, fieldOid, values }));
}

const FieldSummaryRef = builder.objectRef<FieldSummary>('FieldSummary').implement({
  description: 'The field a value belongs to.',
  fields: (t) => ({
    id: t.exposeInt('id'),
    oid: t.exposeString('oid'),
    name: t.exposeString('name'),
    fieldType: t.exposeString('fieldType'),
    level: t.exposeString('level', { description: 'CONCEPT or TERM' }),
    dataCategory: t.exposeString('dataCategory'),
  }),
});

export const FieldValuesRef = builder.objectRef<FieldValuesShape>('FieldValues').implement({
  description: 'The values of one field (several only for MULTISELECT fields).',
  fields: (t) => ({
    fieldOid: t.exposeString('fieldOid'),
    field: t.field({
      type: FieldSummaryRef,
      nullable: true,
      description: "null when the oid names no field of the concept's dictionary",
      complexity: LOAD_COST,
      resolve: async (entry, _, context) =>
        (await fieldLoader(context).load(entry.dictionaryId)).get(entry.fieldOid) ?? null,
    }),
    values: t.exposeStringList('values'),
  }),
});
