import { useTranslation } from 'react-i18next';
import { chooseLanguage, INTERFACE_LANGUAGES, type InterfaceLanguage } from '../i18n';

/**
 * The interface language, switched at once and remembered in this browser (until chosen, the browser's
 * language decides). Each language is named in itself and marked with its `lang`, so a screen reader
 * reads "Íslenska" as Icelandic whatever the interface language.
 */
export function InterfaceLanguageChoice() {
  const { t, i18n } = useTranslation('preferences');
  return (
    <label>
      {t('interfaceLanguage')}
      <select
        value={i18n.resolvedLanguage ?? i18n.language}
        onChange={(event) => void chooseLanguage(event.target.value as InterfaceLanguage)}
      >
        {INTERFACE_LANGUAGES.map((language) => (
          <option key={language.code} value={language.code} lang={language.code}>
            {language.name}
          </option>
        ))}
      </select>
    </label>
  );
}
