// REST through a client generated from the OpenAPI document:
//   npx openapi-typescript http://localhost:8080/api/v4/openapi.json -o polyterm-api.ts
//   npm install openapi-fetch
import createClient from 'openapi-fetch';
import type { paths } from './polyterm-api.js';

export async function dictionaryNames(server: string, username: string, password: string) {
  const api = createClient<paths>({ baseUrl: `${server}/api/v4` });
  const login = await api.POST('/login', { body: { username, password } });
  if (!login.data?.token) throw new Error(`login refused: ${login.error?.message}`);
  const token = login.data.token.token;
  api.use({
    onRequest: ({ request }) => {
      request.headers.set('X-Auth-Token', token);
      return request;
    },
  });
  const page = await api.GET('/dictionaries', { params: { query: { format: 'SHORT', sort: 'name' } } });
  if (!page.data) throw new Error(`${page.response.status}: ${page.error?.message}`);
  return page.data.content.map((dictionary) => dictionary.name);
}
