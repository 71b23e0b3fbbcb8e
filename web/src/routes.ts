import { useEffect, useState } from 'react';

/**
 * Every screen keeps its state in the URL (path and query), so a link or a reload opens the same view.
 * The server answers index.html on these paths (src/modules/web-app/web-app.routes.ts, WEB_APP_PAGES).
 */
const CHANGE = 'polyterm:navigate';

/**
 * Asked before an in-app move to another page (work/leave-guard.ts); false keeps the page. `here` is the
 * page's URL, where Back or Forward return to when the user stays.
 */
let leaveCheck: { ask: () => boolean; here: string } | null = null;

export function setLeaveCheck(check: { ask: () => boolean; here: string } | null): void {
  leaveCheck = check;
}

// Registered when this module loads, before useLocation's listener, which it stops when the user stays.
window.addEventListener('popstate', (event) => {
  if (!leaveCheck || location.pathname === new URL(leaveCheck.here, location.href).pathname) return;
  if (leaveCheck.ask()) return;
  event.stopImmediatePropagation();
  history.pushState(null, '', leaveCheck.here);
});

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (to === location.pathname + location.search) return;
  if (leaveCheck && new URL(to, location.href).pathname !== location.pathname && !leaveCheck.ask()) return;
  if (options.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  window.dispatchEvent(new Event(CHANGE));
}

export function useLocation(): { path: string; query: URLSearchParams } {
  const [href, setHref] = useState(location.href);
  useEffect(() => {
    const update = () => setHref(location.href);
    window.addEventListener('popstate', update);
    window.addEventListener(CHANGE, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(CHANGE, update);
    };
  }, []);
  const url = new URL(href);
  return { path: url.pathname, query: url.searchParams };
}

/** A path with a query built from the members that have a value (empty strings and lists left out). */
export function withQuery(
  path: string,
  params: Record<string, string | number | boolean | undefined | null>,
) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '' || value === false) continue;
    query.set(key, value === true ? '1' : String(value));
  }
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

export function idList(value: string | null): number[] {
  return (value ?? '')
    .split(',')
    .map(Number)
    .filter((id) => Number.isInteger(id) && id > 0);
}

export function codeList(value: string | null): string[] {
  return (value ?? '').split(',').filter((code) => code !== '');
}

/** Plain left clicks on in-app links navigate without reloading; others (new tab) keep the browser's way. */
export function onLinkClick(event: React.MouseEvent<HTMLAnchorElement>) {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  navigate(event.currentTarget.getAttribute('href') ?? '/');
}
