/** What the structure pages share: the server's messages beside controls, 409 dialogs, jobs, confirmations. */
import * as Dialog from '@radix-ui/react-dialog';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ApiProblem, problemOf, trpc } from '../../../api';
import { type PathProblems, pathProblems } from '../../../components/workflow-messages';

/** The messages about one control; `id` is what the control names in aria-describedby. */
export function Problems({ id, messages }: { id: string; messages: string[] }) {
  if (messages.length === 0) return null;
  return (
    <div id={id} className="error" role="alert">
      {messages.map((message) => (
        <p key={message}>{message}</p>
      ))}
    </div>
  );
}

/**
 * The server's refusal of one form: zod issues by path (`at('name')`), and what names no path (a sentence
 * of the server, e.g. "A dictionary named … exists") in `general`, shown beside the form's button.
 */
export interface FormProblems extends PathProblems {
  general: string[];
  /** aria-describedby of the control at `path` when it has messages. */
  describedBy(path: string): string | undefined;
}

export function formProblems(problem: ApiProblem | null, scope: string): FormProblems {
  const byPath = pathProblems(problem, scope);
  let general: string[] = [];
  if (problem && problem.status !== 409) {
    try {
      const issues = JSON.parse(problem.message) as { path?: unknown[]; message?: string }[];
      general = Array.isArray(issues)
        ? issues.filter((issue) => !issue.path?.length).map((issue) => issue.message ?? '')
        : [problem.message];
    } catch {
      general = [problem.message];
    }
  }
  return {
    ...byPath,
    general,
    describedBy: (path) => (byPath.at(path).length ? byPath.id(path) : undefined),
  };
}

/** A write in progress: `run` sends it once at a time and keeps the refusal (a 409 in `conflict`). */
export function useWrite() {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  // A ref, not the state: a second click in the same frame must see the first one running.
  const running = useRef(false);
  async function run(write: () => Promise<unknown>): Promise<boolean> {
    if (running.current) return false;
    running.current = true;
    setBusy(true);
    setProblem(null);
    try {
      await write();
      return true;
    } catch (caught) {
      setProblem(problemOf(caught));
      return false;
    } finally {
      running.current = false;
      setBusy(false);
    }
  }
  const conflict = problem?.status === 409 ? problem : null;
  return { busy, problem, conflict, run, clear: () => setProblem(null) };
}

/**
 * The thing changed since it was loaded (409), as in the concept editor: save this edit over the other
 * one, take the saved one, or go back to editing.
 */
export function ConflictDialog(props: {
  problem: ApiProblem;
  onOverwrite: () => void;
  onTakeTheirs: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('structure');
  return (
    <Dialog.Root open onOpenChange={(open) => !open && props.onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title>{t('conflict.title')}</Dialog.Title>
          <Dialog.Description>{props.problem.message}</Dialog.Description>
          <div className="actions">
            <button type="button" className="primary" onClick={props.onOverwrite}>
              {t('conflict.overwrite')}
            </button>
            <button type="button" onClick={props.onTakeTheirs}>
              {t('conflict.takeTheirs')}
            </button>
            <Dialog.Close asChild>
              <button type="button">{t('conflict.back')}</button>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** A job answer: done now (result), or a job to wait for (202 with jobTaskId). */
export async function jobDone(answer: { result?: unknown; jobTaskId?: number }): Promise<unknown> {
  if (answer.jobTaskId === undefined) return answer.result;
  for (;;) {
    const task = await trpc.jobs.get.query({ id: answer.jobTaskId });
    if (task.status === 'DONE') return task.result;
    if (task.status === 'FAILED') throw new Error(task.message ?? 'The job failed');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/**
 * A button whose action is asked about first (it cannot be undone): the question, then the action or
 * Cancel, in place, so the question sits beside what asked it.
 */
export function ConfirmButton(props: {
  label: string;
  question: string;
  confirm: string;
  onConfirm: () => void;
  disabled?: boolean;
  danger?: boolean;
}) {
  const { t } = useTranslation('structure');
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" onClick={() => setAsking(true)} disabled={props.disabled}>
        {props.label}
      </button>
    );
  }
  return (
    <fieldset className="confirm">
      <legend>{props.question}</legend>
      <button
        type="button"
        className={props.danger ? 'danger' : 'primary'}
        onClick={() => {
          setAsking(false);
          props.onConfirm();
        }}
      >
        {props.confirm}
      </button>
      <button type="button" onClick={() => setAsking(false)}>
        {t('cancel')}
      </button>
    </fieldset>
  );
}

/** A wide table that scrolls sideways on a phone; the scrolling region takes focus so keys can scroll it. */
export function ScrollRegion({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (axe scrollable-region-focusable).
    <section className="table-scroll" aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}
