import { z } from 'zod';
import { UserOutputSchema } from '../user/user.schema.js';

const menuItemShape = {
  href: z.string().describe('address of the page in the user interface'),
  parentHref: z
    .string()
    .nullable()
    .describe('href of the top item a side item belongs to; null on top items'),
  title: z.string().describe('tooltip'),
  label: z.string().describe('text shown'),
  icon: z.string().describe('CSS classes of the icon'),
  v4: z.boolean().describe('served by the v4 interface'),
  disabled: z.boolean().describe('shown but not usable (e.g. the licence page without a licence key)'),
};

export const MenuItemSchema = z.object({
  ...menuItemShape,
  old: z
    .object(menuItemShape)
    .optional()
    .describe('the item of the previous implementation; absent when none (always, in Polyterm)'),
});
export type MenuItem = z.infer<typeof MenuItemSchema>;

/** A top item with its side menu; `items` is our addition (the spec shows a single Menu item). */
export const SideMenuSchema = MenuItemSchema.extend({
  items: z.array(MenuItemSchema).describe('the side menu: the pages of this top item the caller may open'),
});
export type SideMenu = z.infer<typeof SideMenuSchema>;

export const SideMenuInputSchema = z.object({
  idx: z.number().int().min(0).describe('index in the top menu array the caller received'),
});

export const SessionDataSchema = z.object({ user: UserOutputSchema.describe('the caller, FULL format') });
export type SessionData = z.infer<typeof SessionDataSchema>;

export const AdminRightsSchema = z.object({
  sysadmin: z.boolean(),
  admin: z.boolean().describe('administrator of the acting client (or system administrator)'),
  userEditor: z.boolean(),
  dictionaries: z
    .array(
      z.object({
        id: z.number().int(),
        update: z.boolean().describe('may change the structure (DICTIONARY_ADMIN, or DICT_UPDATE granted)'),
        delete: z.boolean().describe('may empty or delete it (DICTIONARY_ADMIN, or DICT_DELETE granted)'),
      }),
    )
    .describe(
      "the acting client's dictionaries the caller administers, by role or by a permission scheme's grant to a group",
    ),
});
export type AdminRights = z.infer<typeof AdminRightsSchema>;
