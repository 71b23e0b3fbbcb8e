/**
 * TBX provenance in history (issue 37) and the administrative status mapping (issue 38), over REST and
 * GraphQL: an import's history item names the file's people and dates; `status-mapping` (and a
 * dictionary's default) says which term status each administrative status stands for, the export
 * writes the reverse, and anything unknown answers 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from '../concepts/concept-helpers.js';
import { gql, gqlOk } from '../e2e/structure-graphql-helpers.js';
import { startTbxSuite, type TbxClient } from './tbx-sample-files.js';

let server: Server;
let token: string;
let client: TbxClient;

beforeAll(async () => {
  ({ server, token, client } = await startTbxSuite());
}, 120_000);
afterAll(async () => {
  await server?.close();
});

const header = (title: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>
<martif type="TBX" xml:lang="en"><martifHeader><fileDesc><sourceDesc><p>${title}</p></sourceDesc></fileDesc></martifHeader>
<text><body>
`;
const footer = '</body></text></martif>\n';

const PEOPLE = `${header('people')}<termEntry id="p1">
<descrip type="definition">Translates programs.</descrip>
<transacGrp><transac type="transactionType">origination</transac><date>2019-03-02</date><transacNote type="responsibility">Anna Jónsdóttir</transacNote></transacGrp>
<transacGrp><transac type="transactionType">modification</transac><date>2020-04-05</date><transacNote type="responsibility">Grace Hopper</transacNote></transacGrp>
<langSet xml:lang="en"><tig><term>compiler</term>
<transacGrp><transac type="transactionType">origination</transac><date>2019-02-04</date><transacNote type="responsibility">Alan Turing</transacNote></transacGrp>
</tig></langSet>
<langSet xml:lang="is"><tig><term>þýðandi</term></tig></langSet>
</termEntry>
${footer}`;

/** One entry per administrative status, each term carrying it. */
const STATUSES = `${header('statuses')}${['preferredTerm', 'admittedTerm', 'deprecatedTerm', 'supersededTerm']
  .map(
    (status) => `<termEntry id="s-${status}"><langSet xml:lang="en"><tig><term>${status} word</term>
<termNote type="administrativeStatus">${status}-admn-sts</termNote></tig></langSet></termEntry>
`,
  )
  .join('')}${footer}`;

interface HistoryPage {
  content: {
    conceptId: number;
    action: string;
    user: { id: number | null };
    provenance: {
      concept: {
        createdBy: string | null;
        createdAt: number | null;
        changedBy: string | null;
        changedAt: number | null;
      } | null;
      terms: { termId: number; createdBy: string | null; createdAt: number | null }[];
    } | null;
    snapshot?: { terms: { id: number; name: string; fieldMap: Record<string, string[]> }[] };
  }[];
}

/** Each term's values by its text, from the dictionary's history (FULL: with snapshots). */
async function termValues(dictionaryId: number): Promise<Map<string, string[]>> {
  const page = await client.api<HistoryPage>(`/history/dictionary/${dictionaryId}?size=100`);
  const values = new Map<string, string[]>();
  for (const item of page.content) {
    for (const term of item.snapshot?.terms ?? []) {
      if (!values.has(term.name)) values.set(term.name, Object.values(term.fieldMap).flat());
    }
  }
  return values;
}

const statusesIn = (xml: string) =>
  [...xml.matchAll(/<term>([^<]*)<\/term>\s*<termNote type="administrativeStatus">([^<]*)<\/termNote>/g)].map(
    (match) => `${match[1]}=${match[2]}`,
  );

async function status(response: Response) {
  return { status: response.status, body: (await response.json()) as { code?: string; message?: string } };
}

