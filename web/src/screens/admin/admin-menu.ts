import { trpc } from '../../api';

export type SideMenu = Awaited<ReturnType<typeof trpc.ui.sideMenu.query>>;

let menu: Promise<SideMenu[]> | null = null;

/**
 * The administration menu as the server filters it for the caller (src/modules/ui/menu.ts): the top
 * items, each with its side menu. Asked once per session; forgetAdminMenu() after sign-in or a role change.
 */
export function loadAdminMenu(): Promise<SideMenu[]> {
  menu ??= trpc.ui.topMenu
    .query()
    .then((top) => Promise.all(top.map((_, idx) => trpc.ui.sideMenu.query({ idx }))))
    .catch((error: unknown) => {
      menu = null;
      throw error;
    });
  return menu;
}

export function forgetAdminMenu(): void {
  menu = null;
}

/** The top item whose side menu holds the longest href that `path` starts with. */
export function sectionOf(sections: SideMenu[], path: string): SideMenu | undefined {
  let best: { section: SideMenu; length: number } | undefined;
  for (const section of sections) {
    for (const item of section.items) {
      const within = path === item.href || path.startsWith(`${item.href}/`);
      if (within && item.href.length > (best?.length ?? 0)) best = { section, length: item.href.length };
    }
  }
  return best?.section;
}

/** The catalogue key of a menu href ('/admin/users/guest' → 'menu.users_guest'). */
export function menuKey(href: string): string {
  return `menu.${href.replace(/^\/admin\/?/, '').replace(/[/-]/g, '_') || 'home'}`;
}
