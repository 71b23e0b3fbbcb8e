import { accessRouter } from '../modules/access/access.router.js';
import { authRouter } from '../modules/auth/auth.router.js';
import { clientRouter } from '../modules/client/client.router.js';
import { groupRouter } from '../modules/group/group.router.js';
import { guestRouter } from '../modules/guest/guest.router.js';
import { licenseRouter } from '../modules/license/license.router.js';
import { permissionSchemeRouter } from '../modules/permission/permission-scheme.router.js';
import { roleRouter } from '../modules/role/role.router.js';
import { systemRouter } from '../modules/system/system.router.js';
import { userRouter } from '../modules/user/user.router.js';
import { router } from './trpc.js';

/** Every procedure of the API: served at /trpc, and at /api/v4 where it has `meta.openapi`. */
export const appRouter = router({
  auth: authRouter,
  system: systemRouter,
  clients: clientRouter,
  users: userRouter,
  guests: guestRouter,
  groups: groupRouter,
  roles: roleRouter,
  permissionSchemes: permissionSchemeRouter,
  access: accessRouter,
  license: licenseRouter,
});

export type AppRouter = typeof appRouter;
