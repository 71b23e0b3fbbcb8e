/**
 * The interface's message catalogues (web/src/i18n/locales/<language>/<namespace>.json): every language
 * has every namespace and every key English has, no key English lacks, no empty message, and the same
 * interpolation placeholders as English, so a translated string never drops a value.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const localesDir = resolve(import.meta.dirname, '../../web/src/i18n/locales');
const languages = readdirSync(localesDir).sort();

function flatten(value: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof inner === 'string') out.set(path, inner);
    else for (const [k, v] of flatten(inner, path)) out.set(k, v);
  }
  return out;
}

function catalogue(language: string, namespace: string): Map<string, string> {
  return flatten(JSON.parse(readFileSync(join(localesDir, language, `${namespace}.json`), 'utf8')));
}

const placeholders = (text: string) =>
  [...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((m) => m[1]).sort();
/** Plural forms differ by language (Icelandic and German use _one/_other like English, others more). */
const baseKey = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, '');

describe('interface message catalogues', () => {
  const namespaces = readdirSync(join(localesDir, 'en')).map((file) => file.replace(/\.json$/, ''));

  it('has English, Icelandic and German', () => {
    expect(languages).toEqual(expect.arrayContaining(['en', 'is', 'de']));
  });

  for (const language of languages.filter((l) => l !== 'en')) {
    for (const namespace of namespaces) {
      it(`${language}/${namespace} matches English key for key`, () => {
        const english = catalogue('en', namespace);
        const other = catalogue(language, namespace);
        const englishKeys = [...new Set([...english.keys()].map(baseKey))].sort();
        const otherKeys = [...new Set([...other.keys()].map(baseKey))].sort();
        expect(otherKeys).toEqual(englishKeys);
        for (const [key, text] of other) {
          expect(text.trim(), `${language}/${namespace}:${key} is empty`).not.toBe('');
          const source =
            english.get(key) ?? english.get(`${baseKey(key)}_other`) ?? english.get(baseKey(key));
          expect(placeholders(text), `${language}/${namespace}:${key} placeholders`).toEqual(
            placeholders(source ?? ''),
          );
        }
      });
    }
  }
});
