import { type RefObject, useEffect, useRef } from 'react';
import { type EditorProblems, noProblems } from './editor-problems';

/**
 * The server's problems that name no control, shown beside the button that sent the edit (they sat
 * at the top of the editor, a long scroll above it). When a save is refused, focus moves to what to
 * fix: the first control marked invalid (its message beside it), else these messages, else the first
 * message placed beside a control that cannot take focus.
 */
export function SaveProblems({
  problems,
  form,
}: {
  problems: EditorProblems;
  form: RefObject<HTMLFormElement | null>;
}) {
  const alert = useRef<HTMLDivElement>(null);
  const general = problems.general;
  useEffect(() => {
    const within = form.current;
    // Cleared as a save starts: nothing to point at.
    if (!within || problems === noProblems) return;
    const control = within.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (control) control.focus();
    else if (alert.current) alert.current.focus();
    else within.querySelector<HTMLElement>('.field-error')?.scrollIntoView({ block: 'center' });
  }, [form, problems]);
  if (general.length === 0) return null;
  return (
    <div role="alert" className="error save-problems" ref={alert} tabIndex={-1}>
      {general.map((text) => (
        <p key={text}>{text}</p>
      ))}
    </div>
  );
}
