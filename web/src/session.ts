/**
 * The signed-in session. The token lives in memory and in sessionStorage, which belongs to this tab and
 * ends with it (a reload keeps the session, a new tab or a closed browser does not); never localStorage
 * and never a cookie written by this code.
 */
export interface Session {
  token: string;
  expirationTime: number;
  username: string;
  client: string;
  guest: boolean;
}

const KEY = 'polyterm.session';
let current: Session | null = read();
const listeners = new Set<() => void>();

function read(): Session | null {
  try {
    const text = sessionStorage.getItem(KEY);
    return text ? (JSON.parse(text) as Session) : null;
  } catch {
    return null;
  }
}

export function getSession(): Session | null {
  return current;
}

/** Why the last session ended, when not by signing out: the sign-in page says so. */
export type SessionEnd = 'expired';
let ended: SessionEnd | null = null;

export function sessionEnd(): SessionEnd | null {
  return ended;
}

export function setSession(session: Session | null, why: SessionEnd | null = null): void {
  current = session;
  ended = session ? null : why;
  if (session) sessionStorage.setItem(KEY, JSON.stringify(session));
  else sessionStorage.removeItem(KEY);
  for (const listener of listeners) listener();
}

export function onSessionChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
