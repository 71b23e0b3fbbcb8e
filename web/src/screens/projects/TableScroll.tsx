import type { ReactNode } from 'react';

/**
 * A table that scrolls sideways inside its box when the window is narrower than the table. The box is
 * a named region in the tab order, so a keyboard can scroll it too (axe's scrollable-region-focusable).
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box must be reachable by keyboard
    <section className="table-scroll" tabIndex={0} aria-label={label}>
      {children}
    </section>
  );
}
