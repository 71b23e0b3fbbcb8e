import { type FormEvent, useState } from 'react';
import { problemOf, trpc } from '../api';
import {
  languagesOf,
  loadDictionaries,
  loadSearchSettings,
  rememberSearchSettings,
  type SearchSettings,
  useLoaded,
} from '../data';

/**
 * Preferences kept per user on the server, in the search settings (docs/search-settings.md): the language
 * searched, the working languages (the result columns and the languages a concept opens with) and how
 * a search matches.
 */
export default function PreferencesScreen() {
  const loaded = useLoaded(() => Promise.all([loadDictionaries(), loadSearchSettings()]), 'preferences');
  if (loaded.error) return <p role="alert">{loaded.error.message}</p>;
  if (!loaded.data) return <p role="status">Loading…</p>;
  const [dictionaries, settings] = loaded.data;
  if (!settings) return <p>Preferences are not kept for this session.</p>;
  return <PreferencesForm languages={languagesOf(dictionaries)} settings={settings} />;
}

function PreferencesForm({
  languages,
  settings,
}: {
  languages: { code: string; name: string }[];
  settings: SearchSettings;
}) {
  const [value, setValue] = useState(settings);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);

  async function save(event: FormEvent) {
    event.preventDefault();
    try {
      const saved = await trpc.searchSettings.update.mutate({
        version: value.version,
        sourceLanguage: value.sourceLanguage,
        targetLanguages: value.targetLanguages,
        searchMode: value.searchMode,
        normalized: value.normalized,
        fuzzy: value.fuzzy,
        pageSize: value.pageSize,
      });
      rememberSearchSettings(saved);
      setValue(saved);
      setMessage({ text: 'Preferences saved.', error: false });
    } catch (caught) {
      setMessage({ text: problemOf(caught).message, error: true });
    }
  }

  const toggle = (code: string, on: boolean) =>
    setValue({
      ...value,
      targetLanguages: on
        ? [...value.targetLanguages, code]
        : value.targetLanguages.filter((c) => c !== code),
    });

  return (
    <form className="stack" onSubmit={save} aria-labelledby="prefs-title">
      <h1 id="prefs-title">Preferences</h1>
      <label>
        Search in
        <select
          value={value.sourceLanguage ?? ''}
          onChange={(e) => setValue({ ...value, sourceLanguage: e.target.value || null })}
        >
          <option value="">The first language of the dictionary</option>
          {languages.map((l) => (
            <option key={l.code} value={l.code}>
              {l.name}
            </option>
          ))}
        </select>
      </label>
      <fieldset>
        <legend>Working languages (result columns and concept view)</legend>
        {languages.map((l) => (
          <label key={l.code} className="check">
            <input
              type="checkbox"
              checked={value.targetLanguages.includes(l.code)}
              onChange={(e) => toggle(l.code, e.target.checked)}
            />
            {l.name}
          </label>
        ))}
      </fieldset>
      <label>
        Match
        <select
          value={value.searchMode}
          onChange={(e) => setValue({ ...value, searchMode: e.target.value as SearchSettings['searchMode'] })}
        >
          <option value="PREFIX">Starts with</option>
          <option value="SUBSTRING">Contains</option>
          <option value="EXACT">Exactly</option>
        </select>
      </label>
      <label className="check">
        <input
          type="checkbox"
          checked={value.normalized}
          onChange={(e) => setValue({ ...value, normalized: e.target.checked })}
        />
        Ignore case and accents
      </label>
      <label className="check">
        <input
          type="checkbox"
          checked={value.fuzzy}
          onChange={(e) => setValue({ ...value, fuzzy: e.target.checked })}
        />
        Fuzzy matching
      </label>
      <label>
        Results per page
        <input
          type="number"
          min={1}
          max={500}
          value={value.pageSize}
          onChange={(e) => setValue({ ...value, pageSize: Number(e.target.value) })}
        />
      </label>
      {message && (
        <p role={message.error ? 'alert' : 'status'} className={message.error ? 'error' : undefined}>
          {message.text}
        </p>
      )}
      <div className="actions">
        <button type="submit" className="primary">
          Save preferences
        </button>
      </div>
    </form>
  );
}
