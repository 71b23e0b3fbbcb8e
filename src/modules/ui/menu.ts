import type { MenuItem, SideMenu } from './ui.schema.js';

/** What decides which menu items a caller sees. */
export interface MenuViewer {
  sysadmin: boolean;
  /** ADMIN in the acting client, or SYSADMIN. */
  admin: boolean;
  userEditor: boolean;
  /** Administers at least one dictionary: a DICTIONARY_ADMIN@<dictionary> role or a scheme's DICT_UPDATE grant. */
  dictionaryAdmin: boolean;
  guest: boolean;
  /** The client's guest settings let guests change search settings (enableSearchModes). */
  guestSearchModes: boolean;
  /** A licence key is configured, so a licence can be applied. */
  licensing: boolean;
}

interface Page {
  href: string;
  label: string;
  title: string;
  icon: string;
  visible: (viewer: MenuViewer) => boolean;
  disabled?: (viewer: MenuViewer) => boolean;
}

interface Section {
  label: string;
  title: string;
  icon: string;
  /** The side menu; the top item shows when one of its pages does, and opens the first visible one. */
  pages: Page[];
}

const admins = (viewer: MenuViewer) => viewer.admin;
const sysadmins = (viewer: MenuViewer) => viewer.sysadmin;
const notGuests = (viewer: MenuViewer) => !viewer.guest;

/** The administration view, in order. Roles come from the acting client (see auth.service rolesActingIn). */
const MENU: Section[] = [
  {
    label: 'Dictionaries',
    title: 'Dictionaries, their structure and definitions',
    icon: 'fa fa-book',
    pages: [
      {
        href: '/admin/dictionaries',
        label: 'Dictionaries',
        title: 'Dictionaries and their languages, fields, sections and domains',
        icon: 'fa fa-book',
        visible: (viewer) => viewer.admin || viewer.dictionaryAdmin,
      },
      {
        href: '/admin/feedback',
        label: 'Feedback',
        title: 'Feedback of readers on the dictionaries: answer and close it',
        icon: 'fa fa-comments',
        visible: (viewer) => viewer.admin || viewer.dictionaryAdmin,
      },
      {
        href: '/admin/dictionaries/import',
        label: 'Import a definition',
        title: 'Create or update a dictionary from an exported definition',
        icon: 'fa fa-upload',
        visible: admins,
      },
    ],
  },
  {
    label: 'Users',
    title: 'User accounts of the client',
    icon: 'fa fa-user',
    pages: [
      {
        href: '/admin/users',
        label: 'Users',
        title: 'User accounts of the client',
        icon: 'fa fa-user',
        visible: (viewer) => viewer.admin || viewer.userEditor,
      },
      {
        href: '/admin/users/transfer',
        label: 'Import and export',
        title: 'Move users and groups between installations',
        icon: 'fa fa-exchange',
        visible: admins,
      },
      {
        href: '/admin/users/guest',
        label: 'Guest access',
        title: 'Anonymous access to the client',
        icon: 'fa fa-user-secret',
        visible: admins,
      },
    ],
  },
  {
    label: 'Groups',
    title: 'Groups, their members, views and filters',
    icon: 'fa fa-users',
    pages: [
      {
        href: '/admin/groups',
        label: 'Groups',
        title: 'Groups, their members, views and filters',
        icon: 'fa fa-users',
        visible: admins,
      },
    ],
  },
  {
    label: 'Permission schemes',
    title: 'Who may do what in dictionaries and sections',
    icon: 'fa fa-key',
    pages: [
      {
        href: '/admin/permission-schemes',
        label: 'Permission schemes',
        title: 'Who may do what in dictionaries and sections',
        icon: 'fa fa-key',
        visible: admins,
      },
      {
        href: '/admin/roles',
        label: 'Roles',
        title: 'Roles that can be given to users',
        icon: 'fa fa-id-badge',
        visible: admins,
      },
    ],
  },
  {
    label: 'Clients',
    title: 'Clients of the installation',
    icon: 'fa fa-building',
    pages: [
      {
        href: '/admin/clients',
        label: 'Clients',
        title: 'Clients of the installation and their limits',
        icon: 'fa fa-building',
        visible: sysadmins,
      },
      {
        href: '/admin/license',
        label: 'Licence',
        title: 'The licence in force; apply a new one',
        icon: 'fa fa-certificate',
        visible: sysadmins,
        disabled: (viewer) => !viewer.licensing,
      },
    ],
  },
  {
    label: 'Settings',
    title: 'Settings of the client and the installation',
    icon: 'fa fa-cog',
    pages: [
      {
        href: '/admin/settings/mail',
        label: 'Mail settings',
        title: "Sender, reply-to and signature of the client's mail; the SMTP server; a test message",
        icon: 'fa fa-envelope',
        visible: admins,
      },
    ],
  },
  {
    label: 'Statistics',
    title: 'Visits, online users and API use',
    icon: 'fa fa-bar-chart',
    pages: [
      {
        href: '/admin/statistics',
        label: 'Summary',
        title: 'Totals since installation',
        icon: 'fa fa-bar-chart',
        visible: admins,
      },
      {
        href: '/admin/statistics/online-users',
        label: 'Online users',
        title: 'Sessions online now',
        icon: 'fa fa-signal',
        visible: admins,
      },
      {
        href: '/admin/statistics/month',
        label: 'By month',
        title: 'Visits and averages of one month',
        icon: 'fa fa-calendar',
        visible: admins,
      },
    ],
  },
  {
    label: 'My account',
    title: 'Your profile, password and search settings',
    icon: 'fa fa-id-card',
    pages: [
      {
        href: '/admin/profile',
        label: 'Profile',
        title: 'Your name, e-mail, title and interface language',
        icon: 'fa fa-id-card',
        visible: notGuests,
      },
      {
        href: '/admin/profile/password',
        label: 'Password',
        title: 'Change your password',
        icon: 'fa fa-lock',
        visible: notGuests,
      },
      {
        href: '/admin/search-settings',
        label: 'Search settings',
        title: 'Default dictionaries, languages and search mode',
        icon: 'fa fa-search',
        visible: (viewer) => !viewer.guest || viewer.guestSearchModes,
      },
    ],
  },
];

function item(page: Page, viewer: MenuViewer, parentHref: string | null): MenuItem {
  return {
    href: page.href,
    parentHref,
    title: page.title,
    label: page.label,
    icon: page.icon,
    v4: true,
    disabled: page.disabled?.(viewer) ?? false,
  };
}

/** The top menu with each item's side menu, holding only what the viewer may open. */
export function menuFor(viewer: MenuViewer): SideMenu[] {
  const menu: SideMenu[] = [];
  for (const section of MENU) {
    const pages = section.pages.filter((page) => page.visible(viewer));
    const first = pages[0];
    if (!first) continue;
    menu.push({
      href: first.href,
      parentHref: null,
      title: section.title,
      label: section.label,
      icon: section.icon,
      v4: true,
      disabled: false,
      items: pages.map((page) => item(page, viewer, first.href)),
    });
  }
  return menu;
}
