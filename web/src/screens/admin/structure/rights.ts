import { useEffect, useState } from 'react';
import { trpc } from '../../../api';
import { getSession } from '../../../session';

/**
 * What the caller may do with dictionaries, from the roles of the session (the server still decides
 * every call): client administrators (ADMIN, SYSADMIN) create, copy and import dictionaries; a
 * dictionary's own DICTIONARY_ADMIN@<oid or id> changes its structure.
 */
export interface Rights {
  admin: boolean;
  administers(dictionary: { id: number; oid?: string | null }): boolean;
}

let cached: { token: string; roles: Promise<string[]> } | null = null;

function loadRoles(): Promise<string[]> {
  const token = getSession()?.token ?? '';
  if (cached?.token !== token) {
    const roles = trpc.ui.sessionData.query().then(
      (data) => data.user.roles ?? [],
      () => [] as string[],
    );
    cached = { token, roles };
  }
  return cached.roles;
}

export function rightsOf(roles: string[]): Rights {
  const admin = roles.includes('ADMIN') || roles.includes('SYSADMIN');
  return {
    admin,
    administers: (dictionary) =>
      admin || roles.includes(`DICTIONARY_ADMIN@${dictionary.oid ?? String(dictionary.id)}`),
  };
}

/** The caller's rights, undefined while the roles load. */
export function useRights(): Rights | undefined {
  const [rights, setRights] = useState<Rights>();
  useEffect(() => {
    let live = true;
    void loadRoles().then((roles) => live && setRights(rightsOf(roles)));
    return () => {
      live = false;
    };
  }, []);
  return rights;
}