describe('TBX provenance in history', () => {
  it('shows the file’s creator and modifier with their dates on the import’s item, on REST and GraphQL', async () => {
    const summary = await client.importNew(Buffer.from(PEOPLE), `people ${Date.now()}`);
    expect(summary.errors).toEqual([]);
    const dictionaryItems = await client.api<HistoryPage>(`/history/dictionary/${summary.dictionaryId}`);
    const conceptId = dictionaryItems.content[0]!.conceptId;
    const terms = dictionaryItems.content[0]!.snapshot!.terms;
    const compiler = terms.find((term) => term.name === 'compiler')!;

    const page = await client.api<HistoryPage>(`/history/concept/${conceptId}?format=SHORT`);
    const item = page.content[0]!;
    expect(item.action).toBe('CREATE');
    // The importing user stays the item's author; the file's people are beside it.
    expect(item.user.id).not.toBeNull();
    expect(item.provenance).toEqual({
      concept: {
        createdBy: 'Anna Jónsdóttir',
        createdAt: Date.UTC(2019, 2, 2),
        changedBy: 'Grace Hopper',
        changedAt: Date.UTC(2020, 3, 5),
      },
      // The Icelandic term has no transactions in the file: it is not listed.
      terms: [
        {
          termId: compiler.id,
          createdBy: 'Alan Turing',
          createdAt: Date.UTC(2019, 1, 4),
          changedBy: null,
          changedAt: null,
        },
      ],
    });

    const data = await gqlOk<{
      concept: { history: { action: string; provenance: HistoryPage['content'][number]['provenance'] }[] };
    }>(
      server.base,
      token,
      `query ($id: Int!) { concept(id: $id) { history(first: 5) { action provenance {
         concept { createdBy createdAt changedBy changedAt } terms { termId createdBy createdAt changedBy changedAt } } } } }`,
      { id: conceptId },
    );
    expect(data.concept.history[0]!.provenance).toEqual(item.provenance);

    // A later API change is the user's own: its item carries no file provenance.
    const concept = await client.api<{ version: number; fieldMap: Record<string, string[]> }>(
      `/concepts/${conceptId}`,
    );
    const [definitionOid] = Object.keys(concept.fieldMap);
    await client.api(`/concepts/${conceptId}/patch`, {
      method: 'PUT',
      body: JSON.stringify({ version: concept.version, fieldMap: { [definitionOid!]: ['edited'] } }),
    });
    const after = await client.api<HistoryPage>(`/history/concept/${conceptId}?format=SHORT`);
    expect(
      after.content.map((entry) => [entry.action, entry.provenance?.concept?.createdBy ?? null]),
    ).toEqual([
      ['UPDATE', null],
      ['CREATE', 'Anna Jónsdóttir'],
    ]);
  }, 180_000);
});

