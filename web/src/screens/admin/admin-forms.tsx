/**
 * Form controls of the administration pages: each shows the server's messages about it beside it
 * (aria-describedby), from a FormProblems (structure/kit.tsx: zod issues by path, a sentence in `general`).
 */
import type { ReactNode } from 'react';
import { type FormProblems, Problems } from './structure/kit';

export { ConfirmButton, ConflictDialog, formProblems, Problems, useWrite } from './structure/kit';
export type { FormProblems };

interface FieldProps {
  label: string;
  /** Where the server's issues about this control are (e.g. 'username', 'user.email'). */
  path: string;
  problems: FormProblems;
}

export function TextField(
  props: FieldProps & {
    value: string;
    onChange: (value: string) => void;
    type?: 'text' | 'email' | 'password' | 'number' | 'date';
    required?: boolean;
    autoComplete?: string;
    maxLength?: number;
    hint?: string;
  },
) {
  const describedBy = props.problems.describedBy(props.path);
  return (
    <div className="admin-field">
      <label>
        {props.label}
        <input
          type={props.type ?? 'text'}
          value={props.value}
          onChange={(event) => props.onChange(event.target.value)}
          required={props.required}
          autoComplete={props.autoComplete}
          maxLength={props.maxLength}
          aria-invalid={describedBy ? true : undefined}
          aria-describedby={describedBy}
        />
      </label>
      {props.hint && <p className="hint">{props.hint}</p>}
      <Problems id={props.problems.id(props.path)} messages={props.problems.at(props.path)} />
    </div>
  );
}

export function CheckField(props: FieldProps & { checked: boolean; onChange: (checked: boolean) => void }) {
  const describedBy = props.problems.describedBy(props.path);
  return (
    <div className="admin-field">
      <label className="check">
        <input
          type="checkbox"
          checked={props.checked}
          onChange={(event) => props.onChange(event.target.checked)}
          aria-invalid={describedBy ? true : undefined}
          aria-describedby={describedBy}
        />
        {props.label}
      </label>
      <Problems id={props.problems.id(props.path)} messages={props.problems.at(props.path)} />
    </div>
  );
}

/** The submit button with what the server said about the whole form beside it, and a saved notice. */
export function SaveBar(props: {
  label: string;
  busy: boolean;
  problems: FormProblems;
  scope: string;
  saved?: string | null;
  children?: ReactNode;
}) {
  return (
    <div className="actions">
      <button type="submit" className="primary" disabled={props.busy}>
        {props.label}
      </button>
      {props.children}
      <Problems id={`${props.scope}-general`} messages={props.problems.general} />
      {props.saved && <p role="status">{props.saved}</p>}
    </div>
  );
}

/** The "Saved." notice of a page whose form starts afresh (a new key) after each save. */
export interface Notice {
  saved: string | null;
  setSaved: (text: string | null) => void;
}
