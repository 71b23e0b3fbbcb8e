import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import { createDictionary, expectError, getDictionary, newTenant } from '../helpers/structure.js';

interface LinkBody {
  text: string;
  position: number;
  conceptId: number | null;
  invalid: boolean;
}
interface ConceptBody {
  id: number;
  version: number;
  fieldMap: Record<string, string[]>;
  refLinks: LinkBody[];
}

let t: TestApp;
let sysadmin: RestClient;
beforeAll(async () => {
  t = await buildTestApp();
  sysadmin = await loginSysadmin(t.app);
});
afterAll(() => t.close());

async function world() {
  const { admin } = await newTenant(t, sysadmin);
  const created = await createDictionary(admin, {
    languages: [{ code: 'eng' }],
    conceptFields: [
      { name: 'Note', fieldType: 'MULTILINE' },
      { name: 'Code', fieldType: 'SINGLELINE' },
    ],
  });
  const dictionary = await getDictionary(admin, created.id);
  const note = dictionary.conceptFields.find((f) => f.name === 'Note')!.oid!;
  const code = dictionary.conceptFields.find((f) => f.name === 'Code')!.oid!;
  const sectionOid = dictionary.allSections[0]!.oid!;
  const create = async (body: Record<string, unknown>) => {
    const response = await admin.post<ConceptBody>('/concepts', {
      dictionaryId: dictionary.id,
      sectionOid,
      terms: [{ name: `term ${Math.random()}`, languageCode: 'eng' }],
      ...body,
    });
    expect(response.status, response.text).toBe(201);
    return response.body;
  };
  return { admin, note, code, create };
}

describe('reference links', () => {
  it('count a line break as two characters: the CR LF offset is accepted, the LF offset refused', async () => {
    const { note, create, admin } = await world();
    const target = await create({});
    // "first line\nsee target": "see" starts at 11 when \n counts one, at 12 once stored as \r\n.
    const value = 'first line\nsee target';
    const link = (position: number) => ({
      sourceFieldOid: note,
      type: 'CONCEPT',
      text: 'see',
      position,
      conceptId: target.id,
    });
    const refused = await admin.post('/concepts', {
      dictionaryId: (await admin.get<{ dictionaryId: number }>(`/concepts/${target.id}`)).body.dictionaryId,
      sectionOid: (await admin.get<{ sectionOid: string }>(`/concepts/${target.id}`)).body.sectionOid,
      fieldMap: { [note]: value },
      refLinks: [link(11)],
    });
    expectError(refused, 400);
    expect((refused.body as { message: string }).message).toContain('position 11');
    const linked = await create({ fieldMap: { [note]: value }, refLinks: [link(12)] });
    expect(linked.fieldMap[note]).toEqual(['first line\r\nsee target']);
    expect(linked.refLinks).toMatchObject([
      { text: 'see', position: 12, conceptId: target.id, invalid: false },
    ]);
  });

  it('turn invalid when the target is deleted, and do not block later changes of the linking concept', async () => {
    const { note, code, create, admin } = await world();
    const target = await create({});
    const linking = await create({
      fieldMap: { [note]: 'see target' },
      refLinks: [{ sourceFieldOid: note, type: 'CONCEPT', text: 'see', position: 0, conceptId: target.id }],
    });
    expect((await admin.delete(`/concepts/${target.id}`)).status).toBe(204);
    const after = await admin.get<ConceptBody>(`/concepts/${linking.id}`);
    expect(after.body.refLinks).toMatchObject([{ conceptId: target.id, invalid: true }]);

    const patched = await admin.put<ConceptBody>(`/concepts/${linking.id}/patch`, {
      version: after.body.version,
      fieldMap: { [code]: 'X1' },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.fieldMap[code]).toEqual(['X1']);
    expect(patched.body.refLinks).toMatchObject([{ conceptId: target.id, invalid: true }]);

    // A new link to the deleted concept is refused.
    const refused = await admin.put(`/concepts/${linking.id}/patch`, {
      version: patched.body.version,
      fieldMap: { [note]: 'see target, also here' },
      refLinks: [
        { sourceFieldOid: note, type: 'CONCEPT', text: 'see', position: 0, conceptId: target.id },
        { sourceFieldOid: note, type: 'CONCEPT', text: 'here', position: 17, conceptId: target.id + 100000 },
      ],
    });
    expectError(refused, 400);
  });

  it('from a field named like a member every object has (__proto__, constructor): 400, no field', async () => {
    const { note, create, admin } = await world();
    const concept = await create({ fieldMap: { [note]: 'see target' } });
    for (const sourceFieldOid of ['__proto__', 'constructor', 'toString']) {
      const refused = await admin.put<{ message: string }>(`/concepts/${concept.id}/patch`, {
        version: concept.version,
        refLinks: [{ sourceFieldOid, type: 'URL', text: 'see', position: 0, url: 'https://example.org' }],
      });
      expectError(refused, 400);
      expect(refused.body.message).toContain('which has no value here');
    }
  });
});
