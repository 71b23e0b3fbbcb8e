import { useEffect, useState } from 'react';
import { trpc } from '../../../api';
import { getSession } from '../../../session';

type AdminRights = Awaited<ReturnType<typeof trpc.ui.rights.query>>;

/**
 * What the caller may do with dictionaries, as the server answers it (`ui.rights`; the server still
 * decides every call): client administrators (ADMIN, SYSADMIN) create, copy and import dictionaries; a
 * dictionary's administrators — its DICTIONARY_ADMIN@… role, or a permission scheme granting one of
 * their groups DICT_UPDATE there — change its structure.
 */
export interface Rights {
  admin: boolean;
  administers(dictionary: { id: number; oid?: string | null }): boolean;
}

const NONE: AdminRights = { sysadmin: false, admin: false, userEditor: false, dictionaries: [] };

let cached: { token: string; rights: Promise<AdminRights> } | null = null;

function loadRights(): Promise<AdminRights> {
  const token = getSession()?.token ?? '';
  if (cached?.token !== token) {
    cached = { token, rights: trpc.ui.rights.query().catch(() => NONE) };
  }
  return cached.rights;
}

export function rightsOf(answer: AdminRights): Rights {
  const granted = new Set(answer.dictionaries.filter((d) => d.update).map((d) => d.id));
  return {
    admin: answer.admin,
    administers: (dictionary) => answer.admin || granted.has(dictionary.id),
  };
}

/** The caller's rights, undefined while they load. */
export function useRights(): Rights | undefined {
  const [rights, setRights] = useState<Rights>();
  useEffect(() => {
    let live = true;
    void loadRights().then((answer) => live && setRights(rightsOf(answer)));
    return () => {
      live = false;
    };
  }, []);
  return rights;
}
