/**
 * One live-event connection for the whole tab: the SSE change feed (`GET /api/v4/events/stream`,
 * docs/events.md) read with fetch, because EventSource cannot send the X-Auth-Token header. Screens
 * subscribe with useLiveEvents; the stream is open while some screen listens and a (non-guest) session
 * exists, resumes after the last sequence it saw (events or heartbeats) when it reconnects with backoff,
 * and closes when the session ends.
 */
import { useEffect, useRef } from 'react';
import { getSession, onSessionChange, setSession } from '../session';
import { whenQuiet } from './quiet';

export interface LiveEvent {
  sequence: number;
  type: string;
  dictionaryId: number | null;
  sectionId: number | null;
  conceptId: number | null;
  termId: number | null;
  actorId: number | null;
  occurredAt: string;
  data: Record<string, unknown>;
}

type Listener = (event: LiveEvent) => void;

const listeners = new Set<Listener>();
let connection: AbortController | null = null;
let lastSequence: string | null = null;
let failures = 0;
// A refusal that retrying will not change (403 for a guest, 400): no stream until the session changes.
let refused = false;
let pending: ReturnType<typeof setTimeout> | undefined;
// Opened once the screen's own requests have been done for a second (quiet.ts).
const OPEN_DELAY_MS = 1000;

function mark(state: 'open' | 'closed'): void {
  document.documentElement.dataset.live = state;
}

function close(): void {
  clearTimeout(pending);
  pending = undefined;
  connection?.abort();
  connection = null;
  mark('closed');
}

function schedule(delay: number): void {
  if (pending !== undefined || connection) return;
  pending = setTimeout(() => {
    pending = undefined;
    void open();
  }, delay);
}

function wanted(): boolean {
  const session = getSession();
  return listeners.size > 0 && session !== null && !session.guest;
}

function dispatch(block: string): void {
  let id: string | undefined;
  let data = '';
  for (const line of block.split('\n')) {
    if (line.startsWith('id:')) id = line.slice(3).trim();
    else if (line.startsWith('data:')) data += line.slice(5).trimStart();
  }
  if (id && /^\d+$/.test(id)) lastSequence = id;
  if (!data) return;
  let event: LiveEvent;
  try {
    event = JSON.parse(data) as LiveEvent;
  } catch {
    return;
  }
  for (const listener of [...listeners]) {
    try {
      listener(event);
    } catch (error) {
      console.error(error);
    }
  }
}

async function open(): Promise<void> {
  if (failures === 0) {
    await whenQuiet(OPEN_DELAY_MS);
    if (connection) return;
  }
  const session = getSession();
  if (!wanted() || !session || connection) return;
  const abort = new AbortController();
  connection = abort;
  try {
    const query = lastSequence ? `?after=${lastSequence}` : '';
    const response = await fetch(`/api/v4/events/stream${query}`, {
      headers: { 'x-auth-token': session.token, accept: 'text/event-stream' },
      signal: abort.signal,
      cache: 'no-store',
    });
    if (response.status === 401) {
      if (getSession()) setSession(null, 'expired');
      return;
    }
    // A refusal that will not change by retrying (403 for a guest, 400) leaves the tab without live updates.
    if (response.status === 403 || response.status === 400) {
      refused = true;
      failures = 10;
      throw new Error(`live events refused: ${response.status}`);
    }
    if (!response.ok || !response.body) throw new Error(`live events: ${response.status}`);
    failures = 0;
    mark('open');
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value.replaceAll('\r\n', '\n');
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        dispatch(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
      }
    }
  } catch {
    // Dropped, refused or aborted: decided below.
  }
  if (connection !== abort) return; // closed on purpose (sign-out, no listener left)
  connection = null;
  mark('closed');
  if (!wanted() || refused) return;
  failures += 1;
  // 1 s, 2 s, 4 s ... up to a minute, with jitter so that a restarted server is not met by every tab at once.
  const delay = Math.min(60_000, 1000 * 2 ** Math.min(failures - 1, 6)) * (0.75 + Math.random() / 2);
  schedule(delay);
}

onSessionChange(() => {
  const session = getSession();
  if (!session) {
    close();
    lastSequence = null; // the next user starts afresh
    failures = 0;
    refused = false;
  } else if (wanted()) schedule(OPEN_DELAY_MS);
});

// Back online after the stream dropped: reconnect now (resuming after the last id seen) rather than at
// the end of a backoff that grew while the network was away.
window.addEventListener('online', () => {
  if (connection || refused || !wanted()) return;
  clearTimeout(pending);
  pending = undefined;
  schedule(0);
});

/** Listens to live events; the connection opens with the first listener and closes with the last. */
export function subscribeLive(listener: Listener): () => void {
  listeners.add(listener);
  if (!refused) schedule(OPEN_DELAY_MS);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      // A moment's grace: moving from one screen to the next keeps the stream (and its position).
      setTimeout(() => {
        if (listeners.size === 0) close();
      }, 5000);
    }
  };
}

/** Calls `handler` (the latest one rendered) for every live event while the component is mounted. */
export function useLiveEvents(handler: Listener, enabled = true): void {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    if (!enabled) return;
    return subscribeLive((event) => latest.current(event));
  }, [enabled]);
}

/**
 * Calls `refresh` once for a burst of relevant events (a bulk move is many events), at most every
 * `wait` ms.
 */
export function useLiveRefresh(relevant: (event: LiveEvent) => boolean, refresh: () => void, wait = 400) {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef(refresh);
  latest.current = refresh;
  useEffect(() => () => clearTimeout(timer.current), []);
  useLiveEvents((event) => {
    if (!relevant(event) || timer.current !== undefined) return;
    timer.current = setTimeout(() => {
      timer.current = undefined;
      latest.current();
    }, wait);
  });
}
