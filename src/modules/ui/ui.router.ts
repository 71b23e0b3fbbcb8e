import { z } from 'zod';
import { authedProcedure, router } from '../../trpc/trpc.js';
import {
  AdminRightsSchema,
  MenuItemSchema,
  SessionDataSchema,
  SideMenuInputSchema,
  SideMenuSchema,
} from './ui.schema.js';
import * as ui from './ui.service.js';

const tags = ['user interface'];

export const uiRouter = router({
  sessionData: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/data', tags, summary: 'Session data: the caller as a User' } })
    .input(z.void())
    .output(SessionDataSchema)
    .query(({ ctx }) => ui.sessionData(ctx.scope)),

  rights: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/ui/rights',
        tags,
        summary: 'What the caller may administer: roles, and dictionaries by role or by a grant to a group',
        description:
          "dictionaries: the acting client's dictionaries whose structure the caller may change, by a DICTIONARY_ADMIN role or a permission scheme granting one of their groups DICT_READ with DICT_UPDATE or DICT_DELETE (the web application's administration pages follow it; the server decides each call).",
      },
    })
    .input(z.void())
    .output(AdminRightsSchema)
    .query(({ ctx }) => ui.adminRights(ctx.scope)),

  topMenu: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/ui/menu/top',
        tags,
        summary: "Top menu of the administration view, filtered by the caller's roles",
      },
    })
    .input(z.void())
    .output(z.array(MenuItemSchema))
    .query(({ ctx }) => ui.topMenu(ctx.scope)),

  sideMenu: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/ui/menu/side/{idx}',
        tags,
        summary: 'The top item at idx with its side menu in items',
        description: 'idx indexes the array GET /ui/menu/top answers the same caller; beyond its end 404.',
        errorResponses: [400, 401, 404],
      },
    })
    .input(SideMenuInputSchema)
    .output(SideMenuSchema)
    .query(({ ctx, input }) => ui.sideMenu(ctx.scope, input.idx)),
});
