/** A small dictionary for the browser suites that only need something to show: one TBX upload. */
import { createTRPCClient, httpLink } from '@trpc/client';
import type { AppRouter } from '../../src/trpc/router.js';

function escapeXml(text: string) {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/**
 * Imports one concept per element of `concepts` (language code → term), with ids r1, r2, …, into a new
 * dictionary named `name`; answers its id once the import has finished.
 */
export async function importSmallTbx(
  base: string,
  token: string,
  name: string,
  concepts: Record<string, string>[],
): Promise<number> {
  const entries = concepts.map((terms, index) => {
    const langSecs = Object.entries(terms).map(
      ([lang, term]) =>
        `<langSec xml:lang="${lang}"><termSec><term>${escapeXml(term)}</term></termSec></langSec>`,
    );
    return `<conceptEntry id="r${index + 1}">${langSecs.join('')}</conceptEntry>`;
  });
  const tbx = `<?xml version="1.0" encoding="UTF-8"?>
<tbx type="TBX-Basic" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2">
<tbxHeader><fileDesc><sourceDesc><p>web test</p></sourceDesc></fileDesc></tbxHeader>
<text><body>${entries.join('\n')}</body></text></tbx>`;
  const form = new FormData();
  form.set('file', new Blob([tbx], { type: 'application/xml' }), 'seed.tbx');
  const response = await fetch(`${base}/api/v4/dictionaries/import-tbx?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { 'x-auth-token': token },
    body: form,
  });
  const body = (await response.json()) as { jobTaskId?: number; result?: { dictionaryId: number } };
  const api = createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${base}/trpc`, headers: { 'x-auth-token': token } })],
  });
  for (let tries = 0; !body.result && body.jobTaskId !== undefined && tries < 240; tries++) {
    const job = await api.jobs.get.query({ id: body.jobTaskId });
    if (job.status === 'FAILED') throw new Error(`seed import failed: ${job.message}`);
    if (job.status === 'DONE') body.result = job.result as { dictionaryId: number };
    else await new Promise((done) => setTimeout(done, 250));
  }
  if (!body.result) throw new Error(`seed import: ${response.status} ${JSON.stringify(body)}`);
  return body.result.dictionaryId;
}
