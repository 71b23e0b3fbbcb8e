// tRPC with the router's types: npm install @trpc/client @trpc/server ./polyterm-trpc-types-0.1.0.tgz
import type { AppRouter } from '@polyterm/trpc-types';
import { createTRPCClient, httpLink } from '@trpc/client';

export async function dictionaryNames(server: string, username: string, password: string) {
  const url = `${server}/trpc`;
  // A refused login rejects with a TRPCClientError (data.code UNAUTHORIZED or FORBIDDEN).
  const login = await createTRPCClient<AppRouter>({ links: [httpLink({ url })] }).auth.login.mutate({
    username,
    password,
  });
  const token = login.token?.token ?? '';
  const trpc = createTRPCClient<AppRouter>({
    links: [httpLink({ url, headers: { 'X-Auth-Token': token } })],
  });
  const page = await trpc.dictionaries.list.query({
    format: 'SHORT',
    page: 0,
    sort: 'name',
    'include-deleted': false,
  });
  return page.content.map((dictionary) => dictionary.name);
}
