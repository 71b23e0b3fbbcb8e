import { useEffect, useState } from 'react';
import { trpc } from './api';
import { getSession } from './session';

/**
 * Who the caller is, as the server's session data says (`GET /data`): what the screens need to offer
 * only the actions the caller may use. The server still decides every call.
 */
export interface Caller {
  userId: number | null;
  guest: boolean;
  roles: string[];
  /** A client administrator (ADMIN, SYSADMIN). */
  admin: boolean;
  /** A client administrator, or the dictionary's own DICTIONARY_ADMIN@<oid or id>. */
  administers(dictionary: { id: number; oid?: string | null }): boolean;
}

let cached: { token: string; caller: Promise<Caller> } | null = null;

function callerOf(userId: number | null, roles: string[], guest: boolean): Caller {
  const admin = roles.includes('ADMIN') || roles.includes('SYSADMIN');
  return {
    userId,
    guest,
    roles,
    admin,
    administers: (dictionary) =>
      admin || roles.includes(`DICTIONARY_ADMIN@${dictionary.oid ?? String(dictionary.id)}`),
  };
}

/** The caller of this session, asked once per session token. */
export function loadCaller(): Promise<Caller> {
  const session = getSession();
  const token = session?.token ?? '';
  if (cached?.token !== token) {
    const caller = trpc.ui.sessionData.query().then(
      (data) => callerOf(data.user.id ?? null, data.user.roles ?? [], session?.guest ?? false),
      () => callerOf(null, [], session?.guest ?? false),
    );
    cached = { token, caller };
  }
  return cached.caller;
}

/** The caller, undefined while the session data loads. */
export function useCaller(): Caller | undefined {
  const [caller, setCaller] = useState<Caller>();
  useEffect(() => {
    let live = true;
    void loadCaller().then((loaded) => live && setCaller(loaded));
    return () => {
      live = false;
    };
  }, []);
  return caller;
}
