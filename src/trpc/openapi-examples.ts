/**
 * Example request bodies of the main writes, by operationId, shown by the docs page and generators.
 * test/clients/openapi-document.test.ts parses each with its procedure's own input schema, so an example
 * that the server would refuse fails the build.
 */
export const requestExamples: Record<string, unknown> = {
  'auth-login': { username: 'admin', password: 'a long passphrase', client: 'acme' },
  'clients-create': { name: 'Acme Translations', loginName: 'acme', maxUsers: 25 },
  'users-create': {
    username: 'jane.doe',
    password: 'a long passphrase',
    fullName: 'Jane Doe',
    email: 'jane.doe@example.org',
  },
  'groups-create': { name: 'Translators', description: 'Edit terms of their languages' },
  'dictionaries-create': {
    name: 'Energy',
    description: 'Terms of power generation',
    languages: [{ code: 'en' }, { code: 'isl' }, { code: 'de' }],
  },
  'sections-create': { name: 'Wind power', dictionaryId: 12 },
  'domains-create': { name: 'Turbines', dictionaryId: 12 },
  'concepts-create': {
    dictionaryId: 12,
    sectionOid: 'a1b2c3d4',
    terms: [
      { name: 'wind turbine', languageCode: 'eng' },
      { name: 'vindmylla', languageCode: 'isl' },
      { name: 'Windkraftanlage', languageCode: 'deu' },
    ],
  },
  'comments-create': { text: 'Is "wind generator" a synonym here?' },
  'terms-search': { dictionaryIds: [12], langCode: 'eng', sectionOids: [], name: 'turb' },
};