describe('TBX administrative status mapping', () => {
  it('keeps today’s rule by default, and maps deprecatedTerm to forbidden when asked, stable over a round trip', async () => {
    const plain = await client.importNew(Buffer.from(STATUSES), `statuses plain ${Date.now()}`);
    expect((await termValues(plain.dictionaryId)).get('deprecatedTerm word')).toEqual([
      'deprecatedTerm-admn-sts',
    ]);

    const mapped = await client.importNew(
      Buffer.from(STATUSES),
      `statuses mapped ${Date.now()}`,
      'ENTRY_ID',
      {
        'status-mapping': 'deprecatedTerm:forbidden',
      },
    );
    expect(mapped.errors).toEqual([]);
    const values = await termValues(mapped.dictionaryId);
    expect(values.get('deprecatedTerm word')).toEqual(['forbiddenTerm-admn-sts']);
    // The others keep the file's value: each already means its term status.
    expect(values.get('supersededTerm word')).toEqual(['supersededTerm-admn-sts']);
    expect(values.get('preferredTerm word')).toEqual(['preferredTerm-admn-sts']);

    // The new dictionary kept the mapping as its own; exports write the reverse, in every dialect.
    const settings = await client.api<{ statusMapping: Record<string, string> }>(
      `/dictionaries/tbx-settings/${mapped.dictionaryId}`,
    );
    expect(settings.statusMapping).toEqual({
      preferredTerm: 'preferred',
      admittedTerm: 'admitted',
      deprecatedTerm: 'forbidden',
      supersededTerm: 'deprecated',
    });
    for (const format of ['TBX', 'TBX_V3_FULL']) {
      const xml = await client.export(mapped.dictionaryId, format);
      expect(statusesIn(xml)).toContain('deprecatedTerm word=deprecatedTerm-admn-sts');
      expect(xml).not.toContain('forbiddenTerm');
      expect(xml).not.toContain('written as note: administrativeStatus');
    }
    // Imported again with the same mapping, the forbidden term is forbidden again.
    const again = await client.importNew(
      Buffer.from(await client.export(mapped.dictionaryId, 'TBX')),
      `statuses again ${Date.now()}`,
      'ENTRY_ID',
      { 'status-mapping': 'deprecatedTerm-admn-sts:Forbidden' },
    );
    expect((await termValues(again.dictionaryId)).get('deprecatedTerm word')).toEqual([
      'forbiddenTerm-admn-sts',
    ]);

    // Without a mapping, the export writes a forbidden term as TBX-Basic's nearest status, and says so.
    const basic = await client.export(mapped.dictionaryId, 'TBX', {
      'status-mapping': 'deprecatedTerm:deprecated',
    });
    expect(basic).toContain(
      'mapped: administrativeStatus "forbiddenTerm-admn-sts" as "deprecatedTerm-admn-sts"',
    );
  }, 180_000);

  it('takes a dictionary’s default mapping, set over GraphQL or REST, for imports that send none', async () => {
    const first = await client.importNew(Buffer.from(STATUSES), `statuses default ${Date.now()}`);
    const set = await gqlOk<{ setTbxSettings: { statusMapping: Record<string, string> } }>(
      server.base,
      token,
      `mutation ($id: Int!) { setTbxSettings(dictionaryId: $id, statusMapping: { deprecatedTerm: "forbidden", supersededTerm: "forbidden" }) {
         statusMapping { preferredTerm admittedTerm deprecatedTerm supersededTerm } } }`,
      { id: first.dictionaryId },
    );
    expect(set.setTbxSettings.statusMapping.supersededTerm).toBe('forbidden');
    const read = await gqlOk<{ tbxSettings: { statusMapping: { deprecatedTerm: string } } }>(
      server.base,
      token,
      'query ($id: Int!) { tbxSettings(dictionaryId: $id) { statusMapping { deprecatedTerm } } }',
      { id: first.dictionaryId },
    );
    expect(read.tbxSettings.statusMapping.deprecatedTerm).toBe('forbidden');

    const renamed = STATUSES.replaceAll(' word<', ' again<').replaceAll('id="s-', 'id="t-');
    await client.importNew(Buffer.from(renamed), 'unused', 'NONE', {
      'dictionary-id': String(first.dictionaryId),
    });
    let values = await termValues(first.dictionaryId);
    expect(values.get('deprecatedTerm again')).toEqual(['forbiddenTerm-admn-sts']);
    expect(values.get('supersededTerm again')).toEqual(['forbiddenTerm-admn-sts']);

    // A request's statuses go over the dictionary's.
    const third = STATUSES.replaceAll(' word<', ' third<').replaceAll('id="s-', 'id="u-');
    await client.importNew(Buffer.from(third), 'unused', 'NONE', {
      'dictionary-id': String(first.dictionaryId),
      'status-mapping': 'supersededTerm:deprecated',
    });
    values = await termValues(first.dictionaryId);
    expect(values.get('supersededTerm third')).toEqual(['supersededTerm-admn-sts']);
    expect(values.get('deprecatedTerm third')).toEqual(['forbiddenTerm-admn-sts']);

    // REST PUT replaces the mapping: statuses left out follow the built-in rule again.
    const put = await client.api<{ statusMapping: Record<string, string> }>(
      `/dictionaries/tbx-settings/${first.dictionaryId}`,
      { method: 'PUT', body: JSON.stringify({ statusMapping: { admittedTerm: 'preferred' } }) },
    );
    expect(put.statusMapping).toEqual({
      preferredTerm: 'preferred',
      admittedTerm: 'preferred',
      deprecatedTerm: 'deprecated',
      supersededTerm: 'deprecated',
    });
  }, 180_000);

  it('answers 400 for an unknown status or term status, on REST and GraphQL', async () => {
    const form = () => {
      const body = new FormData();
      body.append('file', new Blob([STATUSES]), 'in.tbx');
      return body;
    };
    for (const mapping of ['bogusTerm:forbidden', 'deprecatedTerm:banned', 'deprecatedTerm']) {
      const response = await fetch(
        `${server.base}/api/v4/dictionaries/import-tbx?${new URLSearchParams({ name: `bad ${mapping}`, 'status-mapping': mapping })}`,
        { method: 'POST', headers: { 'x-auth-token': token }, body: form() },
      );
      const answer = await status(response);
      expect(answer.status, mapping).toBe(400);
      expect(answer.body.code).toBe('BAD_REQUEST');
      expect(answer.body.message).toMatch(/^status-mapping: /);
    }
    const plain = await client.importNew(Buffer.from(STATUSES), `statuses bad ${Date.now()}`);
    const exported = await status(
      await fetch(
        `${server.base}/api/v4/dictionaries/export-tbx/${plain.dictionaryId}?status-mapping=deprecatedTerm:nope`,
        { headers: { 'x-auth-token': token } },
      ),
    );
    expect(exported.status).toBe(400);
    expect(exported.body.message).toContain('"nope" is not a term status');
    const put = await status(
      await fetch(`${server.base}/api/v4/dictionaries/tbx-settings/${plain.dictionaryId}`, {
        method: 'PUT',
        headers: { 'x-auth-token': token, 'content-type': 'application/json' },
        body: JSON.stringify({ statusMapping: { obsoleteTerm: 'forbidden' } }),
      }),
    );
    expect(put.status).toBe(400);
    const graphql = await gql(
      server.base,
      token,
      'mutation ($id: Int!) { setTbxSettings(dictionaryId: $id, statusMapping: { deprecatedTerm: "banned" }) { dictionaryId } }',
      { id: plain.dictionaryId },
    );
    expect(graphql.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
    // Nothing was stored by the refused calls.
    const settings = await client.api<{ statusMapping: Record<string, string> }>(
      `/dictionaries/tbx-settings/${plain.dictionaryId}`,
    );
    expect(settings.statusMapping.deprecatedTerm).toBe('deprecated');
  }, 180_000);
});
