/**
 * How the benchmarks print their figures: sizes, durations, medians, verdicts against a target, and
 * Markdown tables ready to paste into the README.
 */

export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** `part` as a whole percentage of `whole`: "83%". */
export const percent = (part: number, whole: number) => `${((part / whole) * 100).toFixed(0)}%`;

export const median = (values: number[]) =>
  ([...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0).toFixed(1);

export const verdict = (ok: boolean) => (ok ? 'ok' : 'MISSED');

/** A Markdown table: the header row, the separator, then one line a row. */
export function markdownTable(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), `|${header.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n');
}
