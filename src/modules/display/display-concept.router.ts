import { router } from '../../trpc/trpc.js';

export const displayConceptRouter = router({});
