/**
 * Previous and next for a paged list (feedback, staging areas' entries and decisions): nothing while
 * everything fits on one page. `onPage` gets the zero-based page to go to, undefined for the first so
 * that the URL stays short. The words come from the caller's catalogue.
 */
export function Pager({
  page,
  data,
  onPage,
  label,
  previous,
  next,
  status,
}: {
  page: number;
  data: { totalPages: number; first: boolean; last: boolean };
  onPage: (page: number | undefined) => void;
  /** The navigation's accessible name. */
  label: string;
  previous: string;
  next: string;
  /** Where the list stands, e.g. "Page 2 of 5". */
  status: string;
}) {
  if (data.totalPages <= 1) return null;
  return (
    <nav className="actions pager" aria-label={label}>
      <button type="button" disabled={data.first} onClick={() => onPage(page - 1 || undefined)}>
        {previous}
      </button>
      <span>{status}</span>
      <button type="button" disabled={data.last} onClick={() => onPage(page + 1)}>
        {next}
      </button>
    </nav>
  );
}
