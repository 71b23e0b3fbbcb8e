/**
 * Term check (docs/decoration.md) on both engines: forbidden and deprecated terms with replacements,
 * missing approved translations, terms without an equivalent, and bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from '../concepts/concept-helpers.js';
import { ENGINES, startEngineServer } from '../search/search-helpers.js';
import { concept, type Termbase, termbase } from './decoration-helpers.js';

interface Checked {
  term: string;
  conceptId: number;
  start: number;
  end: number;
}
interface CheckBody {
  avoided: (Checked & { segment: string; status: string; replacements: { name: string }[] })[];
  missingTranslations: (Checked & { expected: { name: string }[] })[];
  noEquivalent: Checked[];
}

describe.each(ENGINES)('term check on %s', (engine) => {
  let server: Server;
  let base: Termbase;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    server = await startEngineServer(engine);
    base = await termbase(server);
    ids.fuel = (
      await concept(base, [
        { name: 'fuel pump', lang: 'eng', status: 'preferredTerm-admn-sts' },
        { name: 'petrol pump', lang: 'eng', status: 'deprecatedTerm-admn-sts' },
        { name: 'Kraftstoffpumpe', lang: 'deu', status: 'preferredTerm-admn-sts' },
        { name: 'Benzinpumpe', lang: 'deu', status: 'forbidden' },
      ])
    ).id;
    ids.filter = (
      await concept(base, [
        { name: 'oil filter', lang: 'eng' },
        { name: 'Ölfilter', lang: 'deu' },
      ])
    ).id;
    ids.heat = (await concept(base, [{ name: 'heat pump', lang: 'eng' }])).id;
  }, 180_000);
  afterAll(() => server?.close());

  it('answers avoided terms with replacements, missing translations and terms without equivalent', async () => {
    const source = 'Replace the petrol pump, the oil filter and the heat pump.';
    const target = 'Ersetzen Sie die Benzinpumpe, den Ölfilter und die Wärmepumpe.';
    const response = await base.admin.post<CheckBody>('/term-check', {
      sourceLang: 'eng',
      targetLang: 'deu',
      source,
      target,
    });
    expect(response.status, response.text).toBe(200);
    const { avoided, missingTranslations, noEquivalent } = response.body;
    expect(avoided.map((a) => [a.segment, a.term, a.status, a.replacements.map((r) => r.name)])).toEqual([
      ['source', 'petrol pump', 'deprecated', ['fuel pump']],
      ['target', 'Benzinpumpe', 'forbidden', ['Kraftstoffpumpe']],
    ]);
    expect(source.slice(avoided[0]!.start, avoided[0]!.end)).toBe('petrol pump');
    expect(target.slice(avoided[1]!.start, avoided[1]!.end)).toBe('Benzinpumpe');
    // The target uses the concept's forbidden term only: its approved translation is missing.
    expect(missingTranslations.map((m) => [m.term, m.expected.map((e) => e.name)])).toEqual([
      ['petrol pump', ['Kraftstoffpumpe']],
    ]);
    expect(noEquivalent.map((m) => [m.term, m.conceptId])).toEqual([['heat pump', ids.heat]]);
  });

  it('is quiet for a translation that uses the approved terms', async () => {
    const response = await base.admin.post<CheckBody>('/term-check', {
      sourceLang: 'eng',
      targetLang: 'deu',
      source: 'Change the fuel pumps and the oil filter.',
      target: 'Wechseln Sie die Kraftstoffpumpen und den Ölfilter.',
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ avoided: [], missingTranslations: [], noEquivalent: [] });
  });

  it('refuses bad input with 400 and too much text with 413', async () => {
    const bad = await base.admin.post('/term-check', { sourceLang: 'eng', source: 'x', target: 'y' });
    expect(bad.status).toBe(400);
    const large = await base.admin.post('/term-check', {
      sourceLang: 'eng',
      targetLang: 'deu',
      source: 'pump '.repeat(14_000),
      target: 'x',
    });
    expect(large.status).toBe(413);
  });
});
