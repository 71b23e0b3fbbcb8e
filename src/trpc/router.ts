import { authRouter } from '../modules/auth/auth.router.js';
import { clientRouter } from '../modules/client/client.router.js';
import { systemRouter } from '../modules/system/system.router.js';
import { router } from './trpc.js';

/** Every procedure of the API: served at /trpc, and at /api/v4 where it has `meta.openapi`. */
export const appRouter = router({
  auth: authRouter,
  system: systemRouter,
  clients: clientRouter,
});

export type AppRouter = typeof appRouter;
