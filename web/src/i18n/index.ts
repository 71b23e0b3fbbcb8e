/**
 * The interface languages (docs/ui.md, "Interface languages"). Every string the application shows comes
 * from a message catalogue under ./locales/<language>/<namespace>.json, read with react-i18next's
 * `useTranslation(namespace)` (or `i18n.t` outside components). Catalogues load on demand, one file per
 * language and namespace, so the first screen fetches only what it shows.
 *
 * Namespaces are split by area so that a screen loads little and so that people working on different
 * areas do not edit the same file: `common` (menu, sign-in, shared controls, errors), `search`,
 * `concept` (view, editor, history, comments), `tbx`, `workflow`, `admin`, `preferences`, `check`.
 *
 * Plurals use i18next's `_one`/`_other` suffixes (Intl.PluralRules), dates and numbers go through
 * `formatDate`/`formatNumber` below (Intl, in the chosen language), never `toLocaleString()` bare.
 */
import i18next from 'i18next';
import resourcesToBackend from 'i18next-resources-to-backend';
import { initReactI18next } from 'react-i18next';

export const INTERFACE_LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'is', name: 'Íslenska' },
  { code: 'de', name: 'Deutsch' },
] as const;
export type InterfaceLanguage = (typeof INTERFACE_LANGUAGES)[number]['code'];

const STORAGE_KEY = 'polyterm.interfaceLanguage';

function isInterfaceLanguage(code: string | null | undefined): code is InterfaceLanguage {
  return INTERFACE_LANGUAGES.some((language) => language.code === code);
}

/** The language chosen in Preferences, else the first of the browser's languages we have, else English. */
export function preferredLanguage(): InterfaceLanguage {
  const chosen = localStorage.getItem(STORAGE_KEY);
  if (isInterfaceLanguage(chosen)) return chosen;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const primary = tag.toLowerCase().split('-')[0];
    if (isInterfaceLanguage(primary)) return primary;
  }
  return 'en';
}

// Vite turns this into one lazily loaded chunk per catalogue file.
const catalogues = import.meta.glob<{ default: Record<string, unknown> }>('./locales/*/*.json');

export const i18nReady = i18next
  .use(initReactI18next)
  .use(
    resourcesToBackend(async (language: string, namespace: string) => {
      const load = catalogues[`./locales/${language}/${namespace}.json`];
      if (!load) return {};
      return (await load()).default;
    }),
  )
  .init({
    lng: preferredLanguage(),
    fallbackLng: 'en',
    supportedLngs: INTERFACE_LANGUAGES.map((language) => language.code),
    ns: ['common'],
    defaultNS: 'common',
    // React escapes what it renders; i18next must not escape a second time.
    interpolation: { escapeValue: false },
    returnNull: false,
  });

i18next.on('languageChanged', (language) => {
  document.documentElement.lang = language;
});

/** Switches the interface language and remembers the choice in this browser. */
export async function chooseLanguage(language: InterfaceLanguage): Promise<void> {
  localStorage.setItem(STORAGE_KEY, language);
  await i18next.changeLanguage(language);
}

export function formatDate(
  ms: number,
  options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' },
): string {
  return new Intl.DateTimeFormat(i18next.language, options).format(new Date(ms));
}

export function formatTime(ms: number): string {
  return formatDate(ms, { timeStyle: 'short' });
}

export function formatNumber(value: number, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(i18next.language, options).format(value);
}

export { i18next };
