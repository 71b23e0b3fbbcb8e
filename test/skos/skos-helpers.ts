/** Calls of the SKOS suites: multipart import and streamed export over the socket, and an N3.js reading. */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Parser, type Quad } from 'n3';
import type { Server } from '../concepts/concept-helpers.js';

/**
 * The UNESCO Thesaurus (CC BY-SA 3.0 IGO, attribution beside it), read in place and never copied:
 * UNESCO_THESAURUS_DIR wins, then the `shared` folder beside the checkout, then /work/shared.
 */
export const UNESCO_THESAURUS = (() => {
  const candidates = [
    process.env.UNESCO_THESAURUS_DIR,
    fileURLToPath(new URL('../../../shared/datasets/unesco-thesaurus/', import.meta.url)),
    '/work/shared/datasets/unesco-thesaurus/',
  ].filter((c): c is string => Boolean(c));
  const folder = candidates.find((c) => existsSync(c)) ?? candidates[0]!;
  return `${folder.endsWith('/') ? folder : `${folder}/`}unesco-thesaurus.ttl`;
})();

export const SKOS = 'http://www.w3.org/2004/02/skos/core#';

export interface Summary {
  dictionaryId: number;
  concepts: number;
  terms: number;
  updated: number;
  skipped: number;
  errors: { line: number; message: string }[];
  errorCount: number;
}

export const query = (params: Record<string, string | number | undefined>) => {
  const entries = Object.entries(params).filter(([, v]) => v !== undefined) as [string, string | number][];
  return entries.length ? `?${new URLSearchParams(entries.map(([k, v]) => [k, String(v)])).toString()}` : '';
};

export async function waitForJob(server: Server, token: string, id: number) {
  for (const deadline = Date.now() + 300_000; Date.now() < deadline; ) {
    const response = await fetch(`${server.base}/api/v4/jobs/${id}`, { headers: { 'x-auth-token': token } });
    const job = (await response.json()) as { status: string; result: unknown; message: string | null };
    if (job.status !== 'RUNNING') return job;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`job ${id} still running`);
}

/** POST /dictionaries/import-skos; answers the status and, once done, the summary (or the error body). */
export async function importSkos(
  server: Server,
  token: string,
  content: string | Buffer,
  fileName: string,
  params: Record<string, string | number | undefined> = {},
): Promise<{ status: number; summary?: Summary; message?: string }> {
  const form = new FormData();
  form.append('file', new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), fileName);
  const response = await fetch(`${server.base}/api/v4/dictionaries/import-skos${query(params)}`, {
    method: 'POST',
    headers: { 'x-auth-token': token },
    body: form,
  });
  const body = (await response.json()) as { result?: Summary; jobTaskId?: number; message?: string };
  if (response.status === 202) {
    const job = await waitForJob(server, token, body.jobTaskId!);
    if (job.status !== 'DONE') throw new Error(`import failed: ${job.message}`);
    return { status: 200, summary: job.result as Summary };
  }
  return { status: response.status, summary: body.result, message: body.message };
}

/** GET /dictionaries/export-skos/{id}. */
export async function exportSkos(
  server: Server,
  token: string,
  id: number,
  params: Record<string, string | number | undefined> = {},
) {
  const response = await fetch(`${server.base}/api/v4/dictionaries/export-skos/${id}${query(params)}`, {
    headers: { 'x-auth-token': token },
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** The triples of a Turtle text, by N3.js. */
export const turtleQuads = (text: string): Quad[] => new Parser().parse(text);

const LITERALS = ['prefLabel', 'altLabel', 'hiddenLabel', 'definition', 'scopeNote', 'note', 'example'];

/**
 * What a SKOS graph says of its concepts, comparable across files: per concept key (IRI), its labels and notes
 * as `property|lang|text` sorted, and its broader / related IRIs.
 */
export function conceptsOf(quads: readonly Quad[]) {
  const concepts = new Map<string, { labels: string[]; broader: string[]; related: string[] }>();
  const get = (iri: string) => {
    let found = concepts.get(iri);
    if (!found) {
      found = { labels: [], broader: [], related: [] };
      concepts.set(iri, found);
    }
    return found;
  };
  const typed = new Set(
    quads
      .filter((q) => q.predicate.value.endsWith('#type') && q.object.value === `${SKOS}Concept`)
      .map((q) => q.subject.value),
  );
  for (const quad of quads) {
    if (!typed.has(quad.subject.value)) continue;
    const local = quad.predicate.value.startsWith(SKOS) ? quad.predicate.value.slice(SKOS.length) : '';
    const concept = get(quad.subject.value);
    if (LITERALS.includes(local) && quad.object.termType === 'Literal') {
      concept.labels.push(`${local}|${quad.object.language}|${quad.object.value}`);
    } else if (local === 'broader') concept.broader.push(quad.object.value);
    else if (local === 'related') concept.related.push(quad.object.value);
  }
  for (const iri of typed) get(iri);
  for (const concept of concepts.values()) {
    concept.labels.sort();
    concept.broader.sort();
    concept.related.sort();
  }
  return concepts;
}
