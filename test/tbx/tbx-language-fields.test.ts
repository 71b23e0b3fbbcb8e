/**
 * Language-level values (docs/tbx.md, Data categories; docs/concepts.md, Language fields): a TBX
 * language section's own values stay at the language. The import stores them as the concept's language
 * fields (not on its terms), concept reads show them, the exports write them back in the language
 * section (TBX-Basic too, for the categories it allows there), and a dictionary copy keeps them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TbxEntry } from '../../src/modules/tbx/tbx-model.js';
import { readTbx } from '../../src/modules/tbx/tbx-reader.js';
import type { Server } from '../concepts/concept-helpers.js';
import { rows } from '../helpers/structure.js';
import { startTbxSuite, type TbxClient } from './tbx-sample-files.js';

let server: Server;
let client: TbxClient;
let token: string;

beforeAll(async () => {
  ({ server, token, client } = await startTbxSuite());
}, 120_000);
afterAll(async () => {
  await server?.close();
});

const FILE = `<?xml version="1.0"?>
<tbx type="TBX-Basic" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2">
<tbxHeader><fileDesc><sourceDesc><p>t</p></sourceDesc></fileDesc></tbxHeader>
<text><body>
<conceptEntry id="c1">
 <langSec xml:lang="en">
  <descrip type="definition">A language-level definition</descrip>
  <admin type="source">Language source</admin>
  <note>Language note</note>
  <termSec><term>first</term><admin type="source">Term source</admin></termSec>
  <termSec><term>second</term></termSec>
 </langSec>
 <langSec xml:lang="en-GB"><note>British note</note><termSec><term>primus</term></termSec></langSec>
 <langSec xml:lang="de"><termSec><term>erste</term></termSec></langSec>
</conceptEntry>
</body></text></tbx>`;

const api = <T>(path: string, init?: RequestInit) => client.api<T>(path, init);

/** An async-capable call's result: at once, or from its job when it outlived the threshold. */
async function invoke(path: string): Promise<unknown> {
  const answer = await api<{ result?: unknown; jobTaskId?: number }>(path, { method: 'POST', body: '{}' });
  if (answer.jobTaskId === undefined) return answer.result;
  for (;;) {
    const job = await api<{ status: string; result: unknown }>(`/jobs/${answer.jobTaskId}`);
    if (job.status !== 'RUNNING') return job.result;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function readAll(xml: string): Promise<TbxEntry[]> {
  const entries: TbxEntry[] = [];
  for await (const entry of readTbx([xml])) entries.push(entry);
  return entries;
}

interface ConceptRead {
  terms: { name: string; fieldMap: Record<string, string[]> }[];
  languageFields: {
    languageCode: string;
    regionCode: string | null;
    scriptCode: string | null;
    fieldMap: Record<string, string[]>;
  }[];
}

/** The concept read over REST, with field oids replaced by the fields' names. */
async function conceptOf(dictionaryId: number) {
  const [row] = await rows<{ id: number }>(server.t, 'select id from concepts where dictionary_id = ?', [
    dictionaryId,
  ]);
  const fields = await rows<{ oid: string; name: string }>(
    server.t,
    'select oid, name from fields where dictionary_id = ?',
    [dictionaryId],
  );
  const named = (map: Record<string, string[]>) =>
    Object.fromEntries(
      Object.entries(map).map(([oid, values]) => [fields.find((f) => f.oid === oid)?.name ?? oid, values]),
    );
  const concept = await api<ConceptRead>(`/concepts/${row!.id}`);
  return {
    languageFields: concept.languageFields.map((l) => ({ ...l, fieldMap: named(l.fieldMap) })),
    terms: concept.terms.map((t) => [t.name, named(t.fieldMap)]),
  };
}

const EXPECTED = {
  languageFields: [
    {
      languageCode: 'eng',
      regionCode: null,
      scriptCode: null,
      fieldMap: {
        definition: ['A language-level definition'],
        source: ['Language source'],
        note: ['Language note'],
      },
    },
    { languageCode: 'eng', regionCode: 'GB', scriptCode: null, fieldMap: { note: ['British note'] } },
  ],
  terms: [
    ['first', { source: ['Term source'] }],
    ['second', {}],
    ['primus', {}],
    ['erste', {}],
  ],
};

describe('language fields', () => {
  it('are imported at the language, shown in concept reads, and exported in the language section', async () => {
    const summary = await client.importNew(Buffer.from(FILE), 'language fields', 'NONE');
    expect(summary.errors).toEqual([]);
    expect(await conceptOf(summary.dictionaryId)).toEqual(EXPECTED);

    for (const format of ['TBX_V3_FULL', 'TBX_V2_FULL', 'TBX', 'TBX_V2']) {
      const [entry] = await readAll(await client.export(summary.dictionaryId, format));
      const section = (lang: string) => entry!.languages.find((s) => s.lang === lang)!;
      const valuesOf = (values: { category: string; value: string }[]) =>
        values.map((v) => `${v.category}=${v.value}`).sort();
      expect(valuesOf(section('en').values), format).toEqual([
        'definition=A language-level definition',
        'note=Language note',
        'source=Language source',
      ]);
      expect(valuesOf(section('en-GB').values), format).toEqual(['note=British note']);
      expect(valuesOf(section('de').values), format).toEqual([]);
      expect(
        section('en').terms.map((t) => [t.term, valuesOf(t.values.filter((v) => v.category !== 'note'))]),
        format,
      ).toEqual([
        ['first', ['source=Term source']],
        ['second', []],
      ]);
      // And back: the export imported again holds the same.
      const again = await client.importNew(
        Buffer.from(await client.export(summary.dictionaryId, format)),
        `language fields ${format}`,
        'NONE',
      );
      expect(again.errors, format).toEqual([]);
      expect(await conceptOf(again.dictionaryId), format).toEqual(EXPECTED);
    }
  }, 180_000);

  it('a merge replaces the same fields of a language and keeps the others; a dictionary copy keeps them', async () => {
    const summary = await client.importNew(Buffer.from(FILE), 'language fields merge', 'NONE');
    const update = FILE.replace('<admin type="source">Language source</admin>', '')
      .replace('Language note', 'New language note')
      .replace('<note>British note</note>', '');
    const form = new FormData();
    form.append('file', new Blob([update]), 'update.tbx');
    const merged = await fetch(
      `${server.base}/api/v4/dictionaries/import-tbx?dictionary-id=${summary.dictionaryId}&merge=ENTRY_ID`,
      { method: 'POST', headers: { 'x-auth-token': token }, body: form },
    );
    expect(merged.status).toBe(200);
    const after = await conceptOf(summary.dictionaryId);
    expect(after.languageFields[0]!.fieldMap).toEqual({
      definition: ['A language-level definition'],
      source: ['Language source'],
      note: ['New language note'],
    });
    expect(after.languageFields[1]!.fieldMap).toEqual({ note: ['British note'] });

    const copied = {
      result: (await invoke(`/dictionaries/copy/${summary.dictionaryId}?copy-data=true`)) as number,
    };
    expect(copied.result).toEqual(expect.any(Number));
    // (The copy's terms may come in another order: compared as a set.)
    const copy = await conceptOf(copied.result!);
    expect(copy.languageFields).toEqual(after.languageFields);
    expect(copy.terms.map((t) => JSON.stringify(t)).sort()).toEqual(
      after.terms.map((t) => JSON.stringify(t)).sort(),
    );

    // Language replace moves a tag's language fields with its terms.
    const moved = await invoke(
      `/dictionaries/language-replace?${new URLSearchParams({ 'dictionary-id': String(summary.dictionaryId), 'from-id': 'eng;GB', 'to-id': 'deu' })}`,
    );
    expect(moved).toBe(1);
    expect((await conceptOf(summary.dictionaryId)).languageFields).toEqual([
      { languageCode: 'deu', regionCode: null, scriptCode: null, fieldMap: { note: ['British note'] } },
      after.languageFields[0],
    ]);
  }, 120_000);
});
