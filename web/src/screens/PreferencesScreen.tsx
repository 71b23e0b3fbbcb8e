import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemOf, trpc } from '../api';
import {
  Check,
  CheckList,
  Choice,
  languageOptions,
  type Option,
  useMatchModes,
} from '../components/controls';
import { columnOptions } from '../components/result-columns';
import {
  languagesOf,
  loadDictionaries,
  loadSearchSettings,
  rememberSearchSettings,
  type SearchSettings,
  useLoaded,
} from '../data';
import { InterfaceLanguageChoice } from '../layout/InterfaceLanguageChoice';

/**
 * Preferences kept per user on the server, in the search settings (docs/search-settings.md): the language
 * searched, the working languages (the result columns and the languages a concept opens with) and how
 * a search matches; and, kept in this browser, the interface language.
 */
export default function PreferencesScreen() {
  // The column names are the search screen's (`search:columns`).
  const { t } = useTranslation(['preferences', 'search']);
  const loaded = useLoaded(() => Promise.all([loadDictionaries(), loadSearchSettings()]), 'preferences');
  if (loaded.error) return <p role="alert">{loaded.error.message}</p>;
  if (!loaded.data) return <p role="status">{t('common:loading')}</p>;
  const [dictionaries, settings] = loaded.data;
  if (!settings)
    return (
      <div className="stack">
        <h1>{t('title')}</h1>
        <InterfaceLanguageChoice />
        <p>{t('notKept')}</p>
      </div>
    );
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
  const { t } = useTranslation('preferences');
  const matchModes = useMatchModes();
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
      setMessage({ text: t('saved'), error: false });
    } catch (caught) {
      setMessage({ text: problemOf(caught).message, error: true });
    }
  }

  return (
    <form className="stack" onSubmit={save} aria-labelledby="prefs-title">
      <h1 id="prefs-title">{t('title')}</h1>
      <InterfaceLanguageChoice />
      <Choice
        label={t('searchIn')}
        value={value.sourceLanguage ?? ''}
        options={languageOptions(languages)}
        empty={t('firstLanguage')}
        onChange={(code) => setValue({ ...value, sourceLanguage: code || null })}
      />
      <CheckList
        legend={t('workingLanguages')}
        options={languageOptions(languages)}
        chosen={value.targetLanguages}
        onChange={(targetLanguages) => setValue({ ...value, targetLanguages })}
      />
      <CheckList
        legend={t('otherColumns')}
        className="columns-choice"
        options={columns}
        chosen={value.resultColumns}
        onChange={(resultColumns) => setValue({ ...value, resultColumns })}
      />
      <Choice
        label={t('match')}
        value={value.searchMode}
        options={matchModes}
        onChange={(mode) => setValue({ ...value, searchMode: mode as SearchSettings['searchMode'] })}
      />
      <Check
        label={t('normalized')}
        checked={value.normalized}
        onChange={(normalized) => setValue({ ...value, normalized })}
      />
      <Check label={t('fuzzy')} checked={value.fuzzy} onChange={(fuzzy) => setValue({ ...value, fuzzy })} />
      <label>
        {t('pageSize')}
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
          {t('save')}
        </button>
      </div>
    </form>
  );
}
