// GraphQL over fetch: sign in with the login mutation, then page through a dictionary's concepts.
async function graphql<T>(server: string, token: string, query: string, variables: object): Promise<T> {
  const response = await fetch(`${server}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'X-Auth-Token': token },
    body: JSON.stringify({ query, variables }),
  });
  const { data, errors } = (await response.json()) as { data: T; errors?: { message: string }[] };
  if (errors?.length) throw new Error(errors.map((error) => error.message).join('; '));
  return data;
}

export async function allTermNames(server: string, username: string, password: string, dictionaryId: number) {
  const { login } = await graphql<{ login: { token: string } }>(
    server,
    '',
    'mutation ($u: String!, $p: String!) { login(username: $u, password: $p) { token } }',
    { u: username, p: password },
  );
  const names: string[] = [];
  let after: string | null = null;
  do {
    const { concepts }: { concepts: ConceptPage } = await graphql(server, login.token, PAGE, {
      d: dictionaryId,
      after,
    });
    for (const concept of concepts.nodes) names.push(...concept.terms.map((term) => term.name));
    after = concepts.pageInfo.hasNextPage ? concepts.pageInfo.endCursor : null;
  } while (after);
  return names;
}

interface ConceptPage {
  nodes: { id: number; terms: { name: string }[] }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}
const PAGE = `query ($d: Int!, $after: String) {
  concepts(dictionaryId: $d, first: 50, after: $after) {
    nodes { id terms { name } }
    pageInfo { hasNextPage endCursor }
  }
}`;
