import { type FormEvent, useState } from 'react';
import { problemOf, trpc } from '../api';
import { Check, CheckList, Choice, languageOptions, MATCH_MODES, type Option } from '../components/controls';
import { columnOptions } from '../components/result-columns';
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
  return (
    <PreferencesForm
      languages={languagesOf(dictionaries)}
      columns={columnOptions(dictionaries)}
      settings={settings}
    />
  );
}

function PreferencesForm({
  languages,
  columns,
  settings,
}: {
  languages: { code: string; name: string }[];
  columns: Option[];
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
        // Kept as they are: PUT replaces every attribute, and this form does not show these.
        defaultDictionaryIds: value.defaultDictionaryIds,
        fuzziness: value.fuzziness,
        multiAllFields: value.multiAllFields,
        sectionOids: value.sectionOids,
        resultColumns: value.resultColumns,
      });
      rememberSearchSettings(saved);
      setValue(saved);
      setMessage({ text: 'Preferences saved.', error: false });
    } catch (caught) {
      setMessage({ text: problemOf(caught).message, error: true });
    }
  }

  return (
    <form className="stack" onSubmit={save} aria-labelledby="prefs-title">
      <h1 id="prefs-title">Preferences</h1>
      <Choice
        label="Search in"
        value={value.sourceLanguage ?? ''}
        options={languageOptions(languages)}
        empty="The first language of the dictionary"
        onChange={(code) => setValue({ ...value, sourceLanguage: code || null })}
      />
      <CheckList
        legend="Working languages (result columns and concept view)"
        options={languageOptions(languages)}
        chosen={value.targetLanguages}
        onChange={(targetLanguages) => setValue({ ...value, targetLanguages })}
      />
      <CheckList
        legend="Other result columns"
        className="columns-choice"
        options={columns}
        chosen={value.resultColumns}
        onChange={(resultColumns) => setValue({ ...value, resultColumns })}
      />
      <Choice
        label="Match"
        value={value.searchMode}
        options={MATCH_MODES}
        onChange={(mode) => setValue({ ...value, searchMode: mode as SearchSettings['searchMode'] })}
      />
      <Check
        label="Ignore case and accents"
        checked={value.normalized}
        onChange={(normalized) => setValue({ ...value, normalized })}
      />
      <Check
        label="Fuzzy matching"
        checked={value.fuzzy}
        onChange={(fuzzy) => setValue({ ...value, fuzzy })}
      />
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
