/**
 * sourceLanguage and targetLanguages by the one rule of language codes (docs/clients.md, "Language
 * codes"; issue 37): the language of each (en-US, ENG, ger) is read as the three-letter code the
 * dictionaries hold (eng-US, eng, deu), or is a custom language of the client's dictionaries; anything
 * else (xx, english) is 400. Region and script subtags stay as sent. Values already saved are kept as
 * they are, so a custom language deleted since does not block changing another setting.
 */
import type { Scope } from '../../shared/scope.js';
import { readLanguageCodes } from '../stemming/language-codes.js';
import type { SearchSettingValues } from './search-settings.schema.js';

/** The tags read by the rule; `what` names the attribute in the 400. */
async function readTags(scope: Scope, what: string, tags: readonly string[]): Promise<string[]> {
  if (!tags.length) return [];
  const split = tags.map((tag) => {
    const dash = tag.indexOf('-');
    return dash < 0 ? [tag, ''] : [tag.slice(0, dash), tag.slice(dash)];
  });
  const codes = await readLanguageCodes(
    scope,
    what,
    split.map(([code]) => code!),
    { clientId: scope.actor.clientId },
  );
  return codes.map((code, index) => `${code}${split[index]![1]}`);
}

export async function withLanguageCodes(
  scope: Scope,
  before: SearchSettingValues,
  values: SearchSettingValues,
): Promise<SearchSettingValues> {
  const source = values.sourceLanguage;
  const [sourceLanguage = null] =
    source === null || source === before.sourceLanguage
      ? [source]
      : await readTags(scope, 'sourceLanguage', [source]);
  const kept = new Set(before.targetLanguages);
  const added = values.targetLanguages.filter((tag) => !kept.has(tag));
  const read = new Map(
    (await readTags(scope, 'targetLanguages', added)).map((tag, index) => [added[index]!, tag]),
  );
  // en and eng named twice are one language.
  const targetLanguages = [...new Set(values.targetLanguages.map((tag) => read.get(tag) ?? tag))];
  return { ...values, sourceLanguage, targetLanguages };
}
