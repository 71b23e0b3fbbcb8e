/**
 * DomainSummary and SectionSummary: the domains and the section a concept names, by id, oid and name,
 * loaded once per request tick for every concept shown.
 */
import DataLoader from 'dataloader';
import { builder, type GraphQLContext } from '../../../graphql/builder.js';
import { Domain } from '../../domain/domain.entity.js';
import { Section } from '../../section/section.entity.js';
import { ANY_STATE, domainCall, stateOf } from './request-state.js';

export interface NamedSummary {
  id: number;
  oid: string | null;
  name: string;
}

export interface DomainKey {
  dictionaryId: number;
  oid: string;
}

const summary = (row: { id: number; oid?: string | null; name: string }): NamedSummary => ({
  id: row.id,
  oid: row.oid ?? null,
  name: row.name,
});

/** Domains by dictionary and oid (a concept's domainList names them by oid; a copied dictionary may repeat one). */
export function domainLoader(context: GraphQLContext): DataLoader<DomainKey, NamedSummary | null, string> {
  const state = stateOf(context);
  state.domains ??= new DataLoader(
    (keys: readonly DomainKey[]) =>
      domainCall(context, async (scope) => {
        const domains = await scope.em.find(
          Domain,
          {
            dictionary: { $in: [...new Set(keys.map((key) => key.dictionaryId))] },
            oid: { $in: [...new Set(keys.map((key) => key.oid))] },
            client: scope.actor.clientId,
          },
          { filters: ANY_STATE },
        );
        const found = new Map(
          domains.map((domain) => [`${domain.dictionary.id}:${domain.oid}`, summary(domain)]),
        );
        return keys.map((key) => found.get(`${key.dictionaryId}:${key.oid}`) ?? null);
      }),
    { cacheKeyFn: (key) => `${key.dictionaryId}:${key.oid}` },
  );
  return state.domains;
}

/** Section names of the concepts shown (deleted sections too: a concept keeps its section). */
export function sectionLoader(context: GraphQLContext): DataLoader<number, NamedSummary | null> {
  const state = stateOf(context);
  state.sections ??= new DataLoader((ids: readonly number[]) =>
    domainCall(context, async (scope) => {
      const sections = await scope.em.find(
        Section,
        { id: { $in: [...ids] }, client: scope.actor.clientId },
        { filters: ANY_STATE },
      );
      const byId = new Map(sections.map((section) => [section.id, summary(section)]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
  );
  return state.sections;
}

const namedSummaryRef = (name: string, description: string) =>
  builder.objectRef<NamedSummary>(name).implement({
    description,
    fields: (t) => ({
      id: t.exposeInt('id'),
      oid: t.exposeString('oid', { nullable: true }),
      name: t.exposeString('name'),
    }),
  });
export const DomainSummaryRef = namedSummaryRef('DomainSummary', 'A domain a concept belongs to.');
export const SectionSummaryRef = namedSummaryRef('SectionSummary', 'The section a concept is filed in.');
