import { router } from '../../trpc/trpc.js';

export const historyRouter = router({});
