/** The form controls every screen uses: native elements, labelled, with one look and one behaviour. */
import { useTranslation } from 'react-i18next';

export interface Option {
  value: string;
  label: string;
}

/** How a search matches, labelled in the interface language. */
export function useMatchModes(): Option[] {
  const { t } = useTranslation();
  return [
    { value: 'PREFIX', label: t('match.PREFIX') },
    { value: 'SUBSTRING', label: t('match.SUBSTRING') },
    { value: 'EXACT', label: t('match.EXACT') },
  ];
}

/** An error of the server or of the form, announced to screen readers. */
export function ErrorMessage({ text }: { text: string | null | undefined }) {
  if (!text) return null;
  return (
    <p className="error" role="alert">
      {text}
    </p>
  );
}

/** A labelled select; `empty` adds a first option with the value '' (none, all, any). */
export function Choice(props: {
  label: string;
  value: string | number;
  options: Option[];
  onChange: (value: string) => void;
  empty?: string;
  disabled?: boolean;
  /** The id of the server's messages about this choice (they mark it invalid). */
  describedBy?: string;
}) {
  return (
    <label>
      {props.label}
      <select
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        disabled={props.disabled}
        aria-invalid={props.describedBy ? true : undefined}
        aria-describedby={props.describedBy}
      >
        {props.empty !== undefined && <option value="">{props.empty}</option>}
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A fieldset of checkboxes choosing some of `options`, in the order they are chosen. */
export function CheckList(props: {
  legend: string;
  options: Option[];
  chosen: string[];
  onChange: (chosen: string[]) => void;
  className?: string;
  describedBy?: string;
}) {
  const { chosen, onChange } = props;
  return (
    <fieldset className={props.className} aria-describedby={props.describedBy}>
      <legend>{props.legend}</legend>
      {props.options.map((option) => (
        <label key={option.value} className="check">
          <input
            type="checkbox"
            checked={chosen.includes(option.value)}
            onChange={(e) =>
              onChange(
                e.target.checked ? [...chosen, option.value] : chosen.filter((v) => v !== option.value),
              )
            }
          />
          {option.label}
        </label>
      ))}
    </fieldset>
  );
}

/** A labelled checkbox. */
export function Check(props: { label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="check">
      <input type="checkbox" checked={props.checked} onChange={(e) => props.onChange(e.target.checked)} />
      {props.label}
    </label>
  );
}

/** Languages as options: name, and the code where `withCode`. */
export function languageOptions(languages: { code: string; name: string }[], withCode = false): Option[] {
  return languages.map((l) => ({ value: l.code, label: withCode ? `${l.name} (${l.code})` : l.name }));
}

/** Dictionaries as options, by id. */
export function dictionaryOptions(dictionaries: { id: number; name?: string }[]): Option[] {
  return dictionaries.map((d) => ({ value: String(d.id), label: d.name ?? String(d.id) }));
}
