/**
 * A termbase for the decoration suites: a tenant with a dictionary in English, German, French,
 * Japanese and Arabic whose terms carry a usage status (TERM field of data category USAGE_STATUS).
 */
import type { Api, Server } from '../concepts/concept-helpers.js';
import type { RestClient } from '../helpers/rest.js';
import { createDictionary, type DictionaryBody, newTenant } from '../helpers/structure.js';

export interface Termbase {
  admin: Api;
  /** The same administrator as a RestClient (for the structure helpers). */
  tenantAdmin: RestClient;
  dictionary: DictionaryBody;
  sectionOid: string;
  /** Field oid of the usage status. */
  status: string;
  tenant: Awaited<ReturnType<typeof newTenant>>['tenant'];
}

export interface TermSpec {
  name: string;
  lang: string;
  status?: 'preferredTerm-admn-sts' | 'admittedTerm-admn-sts' | 'deprecatedTerm-admn-sts' | 'forbidden';
}

export async function termbase(
  server: Server,
  languages = ['eng', 'deu', 'fra', 'jpn', 'ara', 'isl'],
): Promise<Termbase> {
  const { tenant, admin } = await newTenant(server.t, server.sysadmin);
  const dictionary = await createDictionary(admin, {
    languages: languages.map((code) => ({ code })),
    termFields: [
      {
        name: 'Usage status',
        dataCategory: 'USAGE_STATUS',
        fieldType: 'PICKLIST',
        model: {
          picklistItems: [
            'preferredTerm-admn-sts',
            'admittedTerm-admn-sts',
            'deprecatedTerm-admn-sts',
            'forbidden',
          ].map((name) => ({ name })),
        },
      },
    ],
  });
  const status = dictionary.termFields[0]!.oid!;
  return {
    admin: server.api(admin),
    tenantAdmin: admin,
    dictionary,
    sectionOid: dictionary.sections[0]!.oid!,
    status,
    tenant,
  };
}

/** A concept with these terms; answers its id and its terms' ids by name. */
export async function concept(
  base: Termbase,
  terms: TermSpec[],
): Promise<{ id: number; terms: Record<string, number> }> {
  const response = await base.admin.post<{ id: number; terms: { id: number; name: string }[] }>('/concepts', {
    dictionaryId: base.dictionary.id,
    sectionOid: base.sectionOid,
    terms: terms.map((term) => ({
      name: term.name,
      languageCode: term.lang,
      ...(term.status ? { fieldMap: { [base.status]: term.status } } : {}),
    })),
  });
  if (response.status !== 201) throw new Error(`concept: ${response.status} ${response.text}`);
  return {
    id: response.body.id,
    terms: Object.fromEntries(response.body.terms.map((t) => [t.name, t.id])),
  };
}

export interface MatchBody {
  start: number;
  end: number;
  text: string;
  conceptId: number;
  termId: number;
  term: string;
  kind: string;
  score: number;
  status: string;
  preferred: { termId: number; name: string; status: string }[];
  translations: Record<string, { termId: number; name: string; status: string }[]>;
  homonyms: { conceptId: number; termId: number; term: string }[];
}

export interface DecorationBody {
  sourceLang: string;
  dictionaryIds: number[];
  segments: { id: string; matches: MatchBody[]; decorated?: string }[];
}

/** POST /term-decoration expecting 200. */
export async function decorate(caller: Api, body: Record<string, unknown>): Promise<DecorationBody> {
  const response = await caller.post<DecorationBody>('/term-decoration', body);
  if (response.status !== 200) throw new Error(`decorate: ${response.status} ${response.text}`);
  return response.body;
}
